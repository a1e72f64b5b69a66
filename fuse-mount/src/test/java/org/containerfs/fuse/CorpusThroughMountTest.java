package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.containerfs.fuse.CorpusFormat.Expected;
import org.containerfs.fuse.FuseTestSupport.Result;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every container of every corpus in {@link CorpusFormat#ALL}, mounted read-only by each engine and
 * walked by the real tools: find (files against the manifest, directories against a walk of the same
 * container through NIO), stat, sha256sum of every file against the manifest (cat of an unreadable
 * record must fail with EIO), cp -r of the whole tree, getfattr -d of every file against the
 * provider's view, ENOTSUP for security.selinux. A container the provider refuses to open (a damaged
 * file header) must make the mount fail cleanly.
 */
class CorpusThroughMountTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusContainer() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Engine engine : Engine.values()) {
            for (CorpusFormat format : CorpusFormat.ALL) {
                for (Path container : format.containers()) {
                    tests.add(DynamicTest.dynamicTest(engine + " " + format.name() + "/" + container.getFileName(),
                            () -> checkContainer(engine, format, container)));
                }
            }
        }
        return tests.stream();
    }

    /**
     * A container the provider refuses: the mount command fails with exit code 1 and one line naming
     * the file and the reason, and leaves nothing mounted.
     */
    private static void assertMountRefused(Engine engine, Path container, Path mp, String reason) throws Exception {
        Result r = FuseTestSupport.mountCommand(java.time.Duration.ofSeconds(30), mp, container.toString(), mp.toString(),
                "--engine=" + engine);
        assertThat(r.exit()).as("exit code of mounting %s; stderr %s", container, r.stderr()).isEqualTo(1);
        assertThat(r.stderr()).startsWith("containerfs mount: cannot open " + container + ": ")
                .contains(reason).doesNotContain("Exception");
        assertThat(r.stderr().strip().lines()).as("one line").hasSize(1);
        assertThat(r.out()).isEmpty();
        assertThat(FuseSession.isMounted(mp)).isFalse();
    }

    private void checkContainer(Engine engine, CorpusFormat format, Path container) throws Exception {
        Map<String, Expected> expected = format.expected(container);
        Path work = Files.createTempDirectory(tmp, engine + "-" + format.name());
        Path mp = Files.createDirectory(work.resolve("mnt"));
        String refusal = format.refusal(container);
        if (refusal != null) {
            assertMountRefused(engine, container, mp, refusal);
            return;
        }
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, false)) {
            // find: exactly the manifest's files
            Result find = sh("find", mp.toString(), "-type", "f").ok();
            TreeSet<String> found = new TreeSet<>();
            for (String line : find.lines()) {
                found.add(line.substring(mp.toString().length()));
            }
            assertThat(found).as("files under the mount").isEqualTo(new TreeSet<>(expected.keySet()));
            TreeSet<String> emptyDirs = new TreeSet<>();
            for (String line : sh("find", mp.toString(), "-mindepth", "1", "-type", "d", "-empty").ok().lines()) {
                emptyDirs.add(line.substring(mp.toString().length()));
            }
            assertThat(emptyDirs).as("empty directories under the mount").isEqualTo(format.emptyDirectories(container));
            TreeSet<String> dirs = new TreeSet<>();
            for (String line : sh("find", mp.toString(), "-mindepth", "1", "-type", "d").ok().lines()) {
                dirs.add(line.substring(mp.toString().length()));
            }
            assertThat(dirs).as("directories under the mount").isEqualTo(nioDirectories(m.fs));

            // statfs: the store is the container file, in 4 KiB blocks
            assertThat(sh("stat", "-f", "-c", "%S %b", mp.toString()).ok().out().trim())
                    .isEqualTo("4096 " + (Files.size(container) + 4095) / 4096);

            if (expected.isEmpty()) {
                assertThat(sh("ls", "-A", mp.toString()).ok().out()).isEmpty();
                return;
            }
            List<String> files = new ArrayList<>();
            for (String p : expected.keySet()) {
                files.add(m.path(p).toString());
            }

            // stat: regular read-only files of the declared size
            List<String> statCmd = new ArrayList<>(List.of("stat", "-c", "%s|%F|%A"));
            statCmd.addAll(files);
            List<String> stats = FuseTestSupport.run(java.time.Duration.ofSeconds(60), statCmd).ok().lines();
            int i = 0;
            for (Expected e : expected.values()) {
                assertThat(stats.get(i++)).as("stat of %s", e.path()).isEqualTo(e.size() + "|" + (e.size() == 0 ? "regular empty file" : "regular file") + "|-r--r--r--");
            }

            // sha256sum of every readable file; cat of every unreadable one fails with EIO
            List<String> shaCmd = new ArrayList<>(List.of("sha256sum"));
            Map<String, String> readable = new LinkedHashMap<>();
            for (Expected e : expected.values()) {
                if (e.sha256() != null) {
                    shaCmd.add(m.path(e.path()).toString());
                    readable.put(m.path(e.path()).toString(), e.sha256());
                } else {
                    Result cat = sh("cat", m.path(e.path()).toString());
                    assertThat(cat.exit()).as("cat of unreadable %s", e.path()).isNotZero();
                    assertThat(cat.stderr()).contains("Input/output error");
                }
            }
            if (!readable.isEmpty()) {
                Map<String, String> sums = new TreeMap<>();
                for (String line : FuseTestSupport.run(java.time.Duration.ofSeconds(60), shaCmd).ok().lines()) {
                    sums.put(line.substring(66), line.substring(0, 64));
                }
                assertThat(sums).as("sha256sum through the mount").isEqualTo(new TreeMap<>(readable));
            }

            // cp -r of the whole tree: every readable file arrives intact; unreadable ones make cp fail
            Path copy = work.resolve("copy");
            Result cp = sh("cp", "-r", mp.toString(), copy.toString());
            boolean allReadable = readable.size() == expected.size();
            assertThat(cp.exit() == 0).as("cp -r exit; stderr %s", cp.stderr()).isEqualTo(allReadable);
            for (Expected e : expected.values()) {
                if (e.sha256() != null) {
                    assertThat(FuseTestSupport.sha256(Path.of(copy + e.path()))).as("copied %s", e.path())
                            .isEqualTo(e.sha256());
                }
            }

            // getfattr -d -e hex of every file: user.<view>.<name> = the provider's attribute
            Map<String, Map<String, String>> wanted = new TreeMap<>();
            List<String> getfattrCmd = new ArrayList<>(List.of("getfattr", "-d", "-e", "hex", "--absolute-names"));
            for (String p : expected.keySet()) {
                Map<String, String> attributes = new TreeMap<>();
                Files.readAttributes(m.fs.getPath(p), format.name() + ":*").forEach((k, v) -> attributes.put(
                        "user." + format.name() + "." + k, "0x" + HexFormat.of().formatHex(expectedXattr(v))));
                wanted.put(m.path(p).toString(), attributes);
                getfattrCmd.add(m.path(p).toString());
            }
            Map<String, Map<String, String>> shown = new TreeMap<>();
            wanted.keySet().forEach(f -> shown.put(f, new TreeMap<>()));
            Map<String, String> current = null;
            for (String line : FuseTestSupport.run(java.time.Duration.ofSeconds(60), getfattrCmd).ok().lines()) {
                int eq = line.indexOf('=');
                if (line.startsWith("# file: ")) {
                    current = shown.get(line.substring("# file: ".length()));
                } else if (line.startsWith("user.") && current != null) {
                    // an empty value is printed without '='
                    current.put(eq > 0 ? line.substring(0, eq) : line, eq > 0 ? line.substring(eq + 1) : "0x");
                }
            }
            assertThat(shown).as("getfattr -d").isEqualTo(wanted);
            assertThat(sh("getfattr", "-n", "security.selinux", m.path(expected.keySet().iterator().next()).toString())
                    .stderr()).as("security.* is never there").contains("Operation not supported");
        }
    }

    /** The directories of a walk of the container through NIO, as tree paths (the root left out). */
    private static TreeSet<String> nioDirectories(FileSystem fs) throws IOException {
        TreeSet<String> dirs = new TreeSet<>();
        try (Stream<Path> all = Files.walk(fs.getPath("/"))) {
            all.filter(p -> p.getNameCount() > 0 && Files.isDirectory(p)).forEach(p -> dirs.add(p.toString()));
        }
        return dirs;
    }

    /** What getfattr must show for an attribute value: bytes raw, arrays element by element, the rest as text. */
    private static byte[] expectedXattr(Object v) {
        String text = switch (v) {
            case byte[] raw -> null;
            case long[] a -> java.util.Arrays.toString(a);
            case int[] a -> java.util.Arrays.toString(a);
            case double[] a -> java.util.Arrays.toString(a);
            default -> {
                assertThat(v.getClass().isArray()).as("an attribute of an array type this test knows: %s", v.getClass()).isFalse();
                yield String.valueOf(v);
            }
        };
        return text == null ? (byte[]) v : text.getBytes(StandardCharsets.UTF_8);
    }
}
