package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGINT and SIGTERM at many instants of a mount process's start-up and shutdown (its own JVM, as a
 * user runs it): counted from the moment the mount point appears (0 ms is the window in which the
 * session is not served yet), from the process start (the container is being opened, no handler may
 * be installed yet), and a second signal during the unmount the first one started. Every case ends,
 * within a bounded wait, with the mount point unmounted and a plain empty directory again, exit 0 once
 * the mount was made (128+signal only if the JVM had not yet started our handling, before any mount),
 * and no stack trace.
 */
class SignalDuringStartupTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    /** When to signal: {@code fromMount} counts from the mount point's appearance, else from the process start. */
    record Case(String signal, long delayMillis, boolean fromMount, String secondSignal) {
        @Override
        public String toString() {
            return "SIG" + signal + " " + delayMillis + " ms after " + (fromMount ? "the mount point appeared" : "start")
                    + (secondSignal == null ? "" : ", SIG" + secondSignal + " 30 ms later");
        }
    }

    private static final List<Case> CASES = List.of(
            new Case("INT", 0, true, null),
            new Case("TERM", 0, true, null),
            new Case("INT", 3, true, null),
            new Case("TERM", 10, true, null),
            new Case("INT", 40, true, null),
            new Case("TERM", 120, true, null),
            new Case("INT", 400, true, null),
            new Case("TERM", 0, true, "INT"),
            new Case("INT", 300, true, "TERM"),
            new Case("TERM", 150, false, null),
            new Case("INT", 600, false, null));

    @TestFactory
    Stream<DynamicTest> aSignalAtAnyInstantEndsInAnUnmountedMountPoint() {
        return java.util.Arrays.stream(Engine.values()).flatMap(engine -> CASES.stream()
                .map(c -> DynamicTest.dynamicTest(engine + ": " + c, () -> run(engine, c))));
    }

    private static void run(Engine engine, Case c) throws Exception {
        Path work = Files.createTempDirectory(tmp, "signal");
        Path mp = Files.createDirectory(work.resolve("mnt"));
        Path container = new CorpusFormat.Lime().containers().stream()
                .filter(p -> p.getFileName().toString().startsWith("s03_")).findFirst().orElseThrow();
        List<String> cmd = new ArrayList<>(FuseTestSupport.javaCommand());
        cmd.addAll(List.of(FuseMain.class.getName(), "mount", "--engine=" + engine, container.toString(), mp.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        CompletableFuture<String> output = text(p.getInputStream());
        try {
            if (c.fromMount()) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!FuseSession.isMounted(mp)) {
                    assertThat(p.isAlive()).as("mount process alive before mounting").isTrue();
                    assertThat(System.nanoTime()).as("mounted within 60 s").isLessThan(deadline);
                    Thread.onSpinWait();
                }
            }
            if (c.delayMillis() > 0) {
                Thread.sleep(c.delayMillis());
            }
            signal(p, c.signal());
            if (c.secondSignal() != null) {
                Thread.sleep(30);
                signal(p, c.secondSignal());
            }
            boolean exited = p.waitFor(30, TimeUnit.SECONDS);
            String log = exited ? output.get(10, TimeUnit.SECONDS) : "(still running)";
            assertThat(exited).as("the mount process exits; %s", c).isTrue();
            assertThat(FuseSession.isMounted(mp)).as("mounted after exit; log:%n%s", log).isFalse();
            assertThat(sh("ls", "-A", mp.toString()).ok().out()).as("a plain empty directory again").isEmpty();
            assertThat(log).as("log").doesNotContain("Exception").doesNotContain("\tat ");
            boolean mountWasMade = c.fromMount() || log.contains("containerfs: mounted");
            if (mountWasMade) {
                assertThat(p.exitValue()).as("exit; log:%n%s", log).isZero();
                assertThat(log).contains(" received: ").contains("unmounted " + mp);
            } else {
                int bySignal = 128 + (c.signal().equals("INT") ? 2 : 15);
                assertThat(p.exitValue()).as("exit; log:%n%s", log).isIn(0, bySignal);
            }
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly();
                abortHungConnection(mp);
            }
            if (FuseSession.isMounted(mp)) {
                Fusermount.unmount(mp, true);
            }
        }
    }

    private static void signal(Process p, String name) throws Exception {
        assertThat(new ProcessBuilder("kill", "-s", name, Long.toString(p.pid())).start().waitFor()).isZero();
    }

    private static CompletableFuture<String> text(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (in) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // the process ended
            }
            return out.toString(StandardCharsets.UTF_8);
        }, FuseTestSupport.THREADS);
    }

    /**
     * A process stuck on a request to its own mount cannot be killed; aborting its FUSE connection
     * (fusectl, as root) frees it, so a failing case does not leave a hung process and mount behind.
     */
    private static void abortHungConnection(Path mp) {
        String device = FuseSession.deviceOf(mp);
        if (device == null) {
            return;
        }
        Path abort = Path.of("/sys/fs/fuse/connections", device.substring(device.indexOf(':') + 1), "abort");
        try {
            Files.writeString(abort, "1");
        } catch (IOException | SecurityException e) {
            // not root or no fusectl: the lazy unmount below is all that can be done
        }
    }
}
