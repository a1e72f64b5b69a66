package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.io.IOException;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every container of every corpus in {@link CorpusFormat#ALL}, mounted read-only and walked by the
 * real tools: find, stat, sha256sum of every file against the manifest (cat of an unreadable record
 * must fail with EIO), cp -r of the whole tree, getfattr -d of a record against the provider's view.
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
        for (CorpusFormat format : CorpusFormat.ALL) {
            for (Path container : format.containers()) {
                tests.add(DynamicTest.dynamicTest(format.name() + "/" + container.getFileName(),
                        () -> checkContainer(format, container)));
            }
        }
        return tests.stream();
    }

    private void checkContainer(CorpusFormat format, Path container) throws Exception {
        Map<String, Expected> expected = format.expected(container);
        Path work = Files.createTempDirectory(tmp, format.name());
        Path mp = Files.createDirectory(work.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(container, mp, false)) {
            // find: exactly the manifest's files
            Result find = sh("find", mp.toString(), "-type", "f").ok();
            TreeSet<String> found = new TreeSet<>();
            for (String line : find.lines()) {
                found.add(line.substring(mp.toString().length()));
            }
            assertThat(found).as("files under the mount").isEqualTo(new TreeSet<>(expected.keySet()));

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

            // getfattr -d -e hex on the first record: user.<view>.<name> = the provider's attribute
            String first = expected.keySet().iterator().next();
            Map<String, Object> attributes = Files.readAttributes(m.fs.getPath(first), format.name() + ":*");
            Map<String, String> wanted = new TreeMap<>();
            attributes.forEach((k, v) -> wanted.put("user." + format.name() + "." + k,
                    "0x" + HexFormat.of().formatHex(NioFuseOperations.valueBytes(v))));
            Result getfattr = sh("getfattr", "-d", "-e", "hex", m.path(first).toString()).ok();
            Map<String, String> shown = new TreeMap<>();
            for (String line : getfattr.lines()) {
                int eq = line.indexOf('=');
                if (line.startsWith("user.") && eq > 0) {
                    shown.put(line.substring(0, eq), line.substring(eq + 1));
                } else if (line.startsWith("user.")) {
                    shown.put(line, "0x"); // an empty value is printed without '='
                }
            }
            assertThat(shown).as("getfattr -d of %s", first).isEqualTo(wanted);
        }
    }
}
