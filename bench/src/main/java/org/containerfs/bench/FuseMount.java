package org.containerfs.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A FUSE mount served by a foreground child process of the harness (the containerfs CLI's
 * {@code mount}, or {@code bindfs -f}). {@link #close} always leaves the mount point unmounted and the
 * process ended: {@code fusermount3 -u}, retried while busy, then a lazy unmount; a shutdown hook
 * does the same if the harness is interrupted, so no run leaves a mount behind.
 */
final class FuseMount implements AutoCloseable {
    private final Process process;
    private final Path mountPoint;
    private final Path log;
    private final Thread hook;
    private boolean closed;

    private FuseMount(Process process, Path mountPoint, Path log) {
        this.process = process;
        this.mountPoint = mountPoint;
        this.log = log;
        this.hook = new Thread(this::unmountQuietly, "unmount " + mountPoint);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Runs {@code command} (which mounts at {@code mountPoint} and serves until unmounted) and waits for the mount. */
    static FuseMount start(List<String> command, Path mountPoint, Path log) throws IOException, InterruptedException {
        Path at = Files.createDirectories(mountPoint).toRealPath();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        FuseMount mount = new FuseMount(process, at, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!isMounted(at)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                mount.close();
                throw new IOException(String.join(" ", command) + (process.isAlive() ? " did not mount within 60 s"
                        : " exited with " + process.exitValue()) + ":\n" + Files.readString(log));
            }
            Thread.sleep(20);
        }
        return mount;
    }

    Path mountPoint() {
        return mountPoint;
    }

    /** The serving process (the daemon itself: tools run in the foreground, the launcher execs java). */
    long pid() {
        return process.pid();
    }

    @Override
    public synchronized void close() throws IOException, InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            unmount();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or ran: it unmounts too
            }
        }
    }

    private void unmount() throws IOException, InterruptedException {
        // A process that just closed a file can keep the mount busy for a moment: retry before detaching.
        for (int attempt = 0; attempt < 25 && isMounted(mountPoint); attempt++) {
            if (fusermount("-u") == 0) {
                break;
            }
            Thread.sleep(200);
        }
        if (isMounted(mountPoint)) {
            fusermount("-u", "-z");
        }
        // Unmounted, a foreground FUSE server ends its loop and exits; SIGTERM only if it does not.
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (isMounted(mountPoint)) {
            throw new IOException(mountPoint + " is still mounted (see " + log + ")");
        }
    }

    private void unmountQuietly() {
        try {
            unmount();
        } catch (IOException | InterruptedException | RuntimeException e) {
            System.err.println("[bench] unmounting " + mountPoint + ": " + e.getMessage());
        }
    }

    private int fusermount(String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("fusermount3"));
        command.addAll(List.of(options));
        command.add("--");
        command.add(mountPoint.toString());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    /** Whether {@code mountPoint} (a real path) is a mount point, from /proc/self/mountinfo. */
    static boolean isMounted(Path mountPoint) throws IOException {
        String wanted = mountPoint.toString();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
            String[] fields = line.split(" ");
            if (fields.length > 4 && unescape(fields[4]).equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    /** mountinfo writes space, tab, newline and backslash as a backslash and three octal digits. */
    private static String unescape(String field) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                sb.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
