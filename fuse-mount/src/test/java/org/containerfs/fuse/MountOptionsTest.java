package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.containerfs.fuse.FuseTestSupport.MountProcess;
import org.containerfs.fuse.FuseTestSupport.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The mount's options mean what they mean in every other command: {@code --strict} and {@code --env}
 * reach the provider, {@code --debug} prints stack traces while libfuse's request log is
 * {@code --fuse-debug}; a background mount's log file is named after the background process.
 */
class MountOptionsTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    private static Path lime(String prefix) throws Exception {
        return new CorpusFormat.Lime().containers().stream()
                .filter(p -> p.getFileName().toString().startsWith(prefix)).findFirst().orElseThrow();
    }

    @Test
    void strictAndEnvReachTheProviderAndDebugPrintsTheStackTrace() throws Exception {
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        String truncated = lime("s10_").toString(); // mounts showing its readable part, but for strict=true
        for (List<String> strict : List.of(List.of("--strict"), List.of("--env", "strict=true"))) {
            List<String> args = new ArrayList<>(strict);
            args.addAll(List.of(truncated, mp.toString()));
            Result r = FuseTestSupport.mountCommand(Duration.ofSeconds(30), mp, args.toArray(String[]::new));
            assertThat(r.exit()).as("%s: %s", strict, r.stderr()).isEqualTo(1);
            assertThat(r.stderr()).startsWith("containerfs mount: cannot open " + truncated + ": ").doesNotContain("\tat ");
            assertThat(FuseSession.isMounted(mp)).isFalse();
        }
        Result traced = FuseTestSupport.mountCommand(Duration.ofSeconds(30), mp, "--debug", "--strict", truncated,
                mp.toString());
        assertThat(traced.exit()).isEqualTo(1);
        assertThat(traced.stderr()).contains("\tat org.containerfs.");

        Result accessMode = FuseTestSupport.mountCommand(Duration.ofSeconds(30), mp, "--env", "accessMode=readWrite",
                lime("s01_").toString(), mp.toString());
        assertThat(accessMode.exit()).isEqualTo(2);
        assertThat(accessMode.stderr()).contains("--env accessMode: ").contains("--rw");
        assertThat(FuseSession.isMounted(mp)).isFalse();
    }

    @Test
    void debugIsNotLibfusesRequestLog(@TempDir Path other) throws Exception {
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(lime("s01_"), mp, "--debug", "--env", "sync=false")) {
            sh("ls", "-lR", mp.toString()).ok();
            assertThat(new CommandLine(new UmountCommand()).execute(mp.toString())).isZero();
            assertThat(m.awaitExit(Duration.ofSeconds(20))).isZero();
            assertThat(m.output()).doesNotContain("opcode:");
        }
        Path mp2 = Files.createDirectory(other.resolve("mnt"));
        try (MountProcess m = MountProcess.start(lime("s01_"), mp2, "--fuse-debug")) {
            sh("ls", "-lR", mp2.toString()).ok();
            assertThat(new CommandLine(new UmountCommand()).execute(mp2.toString())).isZero();
            assertThat(m.awaitExit(Duration.ofSeconds(20))).isZero();
            assertThat(m.output()).contains("opcode: OPENDIR");
        }
    }

    @Test
    void aBackgroundMountsLogIsNamedAfterTheBackgroundProcess() throws Exception {
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        Path runtime = Files.createDirectory(dir.resolve("runtime"));
        List<String> cmd = new ArrayList<>(FuseTestSupport.javaCommand());
        cmd.addAll(List.of(FuseMain.class.getName(), "mount", "--background", lime("s03_").toString(), mp.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        Process launcher = pb.redirectErrorStream(true).start();
        assertThat(launcher.waitFor(90, TimeUnit.SECONDS)).isTrue();
        String said = new String(launcher.getInputStream().readAllBytes());
        assertThat(launcher.exitValue()).as(said).isZero();
        Matcher m = Pattern.compile("pid (\\d+), log (\\S+)\\)").matcher(said);
        assertThat(m.find()).as(said).isTrue();
        long pid = Long.parseLong(m.group(1));
        ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
        try {
            assertThat(pid).isNotEqualTo(launcher.pid());
            assertThat(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"))).as("the mount daemon")
                    .contains(FuseMain.class.getName()).contains("\0mount\0");
            Path log = runtime.resolve("containerfs-mount-" + pid + ".log");
            assertThat(m.group(2)).isEqualTo(log.toString());
            assertThat(Files.readString(log)).contains("containerfs: mounted");
            try (Stream<Path> files = Files.list(runtime)) {
                assertThat(files.map(p -> p.getFileName().toString()).toList())
                        .containsExactly(log.getFileName().toString());
            }
            assertThat(new CommandLine(new UmountCommand()).execute(mp.toString())).isZero();
            server.onExit().get(20, TimeUnit.SECONDS);
            assertThat(Files.readString(log)).contains("unmounted " + mp);
        } finally {
            if (server.isAlive()) {
                server.destroyForcibly();
            }
        }
    }
}
