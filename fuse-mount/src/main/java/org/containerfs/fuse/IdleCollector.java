package org.containerfs.fuse;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.function.LongSupplier;

/**
 * Gives the daemon's heap back after a burst of requests (never while one is under way). The mount runs the serial collector, which promotes
 * what outlives its small young generation and grows the old one rather than collect it while it can grow (the
 * default maximum is a quarter of the RAM): after an {@code ls -lR} of a million paths the old generation held
 * 370 MB for 81 MB live, and nothing collected it again. So when the mount has served no request for
 * {@value #IDLE_CHECKS} checks in a row (a check a second) and the committed heap grew by {@value #GROWTH_MIB} MiB or
 * more since the last time, this runs full collections, up to {@value #MAX_IN_A_ROW}, while they shrink the heap
 * (the collector shrinks in steps, nothing at the first); the heap's free ratios are set at start to 10 % and 30 %
 * (the JVM's 40 % and 70 % keep a heap of up to three times the live data) unless the command line set them.
 * A collection costs a pause while no request is waiting (0.5 s for 444 MB).
 */
final class IdleCollector implements AutoCloseable {
    static final int IDLE_CHECKS = 2;
    static final long GROWTH_MIB = 32;
    static final int MAX_IN_A_ROW = 4;
    private static final long CHECK_MS = 1000;

    /** The heap as the decision sees it. */
    interface Heap {
        long committed();

        void collect();
    }

    private final LongSupplier requests;
    private final Heap heap;
    private final MountLog log;
    private long lastRequests = -1;
    private int idleChecks;
    private long committedAfterLast;
    private volatile Thread thread;

    IdleCollector(LongSupplier requests, Heap heap, MountLog log) {
        this.requests = requests;
        this.heap = heap;
        this.log = log;
        this.committedAfterLast = heap.committed();
    }

    /** Started on a daemon thread of its own, with the heap's free ratios tightened. */
    static IdleCollector start(LongSupplier requests, MountLog log) {
        tightenFreeRatios(log);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        IdleCollector c = new IdleCollector(requests, new Heap() {
            @Override
            public long committed() {
                return memory.getHeapMemoryUsage().getCommitted();
            }

            @Override
            public void collect() {
                System.gc();
            }
        }, log);
        Thread t = new Thread(c::run, "containerfs-idle-gc");
        t.setDaemon(true);
        c.thread = t;
        t.start();
        return c;
    }

    /**
     * One check ({@code requests}: the requests begun so far, or -1 while one is under way): whether the mount is
     * idle after the heap grew, and if so the collections (at most
     * {@link #MAX_IN_A_ROW}, while each shrinks the committed heap). Returns how many it ran.
     */
    int check() {
        long now = requests.getAsLong();
        if (now < 0 || now != lastRequests) { // a request under way (a long listing), or new ones since the last check
            lastRequests = now;
            idleChecks = 0;
            return 0;
        }
        if (++idleChecks < IDLE_CHECKS || heap.committed() < committedAfterLast + (GROWTH_MIB << 20)) {
            return 0;
        }
        int ran = 0;
        long before = heap.committed();
        while (ran < MAX_IN_A_ROW) {
            heap.collect();
            ran++;
            long after = heap.committed();
            if (after >= before && ran > 1) {
                break; // no longer shrinking
            }
            before = after;
        }
        committedAfterLast = heap.committed();
        return ran;
    }

    private void run() {
        while (thread == Thread.currentThread()) {
            try {
                Thread.sleep(CHECK_MS);
                long before = heap.committed();
                int ran = check();
                if (ran > 0) {
                    log.info("idle after requests: " + ran + " full collection(s), heap committed " + (before >> 20)
                            + " -> " + (heap.committed() >> 20) + " MiB");
                }
            } catch (InterruptedException stop) {
                return;
            } catch (RuntimeException e) {
                log.warn("collecting the heap while idle failed: " + e);
                return;
            }
        }
    }

    /** MinHeapFreeRatio 10 and MaxHeapFreeRatio 30 (manageable flags) where the command line left the defaults. */
    private static void tightenFreeRatios(MountLog log) {
        try {
            var hotspot = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            if (hotspot.getVMOption("MinHeapFreeRatio").getOrigin() == com.sun.management.VMOption.Origin.DEFAULT
                    && hotspot.getVMOption("MaxHeapFreeRatio").getOrigin() == com.sun.management.VMOption.Origin.DEFAULT) {
                hotspot.setVMOption("MinHeapFreeRatio", "10");
                hotspot.setVMOption("MaxHeapFreeRatio", "30");
            }
        } catch (RuntimeException | LinkageError e) {
            log.info("the heap's free ratios stay the JVM's: " + e);
        }
    }

    @Override
    public void close() {
        Thread t = thread;
        thread = null;
        if (t != null) {
            t.interrupt();
        }
    }
}
