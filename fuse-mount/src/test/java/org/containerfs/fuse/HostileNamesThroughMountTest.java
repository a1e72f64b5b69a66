package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The containers of corpus/names (G3 keys, GSD chunk names and LIME types that spell {@code ..},
 * {@code .}, {@code /}, absolute paths, NUL, newlines, more than 255 bytes) mounted read-only: ls
 * shows the encoded names, every file reads its bytes, {@code cp -r <mount>/. <target>} writes only
 * inside the target (its parent, holding a sentinel directory beside the target, is unchanged), and
 * a name longer than NAME_MAX fails with ENAMETOOLONG (the shortened names the tree shows for long
 * ones are at most 255 bytes, so they mount as they are).
 */
class HostileNamesThroughMountTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    /** Every regular file below {@code root} by its path relative to it, with its bytes. */
    private static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(p)) {
                    files.put(root.relativize(p).toString(), Files.readAllBytes(p));
                }
            }
        }
        return files;
    }

    /** Everything under {@code dir} except below {@code skipped}, with file contents. */
    private static List<String> listing(Path dir, Path skipped) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (!p.startsWith(skipped) || p.equals(skipped)) {
                    out.add(dir.relativize(p) + (Files.isRegularFile(p) ? " " + FuseTestSupport.sha256(p) : "/"));
                }
            }
        }
        out.sort(null);
        return out;
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"highlevel, keys.g3, /000000.Scan", "highlevel, chunks.gsd, /0", "highlevel, types.lime, /msg01",
            "lowlevel, keys.g3, /000000.Scan", "lowlevel, chunks.gsd, /0", "lowlevel, types.lime, /msg01"})
    void copyingTheMountWritesOnlyIntoTheTargetUnderTheEncodedNames(Engine engine, String name, String directory)
            throws Exception {
        Path container = CorpusFormat.corpusRoot().resolve("names").resolve(name);
        Map<String, byte[]> expected;
        TreeSet<String> directoryNames = new TreeSet<>();
        try (FileSystem fs = FileSystems.newFileSystem(container)) {
            expected = files(fs.getPath("/"));
            try (Stream<Path> list = Files.list(fs.getPath(directory))) {
                list.forEach(p -> directoryNames.add(p.getFileName().toString()));
            }
        }
        assertThat(expected).as("files of %s", name).hasSizeGreaterThan(5);
        Path parent = Files.createDirectory(tmp.resolve("fresh"));
        Path sentinel = Files.createDirectory(parent.resolve("sentinel"));
        Files.writeString(sentinel.resolve("keep"), "keep");
        Path target = Files.createDirectory(parent.resolve("target"));
        List<String> before = listing(parent, target);
        Path mp = Files.createDirectory(tmp.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, false)) {
            assertThat(new TreeSet<>(sh("ls", "-A", m.path(directory).toString()).ok().lines()))
                    .as("ls of %s", directory).isEqualTo(directoryNames);
            TreeSet<String> found = new TreeSet<>();
            for (String line : sh("find", mp.toString(), "-type", "f").ok().lines()) {
                found.add(line.substring(mp.toString().length() + 1));
            }
            assertThat(found).isEqualTo(expected.keySet());
            for (Map.Entry<String, byte[]> e : expected.entrySet()) {
                assertThat(sh("cat", mp.resolve(e.getKey()).toString()).ok().stdout()).as(e.getKey()).isEqualTo(e.getValue());
            }

            FuseTestSupport.Result cp = sh("cp", "-r", mp + "/.", target.toString());
            assertThat(cp.exit()).as("cp -r; stderr: %s", cp.stderr()).isZero();

            FuseTestSupport.Result tooLong = sh("stat", m.path(directory + "/" + "k".repeat(300)).toString());
            assertThat(tooLong.exit()).isNotZero();
            assertThat(tooLong.stderr()).contains("File name too long");
        }
        assertThat(listing(parent, target)).as("the target's parent after cp -r").isEqualTo(before);
        Map<String, byte[]> copied = files(target);
        assertThat(copied.keySet()).isEqualTo(expected.keySet());
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            assertThat(copied.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
        }
    }
}
