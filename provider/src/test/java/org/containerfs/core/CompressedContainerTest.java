package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.storage.gzip.ReadOnlyCompressedException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26.4: every format reads from a gzip-compressed container (one member or several) through the core's
 * decompression layer, with random access through restart points that the index cache keeps; damage fails
 * the open naming the compressed offset; writing is refused before anything changes.
 */
class CompressedContainerTest {
    private static final Map<String, Object> NO_CACHE = Map.of("indexCache", "off");

    @TempDir
    Path tmp;

    static byte[] gzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    /** Three members cut at a third and two thirds (as {@code cat a.gz b.gz c.gz} makes), an empty one between. */
    static byte[] gzipMembers(byte[] data) {
        int a = data.length / 3;
        int b = 2 * data.length / 3;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(gzip(Arrays.copyOfRange(data, 0, a)));
        out.writeBytes(gzip(new byte[0]));
        out.writeBytes(gzip(Arrays.copyOfRange(data, a, b)));
        out.writeBytes(gzip(Arrays.copyOfRange(data, b, data.length)));
        return out.toByteArray();
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusFileGzippedShowsTheTreeOfTheFileItself() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (String format : InputCorpusTest.FORMATS) {
            for (Path file : InputCorpusTest.corpusFiles(format)) {
                tests.add(DynamicTest.dynamicTest(format + "/" + file.getFileName(), () -> compare(format, file)));
            }
        }
        return tests.stream();
    }

    private void compare(String format, Path file) throws Exception {
        String name = file.getFileName().toString();
        Path dir = Files.createDirectories(tmp.resolve(format + "-" + name));
        Path plain = Files.copy(file, dir.resolve(name));
        byte[] bytes = Files.readAllBytes(file);
        String expected = treeOrFailure(plain, plain);
        for (byte[] compressed : List.of(gzip(bytes), gzipMembers(bytes))) {
            Path gz = Files.write(dir.resolve(name + ".gz"), compressed);
            assertThat(treeOrFailure(gz, plain)).as("%s gzipped (%d bytes)", name, compressed.length).isEqualTo(expected);
            Files.delete(gz);
        }
        // the same through a ContainerInput (an object in a store)
        Path gz = Files.write(dir.resolve(name + ".gz"), gzip(bytes));
        if (!expected.startsWith("failure")) {
            CountingInput input = CountingInput.of(gz);
            try (FileSystem fs = ContainerFileSystems.open(input, NO_CACHE)) {
                assertThat(tree(fs)).as("%s.gz through an input", name).isEqualTo(expected);
            }
            assertThat(input.isClosed()).isTrue();
        }
    }

    /** Paths, sizes and SHA-256 of every file (or the exception reading it), or the open's failure. */
    private static String treeOrFailure(Path container, Path plainName) {
        try (FileSystem fs = ContainerFileSystems.open(container, NO_CACHE)) {
            return tree(fs);
        } catch (IOException | RuntimeException e) {
            return "failure " + e.getClass().getSimpleName();
        }
    }

