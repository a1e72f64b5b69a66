package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every corpus container of every format mounted through the low-level engine, compared with a walk
 * of the same container through NIO: find (files and directories), stat sizes, SHA-256 of every file
 * (a file NIO cannot read must fail with EIO through the mount too), and getfattr -d of every file
 * against the provider's attribute view.
 */
class LowLevelCorpusTest {
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
                if (format.refusal(container) == null) {
                    tests.add(DynamicTest.dynamicTest(format.name() + "/" + container.getFileName(),
                            () -> compare(format, container)));
                }
            }
        }
        return tests.stream();
    }

    /** What NIO shows of one file: its size and SHA-256 (null if reading fails). */
    private record NioFile(long size, String sha256) {}

    private static void compare(CorpusFormat format, Path container) throws Exception {
        Path mp = Files.createDirectory(Files.createTempDirectory(tmp, format.name()).resolve("mnt"));
        try (LowLevelTestMount m = LowLevelTestMount.mount(container, mp)) {
            TreeMap<String, NioFile> files = new TreeMap<>();
            TreeSet<String> dirs = new TreeSet<>();
            walk(m.fs, files, dirs);

            assertThat(treePaths(sh("find", mp.toString(), "-type", "f").ok().lines(), mp)).as("find -type f")
                    .isEqualTo(files.navigableKeySet());
            assertThat(treePaths(sh("find", mp.toString(), "-mindepth", "1", "-type", "d").ok().lines(), mp))
                    .as("find -type d").isEqualTo(dirs);
            if (files.isEmpty()) {
                return;
            }
            List<String> statCmd = new ArrayList<>(List.of("stat", "-c", "%s %A"));
            files.keySet().forEach(p -> statCmd.add(m.path(p).toString()));
            List<String> stats = FuseTestSupport.run(Duration.ofSeconds(60), statCmd).ok().lines();
            int i = 0;
            for (Map.Entry<String, NioFile> e : files.entrySet()) {
                assertThat(stats.get(i++)).as("stat of %s", e.getKey()).isEqualTo(e.getValue().size() + " -r--r--r--");
            }
            List<String> shaCmd = new ArrayList<>(List.of("sha256sum"));
            Map<String, String> readable = new TreeMap<>();
            for (Map.Entry<String, NioFile> e : files.entrySet()) {
                String through = m.path(e.getKey()).toString();
                if (e.getValue().sha256() == null) {
                    FuseTestSupport.Result cat = sh("cat", through);
                    assertThat(cat.exit()).as("cat of unreadable %s", e.getKey()).isNotZero();
                    assertThat(cat.stderr()).contains("Input/output error");
                } else {
                    shaCmd.add(through);
                    readable.put(through, e.getValue().sha256());
                }
            }
            if (!readable.isEmpty()) {
                Map<String, String> sums = new TreeMap<>();
                for (String line : FuseTestSupport.run(Duration.ofSeconds(60), shaCmd).ok().lines()) {
                    sums.put(line.substring(66), line.substring(0, 64));
                }
                assertThat(sums).as("sha256sum through the mount").isEqualTo(readable);
            }
            Map<String, Map<String, String>> wanted = new TreeMap<>();
            List<String> getfattrCmd = new ArrayList<>(List.of("getfattr", "-d", "-e", "hex", "--absolute-names"));
            for (String p : files.keySet()) {
                wanted.put(m.path(p).toString(), providerXattrs(m.fs, format, p));
                getfattrCmd.add(m.path(p).toString());
            }
            assertThat(getfattr(getfattrCmd, wanted.keySet())).as("getfattr -d").isEqualTo(wanted);
            assertThat(sh("getfattr", "-n", "security.selinux", m.path(files.firstKey()).toString()).stderr())
                    .contains("Operation not supported");
        }
    }

    private static void walk(FileSystem fs, Map<String, NioFile> files, java.util.Set<String> dirs) throws IOException {
        try (Stream<Path> all = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) all::iterator) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                if (a.isDirectory()) {
                    if (p.getNameCount() > 0) {
                        dirs.add(p.toString());
                    }
                } else {
                    files.put(p.toString(), new NioFile(a.size(), sha256OrNull(p)));
                }
            }
        }
    }

    private static String sha256OrNull(Path p) {
        try {
            return FuseTestSupport.sha256(p);
        } catch (IOException e) {
            return null;
        }
    }

    private static TreeSet<String> treePaths(List<String> lines, Path mp) {
        TreeSet<String> out = new TreeSet<>();
        lines.forEach(l -> out.add(l.substring(mp.toString().length())));
        return out;
    }

    /** getfattr -d -e hex of many files: file to attribute name to hex value (every file present). */
    private static Map<String, Map<String, String>> getfattr(List<String> command, java.util.Set<String> files) {
        Map<String, Map<String, String>> shown = new TreeMap<>();
        files.forEach(f -> shown.put(f, new TreeMap<>()));
        Map<String, String> current = null;
        for (String line : FuseTestSupport.run(Duration.ofSeconds(60), command).ok().lines()) {
            int eq = line.indexOf('=');
            if (line.startsWith("# file: ")) {
                current = shown.get(line.substring("# file: ".length()));
            } else if (line.startsWith("user.") && current != null) {
                current.put(eq > 0 ? line.substring(0, eq) : line, eq > 0 ? line.substring(eq + 1) : "0x");
            }
        }
        return shown;
    }

    private static Map<String, String> providerXattrs(FileSystem fs, CorpusFormat format, String p) throws IOException {
        Map<String, String> wanted = new TreeMap<>();
        Files.readAttributes(fs.getPath(p), format.name() + ":*").forEach((k, v) -> {
            byte[] bytes = NioFuseOperations.valueBytes(v);
            wanted.put("user." + format.name() + "." + k, "0x" + HexFormat.of().formatHex(bytes));
        });
        return wanted;
    }
}
