package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.spi.Names;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Names from the file that spell path syntax ({@code ..}, {@code .}, {@code /}, absolute paths,
 * backslashes, NUL, newlines, names longer than 255 bytes), in the corpus files of {@code corpus/names}
 * ({@link #main} writes them): G3 keys and GSD chunk names through the provider's writers, LIME types as
 * raw bytes (a writer cannot make a type whose name needs shortening). Through the Path API every
 * listed name is one plain component of at most 255 bytes, an extraction by those names stays in its
 * target, and paths that climb ({@code /..}, {@code ../..}, an absolute path resolved against a
 * directory) stay inside the container. The FUSE and CLI tests extract the same files.
 */
class HostileNamesTest {
    /** G3 keys of frame 000000.Scan, and the names the tree must show for them. */
    static final Map<String, String> G3_KEYS = linked(
            "..", "%2E%2E",
            ".", "%2E",
            "", "%",
            "a\0b", "a%00b",
            "/etc/passwd", "%2Fetc%2Fpasswd",
            "../../escaped", "..%2F..%2Fescaped",
            "x/y", "x%2Fy",
            "back\\slash", "back%5Cslash",
            "%2E%2E", "%252E%252E",
            "nl\nx", "nl%0Ax",
            "k".repeat(200), "k".repeat(200));

    /** GSD chunk names of frame 0, and their paths in the tree (a name that would need . or .. stays one component). */
    static final Map<String, String> GSD_CHUNKS = linked(
            "../../escaped", "..%2F..%2Fescaped",
            "/abs/x", "%2Fabs%2Fx",
            "a/./b", "a%2F.%2Fb",
            "a//b", "a%2F%2Fb",
            "ok/../x", "ok%2F..%2Fx",
            "./x", ".%2Fx",
            "a/b", "a/b",
            "back\\slash/y", "back%5Cslash/y");

    /** LIME record types (raw bytes, all in message 1). */
    static final List<byte[]> LIME_TYPES = List.of(
            bytes(".."), bytes("."), bytes("/"), bytes("/etc/passwd"), bytes("../../../escaped"), bytes("a\\..\\b"),
            repeat('/', 127), repeat(1, 127), repeat(0xFF, 127), bytes("é".repeat(63)));

    @TempDir
    Path tmp;

    static Path corpus(String name) {
        return Paths.get(System.getProperty("containerfs.corpus", "src/test/resources/corpus"), "names", name);
    }

    /** Writes keys.g3, chunks.gsd and types.lime into the directory args[0]. */
    public static void main(String[] args) throws IOException {
        Path dir = Paths.get(args[0]);
        Files.createDirectories(dir);
        for (String name : new String[] {"keys.g3", "chunks.gsd", "types.lime"}) {
            Files.deleteIfExists(dir.resolve(name));
        }
        try (FileSystem g3 = ContainerFileSystems.create(dir.resolve("keys.g3"), "g3")) {
            Path frame = Files.createDirectory(g3.getPath("/000000.Scan"));
            int i = 0;
            for (String key : G3_KEYS.keySet()) {
                Files.write(frame.resolve(Names.component(bytes(key))), value(i++));
            }
        }
        try (FileSystem gsd = ContainerFileSystems.create(dir.resolve("chunks.gsd"), "gsd")) {
            Path frame = Files.createDirectory(gsd.getPath("/0"));
            int i = 0;
            for (String chunk : GSD_CHUNKS.keySet()) {
                AppendableFormat.write(frame.resolve(Names.component(bytes(chunk))), value(i++),
                        ContainerFileSystems.attribute("gsd:type", "uint8"), ContainerFileSystems.attribute("gsd:M", 1));
            }
        }
        ByteArrayOutputStream lime = new ByteArrayOutputStream();
        for (int i = 0; i < LIME_TYPES.size(); i++) {
            byte[] payload = value(i);
            ByteBuffer header = ByteBuffer.allocate(144);
            header.putInt(0x456789AB).putShort((short) 1)
                    .put((byte) ((i == 0 ? 0x80 : 0) | (i == LIME_TYPES.size() - 1 ? 0x40 : 0))).put((byte) 0)
                    .putLong(payload.length).put(LIME_TYPES.get(i));
            lime.writeBytes(header.array());
            lime.writeBytes(payload);
            lime.writeBytes(new byte[(8 - payload.length % 8) % 8]);
        }
        Files.write(dir.resolve("types.lime"), lime.toByteArray());
    }

    /** Every regular file of a container by its path, with its bytes. */
    static Map<String, byte[]> tree(Path container) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (FileSystem fs = ContainerFileSystems.open(container); Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(p)) {
                    files.put(p.toString(), Files.readAllBytes(p));
                }
            }
        }
        return files;
    }

    static Map<String, byte[]> expectedTree(String container) {
        Map<String, byte[]> files = new TreeMap<>();
        int i = 0;
        switch (container) {
            case "keys.g3" -> {
                for (String name : G3_KEYS.values()) {
                    files.put("/000000.Scan/" + name, value(i++));
                }
            }
            case "chunks.gsd" -> {
                for (String name : GSD_CHUNKS.values()) {
                    files.put("/0/" + name, value(i++));
                }
            }
            default -> {
                for (byte[] type : LIME_TYPES) {
                    files.put("/msg01/" + Names.prefixed(String.format("rec%02d", i + 1), type), value(i++));
                }
            }
        }
        return files;
    }

    @ParameterizedTest
    @ValueSource(strings = {"keys.g3", "chunks.gsd", "types.lime"})
    void everyNameIsOnePlainComponentOfAtMost255BytesAndReadsItsBytes(String container) throws IOException {
        Map<String, byte[]> tree = tree(corpus(container));
        Map<String, byte[]> expected = expectedTree(container);
        assertThat(tree.keySet()).isEqualTo(expected.keySet());
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            assertThat(tree.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
            for (String name : e.getKey().substring(1).split("/")) {
                assertThat(name).isNotIn("", ".", "..").doesNotContain("\0", "\\");
                assertThat(name.getBytes(StandardCharsets.UTF_8).length).as(name).isLessThanOrEqualTo(255);
            }
        }
        if (container.equals("types.lime")) {
            List<String> shortened = expected.keySet().stream().filter(p -> p.contains("%%")).collect(Collectors.toList());
            assertThat(shortened).as("types whose encoding is longer than 255 bytes").hasSize(3)
                    .allSatisfy(p -> assertThat(p).matches("/msg01/rec0[789]\\..{200,220}%%[0-9a-f]{32}"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"keys.g3", "chunks.gsd", "types.lime"})
    void extractingByTheListedNamesStaysInTheTarget(String container) throws IOException {
        Path parent = Files.createDirectory(tmp.resolve("fresh"));
        Path sentinel = Files.createDirectory(parent.resolve("sentinel"));
        Files.writeString(sentinel.resolve("keep"), "keep");
        Path target = Files.createDirectory(parent.resolve("target"));
        List<String> before = listing(parent, target);
        int extracted = 0;
        try (FileSystem fs = ContainerFileSystems.open(corpus(container)); Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            Path root = fs.getPath("/");
            for (Path p : (Iterable<Path>) walk::iterator) {
                assertThat(p.normalize()).as("walked path %s is normal", p).isEqualTo(p);
                // what a naive extractor does: the container path's string, resolved against the target
                Path out = target.resolve(root.relativize(p).toString());
                assertThat(out.normalize()).as("%s lands at %s", p, out).isEqualTo(out).startsWithRaw(target);
                if (Files.isDirectory(p)) {
                    Files.createDirectories(out);
                } else {
                    Files.write(out, Files.readAllBytes(p));
                    extracted++;
                }
            }
        }
        assertThat(extracted).isEqualTo(expectedTree(container).size());
        assertThat(listing(parent, target)).as("the target's parent after the extraction").isEqualTo(before);
    }

    /** Everything under {@code dir} except {@code skipped}'s subtree, with file contents. */
    static List<String> listing(Path dir, Path skipped) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (!p.startsWith(skipped) || p.equals(skipped)) {
                    out.add(dir.relativize(p) + (Files.isRegularFile(p) ? " " + Arrays.toString(Files.readAllBytes(p)) : "/"));
                }
            }
        }
        out.sort(null);
        return out;
    }

    @Test
    void pathsThatClimbOrLookAbsoluteStayInsideTheContainer() throws IOException {
        try (FileSystem fs = ContainerFileSystems.open(corpus("keys.g3"))) {
            Path frame = fs.getPath("/000000.Scan");
            // the key ".." is a file of the frame; the component ".." is the frame's parent
            assertThat(Files.readAllBytes(frame.resolve("%2E%2E"))).isEqualTo(value(0));
            assertThat(frame.resolve("%2E%2E").normalize()).isEqualTo(frame.resolve("%2E%2E"));
            assertThat(frame.resolve("..").toRealPath()).isEqualTo(fs.getPath("/"));
            assertThat(Files.isDirectory(frame.resolve(".."))).isTrue();
            // above the root is the root
            assertThat(fs.getPath("/../../000000.Scan/%2E").toRealPath()).isEqualTo(fs.getPath("/000000.Scan/%2E"));
            assertThat(Files.readAllBytes(fs.getPath("/../../000000.Scan/%2E"))).isEqualTo(value(1));
            assertThat(fs.getPath("../../..").toRealPath()).isEqualTo(fs.getPath("/"));
            assertThat(frame.resolve("../../../000000.Scan/%").toRealPath()).isEqualTo(fs.getPath("/000000.Scan/%"));
            // an absolute path resolved against a directory is a path of the container, never of the host
            Path absolute = frame.resolve("/etc/passwd");
            assertThat(absolute).isEqualTo(fs.getPath("/etc/passwd"));
            assertThat(Files.exists(absolute)).isFalse();
            assertThatThrownBy(() -> absolute.toRealPath()).isInstanceOf(NoSuchFileException.class)
                    .hasMessageContaining("/etc/passwd");
            assertThat(Files.readAllBytes(frame.resolve("%2Fetc%2Fpasswd"))).isEqualTo(value(4));
            // relativize and resolve between hostile names come back to the same node
            Path key = frame.resolve("..%2F..%2Fescaped");
            assertThat(key.relativize(fs.getPath("/"))).isEqualTo(fs.getPath("../.."));
            assertThat(fs.getPath("/").relativize(key)).isEqualTo(fs.getPath("000000.Scan/..%2F..%2Fescaped"));
            assertThat(key.resolve(key.relativize(fs.getPath("/000000.Scan/a%00b"))).toRealPath())
                    .isEqualTo(fs.getPath("/000000.Scan/a%00b"));
            // a URI of a hostile name leads back to it
            URI uri = frame.resolve("a%00b").toUri();
            assertThat(Files.readAllBytes(Paths.get(uri))).isEqualTo(value(3));
            // a component longer than any name in the tree is just missing
            assertThatThrownBy(() -> Files.readAllBytes(frame.resolve("k".repeat(300))))
                    .isInstanceOf(NoSuchFileException.class);
        }
    }

    static byte[] value(int i) {
        return ("value " + i + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] repeat(int b, int n) {
        byte[] out = new byte[n];
        Arrays.fill(out, (byte) b);
        return out;
    }

    private static Map<String, String> linked(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }
}