    private static String tree(FileSystem fs) throws IOException {
        StringBuilder sb = new StringBuilder(fs.provider().getScheme()).append('\n');
        List<Path> all;
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            all = walk.toList();
        }
        for (Path p : all) {
            sb.append(p);
            if (Files.isRegularFile(p)) {
                sb.append(' ').append(Files.size(p)).append(' ');
                try {
                    sb.append(TestContainers.sha256(Files.readAllBytes(p)));
                } catch (IOException e) {
                    sb.append(e.getClass().getSimpleName());
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** A LIME file of {@code records} records of {@code length} compressible, non-repeating bytes each. */
    private Path bigLime(String name, int records, int length) throws IOException {
        Path plain = tmp.resolve(name);
        Random random = new Random(7);
        try (FileSystem fs = ContainerFileSystems.create(plain, "lime")) {
            for (int r = 1; r <= records; r++) {
                byte[] data = new byte[length];
                for (int i = 0; i < length; i++) {
                    data[i] = (byte) ('a' + random.nextInt(6));
                }
                Files.createDirectories(fs.getPath(String.format("/msg%02d", r)));
                Files.write(fs.getPath(String.format("/msg%02d/rec01.data", r)), data);
            }
        }
        return plain;
    }

    private static Path settled(Path p) throws IOException {
        Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        return p;
    }

    private static long attr(FileSystem fs, String name) throws IOException {
        return ((Number) Files.getAttribute(fs.getPath("/"), "gzip:" + name)).longValue();
    }

    @Test
    void aReadFarIntoTheFileInflatesFromTheRestartPointBeforeItNotFromTheStart() throws IOException {
        Path plain = bigLime("far.lime", 6, 1 << 20);
        Path gz = Files.write(tmp.resolve("far.lime.gz"), gzipMembers(Files.readAllBytes(plain)));
        long span = 64 * 1024;
        try (FileSystem fs = ContainerFileSystems.open(gz, Map.of("indexCache", "off", "gzipSpan", span));
                FileSystem p = ContainerFileSystems.open(plain, NO_CACHE)) {
            assertThat(attr(fs, "members")).isEqualTo(4);
            // a point is the first block boundary after it is due: blocks of this data are up to ~200 KiB of output
            assertThat(attr(fs, "restartPoints")).isGreaterThan(6 * (1 << 20) / (4 * span));
            long gap = attr(fs, "restartGapMax");
            assertThat(gap).isLessThan(1 << 20);
            assertThat(attr(fs, "scanInflatedBytes")).isEqualTo(Files.size(plain));
            Path last = fs.getPath("/msg06/rec01.data");
            long offset = ((Number) Files.getAttribute(last, "lime:dataOffset")).longValue();
            assertThat(offset).isGreaterThan(5L << 20);
            // the last bytes of the last record, then a few bytes in the middle of the first: each read inflates at
            // most a span before its offset (plus what it returns), never the file from its start
            for (long at : new long[] {(1 << 20) - 4096, 1000, 500_000}) {
                long before = attr(fs, "inflatedBytes");
                ByteBuffer got = ByteBuffer.allocate(4096);
                ByteBuffer want = ByteBuffer.allocate(4096);
                Path record = at == (1 << 20) - 4096 ? last : fs.getPath("/msg01/rec01.data");
                try (SeekableByteChannel ch = Files.newByteChannel(record);
                        SeekableByteChannel pc = Files.newByteChannel(p.getPath(record.toString()))) {
                    ch.position(at).read(got);
                    pc.position(at).read(want);
                }
                assertThat(got.flip()).isEqualTo(want.flip());
                long inflated = attr(fs, "inflatedBytes") - before;
                assertThat(inflated).as("bytes inflated to read 4096 at record byte %d", at).isLessThanOrEqualTo(gap + 4096);
            }
        }
    }

    @Test
    void theRestartIndexIsPersistedBesideTheFormatsIndexAndReusedOnReopen() throws IOException {
        Path plain = bigLime("cached.lime", 3, 1 << 20);
        Path gz = settled(Files.write(tmp.resolve("cached.lime.gz"), gzip(Files.readAllBytes(plain))));
        Path cache = tmp.resolve("cache");
        Map<String, Object> env = Map.of("indexCache", cache.toString(), "indexCacheMinSize", 0, "gzipSpan", 65536);
        try (FileSystem fs = ContainerFileSystems.open(gz, env)) {
            assertThat(attr(fs, "scanInflatedBytes")).isEqualTo(Files.size(plain));
            assertThat(Files.getAttribute(fs.getPath("/"), "gzip:scan")).isEqualTo("native");
        }
        try (Stream<Path> entries = Files.list(cache)) {
            assertThat(entries.map(e -> e.getFileName().toString().replaceAll("-.*", "")).sorted().toList())
                    .containsExactly("gzip", "lime");
        }
        try (FileSystem fs = ContainerFileSystems.open(gz, env)) {
            assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.CACHED);
            assertThat(Files.getAttribute(fs.getPath("/"), "gzip:scan")).isEqualTo("loaded");
            assertThat(attr(fs, "scanInflatedBytes")).as("the second open's index pass").isZero();
            assertThat(attr(fs, "inflatedBytes")).as("nothing inflated by the whole open").isZero();
            assertThat(Files.readAllBytes(fs.getPath("/msg03/rec01.data")))
                    .isEqualTo(readPlain(plain, "/msg03/rec01.data"));
            assertThat(attr(fs, "inflatedBytes")).isLessThanOrEqualTo((1 << 20) + attr(fs, "restartGapMax"));
        }
        // a changed file is scanned again (its entry is for other bytes)
        Files.write(gz, gzipMembers(Files.readAllBytes(plain)));
        settled(gz);
        try (FileSystem fs = ContainerFileSystems.open(gz, env)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gzip:scan")).isEqualTo("native");
            assertThat(attr(fs, "members")).isEqualTo(4);
        }
    }

    private static byte[] readPlain(Path plain, String path) throws IOException {
        try (FileSystem fs = ContainerFileSystems.open(plain, NO_CACHE)) {
            return Files.readAllBytes(fs.getPath(path));
        }
    }

    @Test
    void aTruncatedGzipFailsTheOpenNamingTheFileAndTheCompressedOffset() throws IOException {
        Path plain = bigLime("cut.lime", 2, 1 << 20);
        byte[] whole = gzip(Files.readAllBytes(plain));
        Path gz = Files.write(tmp.resolve("cut.lime.gz"), Arrays.copyOf(whole, whole.length * 3 / 5));
        assertThatThrownBy(() -> ContainerFileSystems.open(gz, NO_CACHE).close())
                .isInstanceOf(ContainerFormatException.class)
                .hasMessageContaining(gz.toString())
                .hasMessageContaining("at byte " + (whole.length * 3 / 5))
                .hasMessageContaining("truncated")
                .satisfies(e -> assertThat(((ContainerFormatException) e).offset()).isEqualTo(whole.length * 3 / 5));
        // cut inside the trailer too
        Files.write(gz, Arrays.copyOf(whole, whole.length - 3));
        assertThatThrownBy(() -> ContainerFileSystems.open(gz, NO_CACHE).close()).isInstanceOf(ContainerFormatException.class);
    }

    @Test
    void aCorruptedGzipFailsTheOpen() throws IOException {
        Path plain = bigLime("bad.lime", 2, 1 << 20);
        byte[] bytes = gzip(Files.readAllBytes(plain));
        for (int at : new int[] {bytes.length / 2, bytes.length - 6}) { // deflate data; the trailer's length
            byte[] bad = bytes.clone();
            bad[at] ^= 0x5A;
            Path gz = Files.write(tmp.resolve("bad" + at + ".lime.gz"), bad);
            assertThatThrownBy(() -> ContainerFileSystems.open(gz, NO_CACHE).close())
                    .as("byte %d flipped", at)
                    .isInstanceOf(ContainerFormatException.class)
                    .hasMessageContaining(gz.toString());
        }
    }

    @Test
    void writingIsRefusedBeforeAnythingChanges() throws IOException {
        Path plain = bigLime("w.lime", 1, 1000);
        Path gz = settled(Files.write(tmp.resolve("w.lime.gz"), gzip(Files.readAllBytes(plain))));
        byte[] before = Files.readAllBytes(gz);
        FileTime mtime = Files.getLastModifiedTime(gz);
        assertThatThrownBy(() -> ContainerFileSystems.open(gz, Map.of("accessMode", "readWrite")).close())
                .isInstanceOf(java.nio.file.AccessDeniedException.class)
                .isInstanceOf(ReadOnlyCompressedException.class)
                .hasMessageContaining(gz.toString())
                .hasMessageContaining("gzip-compressed container is read-only");
        assertThatThrownBy(() -> ContainerFileSystems.create(tmp.resolve("new.lime.gz"), "lime").close())
                .isInstanceOf(ReadOnlyCompressedException.class);
        assertThat(Files.exists(tmp.resolve("new.lime.gz"))).isFalse();
        try (FileSystem fs = ContainerFileSystems.open(gz, NO_CACHE)) {
            assertThat(fs.isReadOnly()).isTrue();
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/msg02")))
                    .isInstanceOf(ReadOnlyFileSystemException.class);
        }
        assertThat(Files.readAllBytes(gz)).isEqualTo(before);
        assertThat(Files.getLastModifiedTime(gz)).isEqualTo(mtime);
    }

    /**
     * A gzip bomb: 256 MiB of zeros in one LIME record, about 256 KB compressed. The restart windows stay within
     * env gzipWindowMemory (the points are thinned), and a read at the end still works.
     */
    @Test
    void aGzipBombsRestartWindowsStayWithinTheirBudget() throws IOException {
        long length = 256L << 20;
        Path gz = tmp.resolve("bomb.lime.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz), 1 << 16)) {
            ByteBuffer header = ByteBuffer.allocate(144);
            header.putInt(0x456789AB).putShort((short) 1).put((byte) 0xC0).put((byte) 0).putLong(length)
                    .put("zeros".getBytes());
            out.write(header.array());
            byte[] zeros = new byte[1 << 20];
            for (long done = 0; done < length; done += zeros.length) {
                out.write(zeros);
            }
        }
        assertThat(Files.size(gz)).isLessThan(1 << 20);
        long budget = 256 * 1024;
        try (FileSystem fs = ContainerFileSystems.open(gz, Map.of("indexCache", "off", "gzipSpan", 32768,
                "gzipWindowMemory", budget))) {
            assertThat(attr(fs, "size")).isEqualTo(144 + length);
            assertThat(attr(fs, "windowBytes")).isLessThanOrEqualTo(budget);
            assertThat(attr(fs, "restartSpan")).isGreaterThan(32768);
            Path record = fs.getPath("/msg01/rec01.zeros");
            assertThat(Files.size(record)).isEqualTo(length);
            long before = attr(fs, "inflatedBytes");
            try (SeekableByteChannel ch = Files.newByteChannel(record)) {
                ByteBuffer b = ByteBuffer.allocate(100);
                ch.position(length - 100).read(b);
                assertThat(b.array()).containsOnly(0);
            }
            assertThat(attr(fs, "inflatedBytes") - before).isLessThanOrEqualTo(attr(fs, "restartGapMax") + 100);
        }
    }

    /** The first file of a SIONlib multi-file set compressed: the set's other files are found by the inner name. */
    @Test
    void aCompressedSionSetFindsItsOtherFilesByTheInnerName() throws IOException {
        Path samples = Path.of("../samples/sion").toAbsolutePath().normalize();
        Path plain = Files.copy(samples.resolve("spikes.sion"), Files.createDirectories(tmp.resolve("plain")).resolve("spikes.sion"));
        Files.copy(samples.resolve("spikes.sion.000001"), plain.resolveSibling("spikes.sion.000001"));
        Path dir = Files.createDirectories(tmp.resolve("gz"));
        Path gz = Files.write(dir.resolve("spikes.sion.gz"), gzip(Files.readAllBytes(plain)));
        Files.copy(samples.resolve("spikes.sion.000001"), dir.resolve("spikes.sion.000001"));
        String expected = treeOrFailure(plain, plain);
        assertThat(expected).startsWith("sion").contains("/task000001");
        assertThat(treeOrFailure(gz, plain)).isEqualTo(expected);
        try (FileSystem fs = ContainerFileSystems.open(CountingInput.of(gz), NO_CACHE)) {
            assertThat(tree(fs)).isEqualTo(expected);
        }
    }

    @Test
    void aFileNoFormatClaimsIsNotAContainerAndIsNotInflatedWhole() throws IOException {
        byte[] text = "just some text\n".repeat(100_000).getBytes();
        Path gz = Files.write(tmp.resolve("notes.txt.gz"), gzip(text));
        assertThatThrownBy(() -> ContainerFileSystems.open(gz, new HashMap<>(NO_CACHE)).close())
                .isInstanceOf(java.nio.file.ProviderNotFoundException.class);
    }
}
