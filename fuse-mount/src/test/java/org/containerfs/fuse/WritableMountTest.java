package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.containerfs.fuse.CorpusFormat.Expected;
import org.containerfs.fuse.FuseTestSupport.MountProcess;
import org.containerfs.fuse.FuseTestSupport.Result;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A --rw mount run as a user would (its own JVM): refused mutations reach the shell as EACCES and
 * leave the container byte-identical; mkdir + cp append a new message; after umount the provider
 * reads the appended records and every original manifest row is unchanged.
 */
class WritableMountTest {
    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void refusedMutationsThenAppendsThroughARwMount(Engine engine, @TempDir Path dir) throws Exception {
        CorpusFormat.Lime lime = new CorpusFormat.Lime();
        Path original = lime.containers().stream()
                .filter(p -> p.getFileName().toString().startsWith("s02_")).findFirst().orElseThrow();
        Path container = dir.resolve("conf.lime");
        Files.copy(original, container);
        Map<String, Expected> rows = lime.expected(original);
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        byte[] text = "appended through FUSE\n".getBytes();
        byte[] binary = new byte[300_000]; // several FUSE write requests
        new Random(3).nextBytes(binary);
        Files.write(dir.resolve("text.txt"), text);
        Files.write(dir.resolve("binary.bin"), binary);
        String before = FuseTestSupport.sha256(container);

        try (MountProcess m = MountProcess.start(container, mp, "--rw", "--engine=" + engine, "--verbose")) {
            String existing = mp + "/msg01/rec01.lime-test-text1";
            assertRefused(sh("sh", "-c", "echo more >> \"$1\"", "sh", existing), "Permission denied");
            assertRefused(sh("sh", "-c", "echo new > \"$1\"", "sh", existing), "Permission denied");
            assertRefused(sh("truncate", "-s", "0", existing), "Permission denied");
            assertRefused(sh("rm", "-f", existing), "Permission denied");
            assertRefused(sh("rm", "-rf", mp + "/msg02"), "Permission denied");
            assertRefused(sh("mv", mp + "/msg01", mp + "/msg09"), "Permission denied");
            assertRefused(sh("mkdir", mp + "/msg07"), "Permission denied"); // not the next message
            assertRefused(sh("cp", dir.resolve("text.txt").toString(), mp + "/msg01/rec03.late"), "Permission denied");
            assertThat(FuseTestSupport.sha256(container)).as("container after refused writes").isEqualTo(before);
            assertThat(m.output()).contains("existing records are never modified");

            sh("mkdir", mp + "/msg04").ok();
            sh("cp", dir.resolve("text.txt").toString(), mp + "/msg04/rec01.appended-text").ok();
            sh("cp", dir.resolve("binary.bin").toString(), mp + "/msg04/rec02.appended-binary").ok();
            assertThat(sh("ls", mp + "/msg04").ok().lines()).containsExactly("rec01.appended-text", "rec02.appended-binary");
            assertThat(sh("sha256sum", mp + "/msg04/rec02.appended-binary").ok().out())
                    .startsWith(FuseTestSupport.sha256(binary));

            // An out-of-order write (dd seek) is refused with EIO and a log line.
            Result dd = sh("dd", "if=" + dir.resolve("text.txt"), "of=" + mp + "/msg04/rec03.seek", "bs=1", "seek=100",
                    "status=none");
            assertThat(dd.exit()).isNotZero();
            assertThat(dd.stderr()).contains("Input/output error");
            m.awaitOutput("out-of-order write", Duration.ofSeconds(5));

            int rc = new CommandLine(new UmountCommand()).execute(mp.toString());
            assertThat(rc).isZero();
            assertThat(m.awaitExit(Duration.ofSeconds(20))).as("mount process exit; log:%n%s", m.output()).isZero();
        }

        try (FileSystem fs = MountCommand.openContainer(container, false, null, false)) {
            try (Stream<Path> s = Files.list(fs.getPath("/msg04"))) {
                // the dd file's write failed: it is not committed at all
                assertThat(s.map(p -> p.getFileName().toString()).toList())
                        .containsExactly("rec01.appended-text", "rec02.appended-binary");
            }
            assertThat(Files.readAllBytes(fs.getPath("/msg04/rec01.appended-text"))).isEqualTo(text);
            assertThat(Files.readAllBytes(fs.getPath("/msg04/rec02.appended-binary"))).isEqualTo(binary);
            for (Expected e : rows.values()) {
                assertThat(FuseTestSupport.sha256(Files.readAllBytes(fs.getPath(e.path())))).as(e.path())
                        .isEqualTo(e.sha256());
            }
        }
    }

    private static void assertRefused(Result r, String message) {
        assertThat(r.exit()).as("exit of a refused mutation").isNotZero();
        assertThat(r.stderr()).contains(message);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void writesToAReadOnlyMountGetErofs(Engine engine, @TempDir Path dir) throws Exception {
        Path container = dir.resolve("conf.lime");
        Files.copy(new CorpusFormat.Lime().containers().get(0), container);
        String before = FuseTestSupport.sha256(container);
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, false)) {
            Path first;
            try (Stream<Path> s = Files.walk(mp)) {
                first = s.filter(Files::isRegularFile).findFirst().orElseThrow();
            }
            assertRefused(sh("sh", "-c", "echo more >> \"$1\"", "sh", first.toString()), "Read-only file system");
            assertRefused(sh("rm", "-f", first.toString()), "Read-only file system");
            assertRefused(sh("mkdir", mp + "/msg99"), "Read-only file system");
            assertRefused(sh("touch", mp + "/msg01/rec99.new"), "Read-only file system");
        }
        assertThat(FuseTestSupport.sha256(container)).isEqualTo(before);
    }
}
