package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Shared helpers of the FUSE tests: availability, shell commands, child mount processes, hashes. */
final class FuseTestSupport {
    private FuseTestSupport() {}

    /** Threads for pipes and parallel commands: never the common pool, which blocking tasks would starve. */
    static final java.util.concurrent.ExecutorService THREADS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fuse-test-io");
        t.setDaemon(true);
        return t;
    });

    /**
     * FUSE tests run for real. They are skipped only outside CI (env CI unset) on a machine without
     * /dev/fuse or libfuse3; in CI a missing FUSE is a failure.
     */
    static void requireFuse() {
        String reason = LibFuse.unavailableReason();
        if (reason == null) {
            return;
        }
        if (System.getenv("CI") != null) {
            fail("FUSE is required in CI but not available: " + reason);
        }
        Assumptions.abort("FUSE not available on this machine (and CI is unset): " + reason);
    }

    /** A finished command: exit code, stdout bytes, stderr text. */
    record Result(int exit, byte[] stdout, String stderr) {
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }

        List<String> lines() {
            String o = out();
            return o.isEmpty() ? List.of() : List.of(o.split("\n"));
        }

        Result ok() {
            assertThat(exit).as("exit code; stderr: %s", stderr).isZero();
            return this;
        }
    }

    static Result sh(String... command) {
        return run(Duration.ofSeconds(60), List.of(command));
    }

    static Result run(Duration timeout, List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
            CompletableFuture<byte[]> out = drain(p.getInputStream());
            CompletableFuture<byte[]> err = drain(p.getErrorStream());
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                fail("timed out after " + timeout + ": " + command);
            }
            return new Result(p.exitValue(), out.join(), new String(err.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static CompletableFuture<byte[]> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                return in.readAllBytes();
            } catch (IOException e) {
                return new byte[0];
            }
        }, THREADS);
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void awaitUnmounted(Path mountPoint, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (FuseSession.isMounted(mountPoint)) {
            if (System.nanoTime() > deadline) {
                fail(mountPoint + " still mounted after " + timeout);
            }
            Thread.sleep(50);
        }
    }

    /** A mount command ({@link FuseMain}) in its own JVM, as a user would run it. */
    static final class MountProcess implements AutoCloseable {
        final Process process;
        final Path mountPoint;
        private final ByteArrayOutputStream output = new ByteArrayOutputStream();
        private final CompletableFuture<Void> pump;

        private MountProcess(Process process, Path mountPoint) {
            this.process = process;
            this.mountPoint = mountPoint;
            this.pump = CompletableFuture.runAsync(() -> {
                try (InputStream in = process.getInputStream()) {
                    byte[] buf = new byte[4096];
                    for (int n; (n = in.read(buf)) > 0; ) {
                        synchronized (output) {
                            output.write(buf, 0, n);
                        }
                    }
                } catch (IOException ignored) {
                    // process ended
                }
            }, THREADS);
        }

        static MountProcess start(Path container, Path mountPoint, String... extra) throws Exception {
            List<String> cmd = new ArrayList<>(javaCommand());
            cmd.add(FuseMain.class.getName());
            cmd.add("mount");
            cmd.add(container.toString());
            cmd.add(mountPoint.toString());
            cmd.addAll(List.of(extra));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            MountProcess m = new MountProcess(p, mountPoint);
            m.awaitOutput("containerfs: mounted", Duration.ofSeconds(60));
            assertThat(FuseSession.isMounted(mountPoint)).as("mounted; log:%n%s", m.output()).isTrue();
            return m;
        }

        String output() {
            synchronized (output) {
                return output.toString(StandardCharsets.UTF_8);
            }
        }

        void awaitOutput(String text, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!output().contains(text)) {
                if (!process.isAlive() && !output().contains(text)) {
                    Thread.sleep(100); // let the pump finish
                    if (!output().contains(text)) {
                        fail("mount process ended (exit " + process.exitValue() + ") without '" + text + "':\n" + output());
                    }
                }
                if (System.nanoTime() > deadline) {
                    fail("no '" + text + "' within " + timeout + ":\n" + output());
                }
                Thread.sleep(20);
            }
        }

        int awaitExit(Duration timeout) throws InterruptedException {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                fail("mount process still running after " + timeout + ":\n" + output());
            }
            pump.join();
            return process.exitValue();
        }

        @Override
        public void close() throws Exception {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
            if (FuseSession.isMounted(mountPoint)) {
                Fusermount.unmount(mountPoint, true);
            }
        }
    }

    /**
     * The mount command run in this JVM (as the CLI would), for a mount that is expected to fail: its
     * exit code, stdout and stderr. Should it mount after all, it is unmounted after {@code timeout}
     * and the test fails instead of hanging in the foreground mount.
     */
    static Result mountCommand(Duration timeout, Path mountPoint, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        java.util.concurrent.Future<Integer> rc = THREADS.submit(() -> new picocli.CommandLine(new MountCommand(
                new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8))).execute(args));
        try {
            return new Result(rc.get(timeout.toMillis(), TimeUnit.MILLISECONDS), out.toByteArray(),
                    err.toString(StandardCharsets.UTF_8));
        } catch (java.util.concurrent.TimeoutException e) {
            if (FuseSession.isMounted(mountPoint)) {
                Fusermount.unmount(mountPoint, true);
            }
            rc.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return fail("the mount command did not fail but ran for " + timeout + ": " + List.of(args) + "\n" + out);
        }
    }

    /** java with native access and this test's class path (provider, fuse-mount, jfuse, picocli). */
    static List<String> javaCommand() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"));
    }

    /** Polls ls of {@code directory} until it lists {@code name} (10 s at the most); how long that took. */
    static Duration awaitListed(Path directory, String name) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            Result ls = sh("ls", directory.toString());
            if (ls.exit() == 0 && ls.lines().contains(name)) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            Thread.sleep(20);
        }
        throw new AssertionError(name + " never appeared in ls " + directory);
    }
}
