package org.containerfs.fuse;

import java.io.PrintStream;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/** The mount's log: one line per event on stderr (or the --log file of a background mount). */
public final class MountLog {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    private final PrintStream out;
    private final boolean verbose;

    public MountLog(PrintStream out, boolean verbose) {
        this.out = out;
        this.verbose = verbose;
    }

    public static MountLog stderr(boolean verbose) {
        return new MountLog(System.err, verbose);
    }

    /** Routine events (commits, session start): shown with --verbose. */
    public void info(String message) {
        if (verbose) {
            line("info", message);
        }
    }

    /** Always shown: what the user must know (mounted, unmounting). */
    public void notice(String message) {
        line("note", message);
    }

    /** A request refused or failed: the errno the caller got and why. */
    public void warn(String message) {
        line("warn", message);
    }

    public void error(String message) {
        line("error", message);
    }

    private void line(String level, String message) {
        out.println("containerfs-fuse " + LocalTime.now().format(TIME) + " " + level + ": " + message);
        out.flush();
    }
}
