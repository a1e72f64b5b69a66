package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.containerfs.fuse.CorpusFormat.Expected;
import org.containerfs.fuse.FuseTestSupport.MountProcess;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** How a mount ends: SIGKILL, SIGTERM, umount while a reader is active, a --background mount. */
class MountLifecycleTest {
    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    private static Path corpusFile(String prefix) throws Exception {
        return new CorpusFormat.Lime().containers().stream()
                .filter(p -> p.getFileName().toString().startsWith(prefix)).findFirst().orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void sigkillOfTheMountProcessLeavesNoHungMountPoint(Engine engine, @TempDir Path dir) throws Exception {
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(corpusFile("s08_"), mp, "--engine=" + engine)) {
            sh("ls", mp + "/msg02").ok();
            m.process.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook runs; auto_unmount cleans up
            assertThat(m.process.waitFor(20, TimeUnit.SECONDS)).as("killed").isTrue();
            try {
                FuseTestSupport.awaitUnmounted(mp, Duration.ofSeconds(20));
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; processes: " + sh("ps", "-eo", "pid,ppid,stat,args").out(), e);
            }
            // Not "Transport endpoint is not connected": the plain, empty directory again.
            assertThat(sh("ls", "-A", mp.toString()).ok().out()).isEmpty();
            sh("stat", mp.toString()).ok();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void sigtermUnmountsCleanly(Engine engine, @TempDir Path dir) throws Exception {
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(corpusFile("s08_"), mp, "--engine=" + engine)) {
            sh("cat", mp + "/msg02/rec04.ildg-binary-data").ok();
            m.process.toHandle().destroy(); // SIGTERM (Process.destroy would also close our end of its output)
            int exit = m.awaitExit(Duration.ofSeconds(20));
            assertThat(exit).as("exit after SIGTERM and a clean unmount (--help: 0); log:%n%s", m.output()).isZero();
            assertThat(m.output()).contains("SIGTERM received: unmounting").contains("unmounted " + mp);
            assertThat(FuseSession.isMounted(mp)).isFalse();
            assertThat(sh("ls", "-A", mp.toString()).ok().out()).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void sigtermWhileAWriterHoldsANewRecordCommitsWhatWasWrittenAndExits(Engine engine, @TempDir Path dir) throws Exception {
        Path container = dir.resolve("conf.lime");
        Files.copy(corpusFile("s01_"), container);
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(container, mp, "--rw", "--engine=" + engine, "--grace=1")) {
            sh("mkdir", mp + "/msg02").ok();
            Process writer = new ProcessBuilder("sh", "-c", "exec 3>\"$1\" && printf 'partial' >&3 && echo open && read go",
                    "sh", mp + "/msg02/rec01.in-progress").start();
            BufferedReader writerOut = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
            assertThat(writerOut.readLine()).isEqualTo("open");

            m.process.toHandle().destroy(); // SIGTERM: busy for --grace, then detached; the container is closed
            assertThat(m.awaitExit(Duration.ofSeconds(30))).as("left detached: 128 + SIGTERM").isEqualTo(143);
            assertThat(m.output()).contains("is still in use: detaching it").contains("detached " + mp);
            assertThat(FuseSession.isMounted(mp)).isFalse();
            writer.getOutputStream().close();
            assertThat(writer.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        try (var fs = MountCommand.openContainer(container, false, null, false)) {
            assertThat(Files.readString(fs.getPath("/msg02/rec01.in-progress"))).isEqualTo("partial");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void umountWhileAReaderIsActiveIsRefusedThenLazyDetachesAndTheReaderFinishes(Engine engine, @TempDir Path dir)
            throws Exception {
        Path container = corpusFile("s13_");
        Map<String, Expected> rows = new CorpusFormat.Lime().expected(container);
        Expected big = rows.values().stream().filter(e -> e.size() == 70001).findFirst().orElseThrow();
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(container, mp, "--engine=" + engine)) {
            // The reader opens the record, then waits for a line before reading it.
            Process reader = new ProcessBuilder("sh", "-c", "exec 3<\"$1\" && echo open && read go && sha256sum <&3",
                    "sh", mp + big.path()).start();
            BufferedReader readerOut = new BufferedReader(new InputStreamReader(reader.getInputStream(), StandardCharsets.UTF_8));
            assertThat(readerOut.readLine()).isEqualTo("open");

            CommandLine umount = new CommandLine(new UmountCommand());
            java.io.StringWriter err = new java.io.StringWriter();
            int busy = new CommandLine(new UmountCommand(System.out, new java.io.PrintStream(
                    new java.io.ByteArrayOutputStream() {
                        @Override
                        public synchronized void flush() {
                            err.write(toString(StandardCharsets.UTF_8));
                            reset();
                        }
                    }, true, StandardCharsets.UTF_8))).execute(mp.toString());
            assertThat(busy).isEqualTo(1);
            assertThat(err.toString()).contains("is busy");
            assertThat(FuseSession.isMounted(mp)).isTrue();

            assertThat(umount.execute("--lazy", mp.toString())).isZero();
            assertThat(FuseSession.isMounted(mp)).isFalse();
            assertThat(m.process.isAlive()).as("still serving the open file").isTrue();

            try (OutputStream in = reader.getOutputStream()) {
                in.write("go\n".getBytes(StandardCharsets.US_ASCII));
            }
            assertThat(readerOut.readLine()).startsWith(big.sha256());
            assertThat(reader.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(reader.exitValue()).isZero();
            // The last user is gone: the session ends and the mount process exits by itself.
            assertThat(m.awaitExit(Duration.ofSeconds(20))).as(m.output()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void backgroundMountReturnsOnceMountedAndEndsOnUmount(Engine engine, @TempDir Path dir) throws Exception {
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        List<String> cmd = new ArrayList<>(FuseTestSupport.javaCommand());
        cmd.addAll(List.of(FuseMain.class.getName(), "mount", "--engine=" + engine, "--background", "--log", dir.resolve("mount.log").toString(),
                corpusFile("s03_").toString(), mp.toString()));
        FuseTestSupport.Result started = FuseTestSupport.run(Duration.ofSeconds(90), cmd).ok();
        assertThat(FuseSession.isMounted(mp)).isTrue();
        Matcher pid = Pattern.compile("pid (\\d+)").matcher(started.out());
        assertThat(pid.find()).as(started.out()).isTrue();
        ProcessHandle server = ProcessHandle.of(Long.parseLong(pid.group(1))).orElseThrow();
        try {
            assertThat(sh("ls", mp.toString()).ok().lines()).containsExactly("msg01", "msg02", "msg03");
            assertThat(new CommandLine(new UmountCommand()).execute(mp.toString())).isZero();
            server.onExit().get(20, TimeUnit.SECONDS);
            assertThat(Files.readString(dir.resolve("mount.log"))).contains("unmounted " + mp);
        } finally {
            if (server.isAlive()) {
                server.destroyForcibly();
            }
        }
    }
}
