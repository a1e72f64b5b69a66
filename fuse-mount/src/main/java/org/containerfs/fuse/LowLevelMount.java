package org.containerfs.fuse;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.containerfs.fuse.lowlevel.LowLevelLibrary;
import org.containerfs.fuse.lowlevel.LowLevelSession;
import org.containerfs.fuse.lowlevel.LowLevelUnavailableException;

/**
 * A mount through libfuse's low-level API ({@code --engine=lowlevel}): the options of
 * {@link MountSettings} turned into session options and per-reply timeouts, served by
 * {@link NioLowLevelOperations} on {@code max_threads} threads. Ctrl-C/SIGTERM reach it through
 * {@link MountCommand}'s shutdown hook, which unmounts ({@link #unmount(Duration)}); the serving
 * threads end when the kernel ends the connection.
 */
public final class LowLevelMount implements MountedSession {
    /** Options of libfuse's high-level API that the low-level session refuses; read here instead. */
    private static final List<String> HIGH_LEVEL_OPTIONS = List.of("entry_timeout=", "attr_timeout=",
            "negative_timeout=", "kernel_cache", "max_threads=", "auto_cache", "ac_attr_timeout=", "use_ino");

    private final LowLevelSession session;
    private final NioLowLevelOperations operations;
    private final Path mountPoint;
    private final MountLog log;
    private final UnmountWatcher watcher;
    /** Full collections when the mount goes idle after the heap grew; null with -Dcontainerfs.fuse.idleGc=false. */
    private final IdleCollector idleCollector;

    private LowLevelMount(LowLevelSession session, NioLowLevelOperations operations, Path mountPoint, MountLog log,
            UnmountWatcher watcher, IdleCollector idleCollector) {
        this.watcher = watcher;
        this.idleCollector = idleCollector;
        this.session = session;
        this.operations = operations;
        this.mountPoint = mountPoint;
        this.log = log;
    }

    /**
     * Mounts {@code root} (a directory of any NIO file system) at {@code mountPoint}: read-only, or with
     * {@code settings.readOnly()} false writable as the high-level engine's --rw (new files staged and
     * committed by {@link Staging}).
     */
    public static LowLevelMount mount(Path root, Path mountPoint, MountSettings settings, MountLog log)
            throws FuseUnavailableException, IOException {
        MountedSession.Target target = MountedSession.prepare(mountPoint, settings);
        Path mp = target.mountPoint();
        LowLevelLibrary lib;
        try {
            lib = LowLevelLibrary.load(target.libfuse());
        } catch (LowLevelUnavailableException e) {
            throw new FuseUnavailableException(e.getMessage(), e);
        }
        double entryTimeout = option(settings, "entry_timeout=", settings.cacheTimeout());
        double attrTimeout = option(settings, "attr_timeout=", settings.cacheTimeout());
        int threads = (int) option(settings, "max_threads=", MountSettings.defaultWorkers());
        NioLowLevelOperations ops = new NioLowLevelOperations(root, ErrnoTable.linux(),
                !settings.readOnly(), settings.uid(), settings.gid(), entryTimeout, attrTimeout, true, settings.maxRead(), log);
        if (root.getFileSystem() instanceof org.containerfs.core.ContainerFileSystem container) {
            ops.watchGrowth(TreeChanges.of(container)); // the kernel's no-opendir mode; see NioLowLevelOperations
        } else if (root.getFileSystem() instanceof org.containerfs.ensemble.EnsembleFileSystem tree) {
            ops.stampListings(tree::listingStamp); // opendir keeps a container's listings after one stat
        }
        LowLevelSession session = LowLevelSession.mount(lib, ops, mp, sessionArguments(settings), Math.max(1, threads),
                log::error);
        log.info("libfuse " + lib.packageVersion() + ", low-level engine, " + threads + " serving thread(s)");
        if (settings.readAheadKb() > 0) {
            // not now: the kernel sets the window again when it takes the reply to INIT (served by a thread
            // that may not have run yet), which would undo it
            session.afterInit(() -> FuseSession.setReadAhead(mp, settings.readAheadKb(), log));
        }
        IdleCollector idle = "false".equals(System.getProperty("containerfs.fuse.idleGc")) ? null
                : IdleCollector.start(() -> session.requestsUnderWay() > 0 ? -1 : session.requestsBegun(), log);
        // after the mount, not beside it: a process started while libfuse starts fusermount3 can share a pipe with
        // it, and then starting it never returns (fuse-mount/README.md, "Start-up and footprint of the daemon")
        return new LowLevelMount(session, ops, mp, log, settings.autoUnmount() ? UnmountWatcher.start(mp, log) : null,
                idle);
    }

