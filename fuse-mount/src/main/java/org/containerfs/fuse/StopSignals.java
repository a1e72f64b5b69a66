package org.containerfs.fuse;

import java.util.List;

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP as requests to end the mount, whatever start-up has reached.
 * They are handled, not left to the JVM's shutdown: a shutdown started while the mount is being made
 * would run its hooks alongside the mounting thread (an unmount before the mount exists, a hook added
 * during shutdown: {@code IllegalStateException}) and end the process with 128+signal. Here a signal
 * only records the request and runs the stop action once the session exists; the main thread then
 * finishes as after an unmount and the process exits 0.
 */
final class StopSignals implements AutoCloseable {
    private static final List<String> SIGNALS = List.of("INT", "TERM", "HUP");

    private final MountLog log;
    /** The handlers this replaced, given back by {@link #close} (a mount run inside a longer-lived JVM). */
    private final java.util.Map<sun.misc.Signal, sun.misc.SignalHandler> previous = new java.util.LinkedHashMap<>();
    private boolean requested;
    private Runnable action;
    private boolean started;
    private boolean finished;
    private int signalNumber;

    private StopSignals(MountLog log) {
        this.log = log;
    }

    /** Takes over the three signals for this process (the JVM's own handling of them ends). */
    static StopSignals install(MountLog log) {
        StopSignals s = new StopSignals(log);
        for (String name : SIGNALS) {
            try {
                sun.misc.Signal signal = new sun.misc.Signal(name);
                s.previous.put(signal, sun.misc.Signal.handle(signal, caught -> s.signalled(caught.getName(),
                        caught.getNumber())));
            } catch (IllegalArgumentException unavailable) {
                // -Xrs or a signal the platform lacks: the JVM's default handling stays
                log.warn("SIG" + name + " cannot be handled (" + unavailable.getMessage() + "): it ends the process "
                        + "without unmounting");
            }
        }
        return s;
    }

    private void signalled(String name, int number) {
        Runnable run;
        synchronized (this) {
            if (!requested) {
                log.notice("SIG" + name + " received: " + (action == null
                        ? "stopping; the mount, if it is being made, is unmounted once made" : "unmounting"));
            }
            if (!requested) {
                signalNumber = number;
            }
            requested = true;
            run = claim();
        }
        runOnce(run);
    }

    /** Whether a signal has asked the mount to end. */
    synchronized boolean requested() {
        return requested;
    }

    /**
     * The mount exists: {@code stop} ends it on a signal. If a signal came first, it runs now, in this
     * thread. Runs at most once.
     */
    void onSignal(Runnable stop) {
        Runnable run;
        synchronized (this) {
            action = stop;
            run = requested ? claim() : null;
        }
        runOnce(run);
    }

    /** The first signal's number (0: none): a mount that had to be left detached exits with 128 + it. */
    synchronized int signalNumber() {
        return signalNumber;
    }

    /** Whether the stop action has run to its end. */
    synchronized boolean stopFinished() {
        return finished;
    }

    private Runnable claim() {
        if (action == null || started) {
            return null;
        }
        started = true;
        return action;
    }

    private void runOnce(Runnable run) {
        if (run == null) {
            return;
        }
        try {
            run.run();
        } finally {
            synchronized (this) {
                finished = true;
            }
        }
    }

    /**
     * Gives the signals back to the handlers they had before {@link #install}, unless a signal already asked the
     * mount to end: then the process is on its way out, and a second signal (Ctrl-C pressed twice, a SIGTERM after a
     * SIGINT) arriving between this and the exit must not turn the clean unmount into death by the JVM's default
     * handler (exit 143). {@code SignalDuringStartupTest} sends such pairs.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (requested) {
                return;
            }
        }
        previous.forEach(sun.misc.Signal::handle);
    }
}
