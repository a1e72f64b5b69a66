package org.containerfs.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.containerfs.spi.OpenProgress;

/**
 * One progress line on standard error, redrawn in place with a carriage return: a bar with bytes, rate and time
 * left when the total is known, else a running count. It appears only after {@link #DELAY_NANOS} (quick work
 * shows nothing), is redrawn at most ten times a second, and is wiped when the work ends, so what follows on the
 * terminal starts on a clean line.
 *
 * <p>Hand-written rather than a library: me.tongfei:progressbar (38 KB) brings jline-terminal and jline-native
 * (about 450 KB more), starts a refresh thread, and still needs the caller to decide whether standard error is a
 * terminal, which is the one decision that matters here ({@link #stderrIsTerminal}). Only a carriage return and
 * spaces are written: no escape sequences.
 */
final class Progress implements AutoCloseable, OpenProgress {
    /** Before this, nothing is drawn ({@code -Dcontainerfs.progress.delayMillis}, default 300 ms). */
    static final long DELAY_NANOS = Long.getLong("containerfs.progress.delayMillis", 300) * 1_000_000L;
    private static final long REDRAW_NANOS = 100_000_000L;
    private static final Progress NONE = new Progress(null, null, "", -1);

    private final PrintStream err;
    private final PrintStream out;
    private String label;
    private final long start = System.nanoTime();
    private long total;
    private long done;
    private long items;
    private long lastDraw;
    private int drawnWidth;

    private Progress(PrintStream err, PrintStream out, String label, long total) {
        this.err = err;
        this.out = out;
        this.label = label;
        this.total = total;
    }

    /**
     * A progress line on {@code err}, or one that draws nothing when {@code shown} is false. Total -1: unknown.
     * {@code out} (standard output, when it may share the terminal) is flushed before each drawing, so that the
     * line never lands in the middle of buffered output; a command wipes the line ({@link #close}) before it
     * prints a line of its own, and the next update draws it again.
     */
    static Progress start(PrintStream err, PrintStream out, boolean shown, String label, long total) {
        return shown ? new Progress(err, out, label, total) : NONE;
    }

    long started() {
        return start;
    }

    boolean shown() {
        return err != null;
    }

    /** A new label (the item being worked on), shown from the next drawing. */
    synchronized void label(String text) {
        if (err == null) {
            return; // the shared line that draws nothing
        }
        label = text;
        maybeDraw();
    }

    /** Adds bytes done. */
    synchronized void advance(long bytes) {
        done += bytes;
        maybeDraw();
    }

    /** One more item (file) done. */
    synchronized void item() {
        items++;
        maybeDraw();
    }

    /** The opening scan's report: bytes = the furthest byte read, total = the container's size. */
    @Override
    public synchronized void scanned(long bytes, long size) {
        total = size;
        done = bytes;
        maybeDraw();
    }

    @Override
    public void finished() {
        close();
    }

    private void maybeDraw() {
        if (err == null) {
            return;
        }
        long now = System.nanoTime();
        if (now - start < DELAY_NANOS || (drawnWidth > 0 && now - lastDraw < REDRAW_NANOS)) {
            return;
        }
        lastDraw = now;
        draw(line(now));
    }

    private void draw(String text) {
        if (out != null) {
            out.flush();
        }
        int width = terminalWidth() - 1;
        if (text.length() > width) {
            text = text.substring(0, width);
        }
        StringBuilder sb = new StringBuilder("\r").append(text);
        for (int i = text.length(); i < drawnWidth; i++) {
            sb.append(' ');
        }
        drawnWidth = text.length();
        err.print(sb);
        err.flush();
    }

    /** The line for the state at {@code now}: {@code label [####....]  45% 1.2 GiB / 2.6 GiB 85.3 MiB/s 0:17 left}. */
    String line(long now) {
        double seconds = Math.max(1e-3, (now - start) / 1e9);
        double rate = done / seconds;
        StringBuilder sb = new StringBuilder(label.length() > 32 ? label.substring(0, 31) + "~" : label);
        if (total > 0) {
            double fraction = Math.min(1.0, (double) done / total);
            int cells = 16;
            int filled = (int) Math.round(fraction * cells);
            sb.append(" [").append("#".repeat(filled)).append(".".repeat(cells - filled)).append("] ");
            sb.append(String.format(Locale.ROOT, "%3d%% %s / %s %s/s", (int) (fraction * 100), bytes(done), bytes(total),
                    bytes((long) rate)));
            // too early a guess misleads (the first reads of a scan are headers): wait for a second and 1%
            if (rate > 0 && done < total && seconds >= 1 && done * 100 >= total) {
                sb.append(' ').append(duration((long) ((total - done) / rate))).append(" left");
            }
        } else {
            if (items > 0) {
                sb.append(String.format(Locale.ROOT, " %,d files", items));
            }
            sb.append(String.format(Locale.ROOT, " %s %s/s", bytes(done), bytes((long) rate)));
        }
        return sb.toString();
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    static String duration(long seconds) {
        return seconds >= 3600
                ? String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                : String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }

    /** Wipes the line, if one was drawn. */
    @Override
    public synchronized void close() {
        if (err != null && drawnWidth > 0) {
            err.print("\r" + " ".repeat(drawnWidth) + "\r");
            err.flush();
            drawnWidth = 0;
        }
    }

    /** The terminal's own width (standard error is the terminal drawn on), else $COLUMNS, else 80. */
    private static int terminalWidth() {
        java.util.OptionalInt asked = TerminalWidth.of(2);
        if (asked.isPresent() && asked.getAsInt() >= 20) {
            return asked.getAsInt();
        }
        try {
            int columns = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "80").trim());
            return columns >= 20 ? columns : 80;
        } catch (NumberFormatException e) {
            return 80;
        }
    }

    /**
     * Whether this process's standard error is a terminal. Java has no isatty; on Linux the descriptor's link in
     * /proc names the device (a pseudo-terminal /dev/pts/N or a console /dev/ttyN); elsewhere the console's
     * answer for the process stands in for it.
     */
    static boolean stderrIsTerminal() {
        Path fd = Path.of("/proc/self/fd/2");
        try {
            if (Files.isSymbolicLink(fd)) {
                String target = Files.readSymbolicLink(fd).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
        return System.console() != null && System.console().isTerminal();
    }
}