    /**
     * Starts binding libfuse and making the upcall stubs' call shapes on a daemon thread of its own, for a
     * low-level mount that this process will make: on 2 cores this runs while the command line is parsed and the
     * container opened (it cost about a third of a second of the start on the mount's own thread). Anything
     * failing here is left for the mount to find and report.
     */
    public static void warmUp() {
        Thread t = new Thread(() -> {
            try {
                LowLevelSession.warmUp(LowLevelLibrary.load(LibFuse.locate()));
            } catch (Throwable ignored) {
                // the mount binds the library itself and reports why it cannot
            }
        }, "containerfs-fuse-warm-up");
        t.setDaemon(true);
        t.start();
    }

    /**
     * What {@code fuse_session_new} takes: the mount options ({@code ro}, {@code default_permissions},
     * {@code auto_unmount}, {@code fsname}, {@code subtype}, the user's {@code -o} options that are not
     * the high-level API's) and {@code -d} for --debug.
     */
    static List<String> sessionArguments(MountSettings settings) {
        List<String> opts = new ArrayList<>();
        if (settings.readOnly()) {
            opts.add("ro");
        }
        opts.add("default_permissions");
        if (settings.autoUnmount()) {
            opts.add("auto_unmount");
        }
        opts.add("fsname=" + MountSettings.escape(settings.fsName()));
        opts.add("subtype=containerfs");
        for (String o : settings.extraOptions()) {
            if (!o.equals(MountSettings.NONEMPTY) && HIGH_LEVEL_OPTIONS.stream().noneMatch(o::startsWith)) {
                opts.add(o);
            }
        }
        List<String> args = new ArrayList<>();
        if (settings.debug()) {
            args.add("-d");
        }
        args.add("-o");
        args.add(String.join(",", opts));
        return args;
    }

    /** The last {@code -o name=value} of the settings as a number, or {@code otherwise}. */
    private static double option(MountSettings settings, String prefix, double otherwise) {
        double value = otherwise;
        for (String o : settings.extraOptions()) {
            if (o.startsWith(prefix)) {
                try {
                    value = Double.parseDouble(o.substring(prefix.length()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("-o " + o + ": not a number");
                }
            }
        }
        return value;
    }

    @Override
    public Path mountPoint() {
        return mountPoint;
    }

    public NioLowLevelOperations operations() {
        return operations;
    }

    public Map<LowLevelSession.Op, Long> requestCounts() {
        return session.requestCounts();
    }

    @Override
    public boolean ended() {
        return session.ended();
    }

    @Override
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        return session.awaitEnd(timeout);
    }

    @Override
    public boolean unmount(Duration grace) throws InterruptedException {
        return MountedSession.unmountWithGrace(this, grace, log);
    }

    @Override
    public synchronized void close() {
        operations.finish(); // staged files: committed or dropped before the container closes
        log.info("requests served: " + session.requestCounts() + "; inodes known at the end: "
                + operations.knownInodes());
        if (watcher != null) {
            watcher.release();
        }
        if (idleCollector != null) {
            idleCollector.close();
        }
        if (!ended()) {
            log.notice("FUSE loop still running (files open on a detached mount): leaving it to the process exit");
            return;
        }
        session.close();
    }
}
