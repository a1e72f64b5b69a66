package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.fuse.FuseTestSupport.Result;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the shell gets when it tries to change what a container holds, for every format: EACCES on a
 * --rw mount (only appends are allowed), EROFS on a read-only one (either engine); the container file stays
 * byte-identical (sha256 before and after, also after unmounting). The LIME case is
 * {@link WritableMountTest}.
 */
class FormatRefusedWritesThroughMountTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    /**
     * A corpus file and tree paths in it: a committed file, a committed directory (null if the format
     * has none at the root), and a directory that is not the next unit.
     */
    record Case(CorpusFormat format, String file, String existingFile, String existingDir, String notNextDir) {}

    private static final List<Case> CASES = List.of(
            new Case(new CorpusFormat.Gsd(), "hoomd_trajectory.gsd", "/3/particles/position", "/3", "/20"),
            new Case(new CorpusFormat.Scda(), "all_types.scda", "/0001.B.B: block of 33 bytes",
                    "/0002.A.A: 4 doubles (native LE)", "/0009.A.late"),
            new Case(new CorpusFormat.G3(), "simple-types.g3", "/000001.Scan/Az", "/000001.Scan", "/000009.Scan"),
            new Case(new CorpusFormat.Sion(), "multiblock_bs512.sion", "/task000000", null, "/task000009"),
            new Case(new CorpusFormat.G3(), "simple-types.g3.gz", "/000001.Scan/Az", "/000001.Scan", "/000009.Scan"));

    private static Path copy(Case c) throws Exception {
        Path work = Files.createTempDirectory(tmp, c.format().name());
        Path container = work.resolve(c.file());
        Files.copy(c.format().corpusFile(c.file()), container);
        Files.createDirectory(work.resolve("mnt"));
        Files.writeString(work.resolve("new.txt"), "new\n");
        return container;
    }

    private static void assertRefused(Result r, String message, String what) {
        assertThat(r.exit()).as("exit of %s", what).isNotZero();
        assertThat(r.stderr()).as("stderr of %s", what).contains(message);
    }

    /** The mutations every container refuses, and what each must get. */
    private static void tryMutations(Path mp, Case c, String message) {
        String file = mp + c.existingFile();
        assertThat(Files.isRegularFile(Path.of(file))).as(file).isTrue();
        assertRefused(sh("sh", "-c", "echo more >> \"$1\"", "sh", file), message, "append to " + file);
        assertRefused(sh("sh", "-c", "echo new > \"$1\"", "sh", file), message, "overwrite of " + file);
        assertRefused(sh("dd", "if=/dev/zero", "of=" + file, "bs=1", "count=1", "conv=notrunc", "status=none"), message,
                "dd into " + file);
        assertRefused(sh("truncate", "-s", "0", file), message, "truncate of " + file);
        assertRefused(sh("rm", "-f", file), message, "rm of " + file);
        assertRefused(sh("mv", file, file + ".moved"), message, "mv of " + file);
        assertRefused(sh("mkdir", mp + c.notNextDir()), message, "mkdir of " + c.notNextDir());
        if (c.existingDir() != null) {
            assertRefused(sh("rm", "-rf", mp + c.existingDir()), message, "rm -rf of " + c.existingDir());
            assertRefused(sh("cp", mp.resolveSibling("new.txt").toString(), mp + c.existingDir() + "/new.txt"), message,
                    "cp into committed " + c.existingDir());
        }
        assertThat(Files.isRegularFile(Path.of(file))).as(file + " still there").isTrue();
    }

    @TestFactory
    Stream<DynamicTest> readOnlyMountsRefuseEveryChangeWithErofs() {
        return Arrays.stream(Engine.values()).flatMap(engine -> CASES.stream().map(c -> DynamicTest.dynamicTest(
                engine + " " + c.format().name() + "/" + c.file(), () -> {
            Path container = copy(c);
            String before = FuseTestSupport.sha256(container);
            Path mp = container.resolveSibling("mnt");
            try (InProcessMount m = InProcessMount.mount(engine, container, mp, false)) {
                tryMutations(mp, c, "Read-only file system");
                assertRefused(sh("touch", mp + "/new"), "Read-only file system", "touch of a new file");
                assertThat(FuseTestSupport.sha256(container)).isEqualTo(before);
            }
            assertThat(FuseTestSupport.sha256(container)).as("after unmounting").isEqualTo(before);
        })));
    }

    @TestFactory
    Stream<DynamicTest> writableMountsRefuseEveryChangeButAppendsWithEacces() {
        return Arrays.stream(Engine.values()).flatMap(engine -> CASES.stream()
                .filter(c -> c.format().name().matches("gsd|scda|g3") && c.file().endsWith(c.format().name()))
                .map(c -> DynamicTest.dynamicTest(engine + " " + c.format().name() + "/" + c.file(), () -> {
                    Path container = copy(c);
                    String before = FuseTestSupport.sha256(container);
                    Path mp = container.resolveSibling("mnt");
                    try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
                        tryMutations(mp, c, "Permission denied");
                        assertThat(FuseTestSupport.sha256(container)).isEqualTo(before);
                        // the reason, with what is allowed instead, reaches the mount's log
                        assertThat(m.log()).contains(Map.of("gsd", "GSD files grow by frames: create directory /12",
                                "scda", "scda files grow by appending sections under the next number 0003",
                                "g3", "G3 files grow by appending frames: create directory /000004").get(c.format().name()));
                    }
                    assertThat(FuseTestSupport.sha256(container)).as("after unmounting").isEqualTo(before);
                })));
    }

    /** An existing SION file takes no appends at all: a --rw mount is refused with the reason. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void writableMountOfASionFileIsRefusedWithTheReason(Engine engine) throws Exception {
        Case c = CASES.get(3);
        Path container = copy(c);
        String before = FuseTestSupport.sha256(container);
        Path mp = container.resolveSibling("mnt");
        Result r = FuseTestSupport.mountCommand(Duration.ofSeconds(30), mp, container.toString(), mp.toString(), "--rw",
                "--engine=" + engine);
        assertThat(r.exit()).as("exit; stderr %s", r.stderr()).isEqualTo(1);
        assertThat(r.stderr()).startsWith("containerfs mount: cannot open " + container + ": ")
                .contains("existing SION file");
        assertThat(FuseSession.isMounted(mp)).isFalse();
        assertThat(FuseTestSupport.sha256(container)).isEqualTo(before);
    }

    /**
     * A gzip-compressed G3 file mounts --rw (the provider decides at the first write), but the next
     * frame's mkdir gets EACCES with the reason in the mount's log, and nothing changes.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void compressedG3FileRefusesTheNextFrameOnAWritableMount(Engine engine) throws Exception {
        Case c = CASES.get(4);
        Path container = copy(c);
        String before = FuseTestSupport.sha256(container);
        Path mp = container.resolveSibling("mnt");
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
            tryMutations(mp, c, "Permission denied");
            assertRefused(sh("mkdir", mp + "/000004.Scan"), "Permission denied", "mkdir of the next frame");
            assertThat(m.log()).contains("cannot append to a compressed G3 file");
            assertThat(FuseTestSupport.sha256(container)).isEqualTo(before);
        }
        assertThat(FuseTestSupport.sha256(container)).as("after unmounting").isEqualTo(before);
    }

    @Test
    void theCasesNameRealCorpusPaths() throws Exception {
        for (Case c : CASES) {
            assertThat(c.format().expected(c.format().corpusFile(c.file()))).as(c.toString()).containsKey(c.existingFile());
        }
    }
}
