package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Appending frames: byte-identical output, commit points, torn tails, refusals. */
class G3WriteTest {
    private static final Map<String, Object> CREATE = Map.of("create", true);
    private static final Map<String, Object> APPEND = Map.of("accessMode", "readWrite");

    @TempDir
    Path tmp;

    /** Frame directory name -> (key -> blob), in file order, read through the file system. */
    private static Map<String, Map<String, byte[]>> contents(Path file) throws Exception {
        Map<String, Map<String, byte[]>> out = new LinkedHashMap<>();
        try (FileSystem fs = G3TestSupport.open(file); Stream<Path> frames = Files.list(fs.getPath("/"))) {
            for (Path f : frames.collect(Collectors.toList())) {
                Map<String, byte[]> keys = new LinkedHashMap<>();
                try (Stream<Path> ks = Files.list(f)) {
                    for (Path k : ks.collect(Collectors.toList())) {
                        keys.put(k.getFileName().toString(), Files.readAllBytes(k));
                    }
                }
                out.put(f.getFileName().toString(), keys);
            }
        }
        return out;
    }

    @Test
    void rebuildingSimpleTypesThroughTheTypedApiGivesTheSameBytes() throws Exception {
        Path original = G3TestSupport.corpus("simple-types.g3");
        Map<String, Map<String, byte[]>> source = contents(original);
        Path copy = tmp.resolve("rebuilt.g3");
        try (FileSystem fs = G3TestSupport.open(copy, CREATE)) {
            for (Map.Entry<String, Map<String, byte[]>> frame : source.entrySet()) {
                Path dir = Files.createDirectory(fs.getPath("/" + frame.getKey()));
                for (Map.Entry<String, byte[]> key : frame.getValue().entrySet()) {
                    G3Value value = G3Blobs.decode(key.getValue()).orElseThrow();
                    // every typed value encodes back to the corpus blob byte for byte
                    assertThat(G3Blobs.encode(value)).as(frame.getKey() + "/" + key.getKey()).isEqualTo(key.getValue());
                    G3Blobs.write(dir, key.getKey(), value);
                }
            }
        }
        assertThat(Files.readAllBytes(copy)).isEqualTo(Files.readAllBytes(original));
    }

    @Test
    void verbatimBlobsReproduceTheUpstreamFilesAndConcatenation() throws Exception {
        for (String name : List.of("test-le.g3", "test-le-v2.g3", "all-frame-types.g3", "concatenated.g3")) {
            Path copy = tmp.resolve("copy-" + name);
            try (FileSystem fs = G3TestSupport.open(copy, CREATE)) {
                for (Map.Entry<String, Map<String, byte[]>> frame : contents(G3TestSupport.corpus(name)).entrySet()) {
                    Path dir = Files.createDirectory(fs.getPath("/" + frame.getKey()));
                    for (Map.Entry<String, byte[]> key : frame.getValue().entrySet()) {
                        Files.write(dir.resolve(key.getKey()), key.getValue());
                    }
                }
            }
            assertThat(Files.readAllBytes(copy)).as(name).isEqualTo(G3TestSupport.corpusBytes(name));
        }
    }

    @Test
    void typedValuesRoundTripAndEncodeTheDocumentedLayouts() throws Exception {
        List<G3Value> values = List.of(new G3Value.IntValue(-7), new G3Value.DoubleValue(Math.PI), new G3Value.BoolValue(true),
                new G3Value.StringValue("Grüße"), new G3Value.TimeValue(1_700_000_000_00000000L),
                new G3Value.VectorDouble(new double[] {1, Double.NaN, -0.0}),
                new G3Value.VectorInt(new long[] {1, -129, 40000}), new G3Value.VectorInt(new long[] {1L << 40}),
                new G3Value.VectorString(List.of("a", "", "ccc")),
                new G3Value.MapDouble(Map.of("b", 2.0, "a", 1.0, "B", 3.0)),
                G3Value.Timestream.ofDoubles(1, 100, 200, new double[] {0.5, 1.5}),
                new G3Value.Timestream(0, 1, 2, G3Value.Timestream.INT32, null, new long[] {-1, 2}));
        for (G3Value v : values) {
            byte[] blob = G3Blobs.encode(v);
            G3Value back = G3Blobs.decode(blob).orElseThrow();
            if (v instanceof G3Value.MapDouble m) {
                // std::map order: by key bytes
                assertThat(((G3Value.MapDouble) back).values()).containsExactly(Map.entry("B", 3.0), Map.entry("a", 1.0),
                        Map.entry("b", 2.0));
            } else {
                assertThat(back).isEqualTo(v);
            }
        }
        // G3VectorInt v2 stores the narrowest width: -129 and 40000 need 32 bits
        byte[] vi = G3Blobs.encode(new G3Value.VectorInt(new long[] {1, -129, 40000}));
        ByteBuffer b = ByteBuffer.wrap(vi).order(ByteOrder.LITTLE_ENDIAN);
        int fields = 1 + 4 + 8 + "G3VectorInt".length() + 4;
        assertThat(b.getInt(fields)).isEqualTo(2);
        assertThat(b.getInt(fields + 8)).isEqualTo(32);
        assertThat(vi).hasSize(fields + 12 + 8 + 3 * 4);
        // Timestream v4: units, G3Time version, start, stop, flac flag, data type, count, data
        byte[] ts = G3Blobs.encode(G3Value.Timestream.ofDoubles(3, 10, 20, new double[] {7}));
        ByteBuffer t = ByteBuffer.wrap(ts).order(ByteOrder.LITTLE_ENDIAN);
        int at = 1 + 4 + 8 + "G3Timestream".length() + 4;
        assertThat(t.getInt(at)).isEqualTo(4);
        assertThat(t.getInt(at + 8)).isEqualTo(3);
        assertThat(t.getInt(at + 12)).isEqualTo(1);
        assertThat(t.getLong(at + 16)).isEqualTo(10);
        assertThat(t.getLong(at + 24)).isEqualTo(20);
        assertThat(ts[at + 32]).isZero();
        assertThat(t.getInt(at + 33)).isZero();
        assertThat(t.getLong(at + 37)).isEqualTo(1);
        assertThat(t.getDouble(at + 45)).isEqualTo(7.0);
        assertThat(ts).hasSize(at + 53);
    }

    @Test
    void decodingIsStrict() throws Exception {
        byte[] ok = G3Blobs.encode(new G3Value.DoubleValue(1));
        assertThatThrownBy(() -> G3Blobs.decode(Arrays.copyOf(ok, ok.length + 1)))
                .hasMessageContaining("strict").hasMessageContaining("found 1 more byte");
        assertThatThrownBy(() -> G3Blobs.decode(Arrays.copyOf(ok, ok.length - 1))).hasMessageContaining("blob ends");
        byte[] vec = G3Blobs.encode(new G3Value.VectorDouble(new double[] {1, 2}));
        int countAt = 1 + 4 + 8 + "G3VectorDouble".length() + 12;
        ByteBuffer.wrap(vec).order(ByteOrder.LITTLE_ENDIAN).putLong(countAt, Long.MAX_VALUE / 2);
        assertThatThrownBy(() -> G3Blobs.decode(vec)).hasMessageContaining("element count");
        assertThatThrownBy(() -> G3Blobs.decode(G3TestSupport.corpusBytes("test-le.g3"))).hasMessageContaining("polymorphic");
        byte[] other = G3Blobs.encode(new G3Value.IntValue(1));
        byte[] renamed = new String(other, java.nio.charset.StandardCharsets.ISO_8859_1).replace("G3Int", "G3Foo")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(G3Blobs.decode(renamed)).isEmpty();
    }

    @Test
    void aFrameIsWrittenOnNextMkdirOnCommitAndOnClose() throws Exception {
        Path file = tmp.resolve("commits.g3");
        try (FileSystem fs = G3TestSupport.open(file, CREATE)) {
            Path f0 = Files.createDirectory(fs.getPath("/000000.Observation"));
            G3Blobs.write(f0, "ObservationID", new G3Value.IntValue(1));
            assertNoCommittedFrameYet(file, 0);
            assertThat(G3Blobs.read(f0.resolve("ObservationID"))).contains(new G3Value.IntValue(1));
            assertThat(Files.getAttribute(f0, "g3:staged")).isEqualTo(true);
            Path f1 = Files.createDirectory(fs.getPath("/000001.Scan"));
            long afterFirst = Files.size(file);
            assertThat(Files.getAttribute(f0, "g3:length")).isEqualTo(13L + 16 + "ObservationID".length() + 38 + 4);
            assertThat(afterFirst).isEqualTo(13 + 16 + "ObservationID".length() + 38 + 4 + 13); // and frame 1's header
            assertThat(Files.getAttribute(f0, "g3:crcOk")).isEqualTo(true);
            G3Blobs.write(f1, "Az", new G3Value.VectorDouble(new double[] {1, 2, 3}));
            Files.setAttribute(f1, "g3:commit", true);
            assertThat(Files.size(file)).isGreaterThan(afterFirst);
            long afterSecond = Files.size(file);
            Path f2 = Files.createDirectory(fs.getPath("/000002.adhoc-Cal"));
            G3Blobs.write(f2, "x", new G3Value.BoolValue(false));
            assertNoCommittedFrameYet(file, 2);
        }
        try (FileSystem fs = G3TestSupport.open(file)) {
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s.map(p -> p.getFileName().toString()))
                        .containsExactly("000000.Observation", "000001.Scan", "000002.adhoc-Cal");
            }
            assertThat(G3Blobs.read(fs.getPath("/000002.adhoc-Cal/x"))).contains(new G3Value.BoolValue(false));
            assertThat(Files.getAttribute(fs.getPath("/000002.adhoc-Cal"), "g3:crcOk")).isEqualTo(true);
        }
    }

    /**
     * Values stream into the file before their frame is committed: another reader sees the committed frames
     * and a truncated tail (what a writer killed now would leave), never the frame being written.
     */
    private static void assertNoCommittedFrameYet(Path file, int committed) throws Exception {
        try (FileSystem fs = G3TestSupport.open(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "g3:*");
            assertThat(root.get("frames")).isEqualTo(committed);
            assertThat((String) root.get("uncommittedTail")).startsWith("truncated tail");
        }
    }

    @Test
    void appendingToAnExistingFileKeepsItsBytesAndTheFrameIsLittleEndianVersionOne() throws Exception {
        Path file = tmp.resolve("append.g3");
        byte[] original = G3TestSupport.corpusBytes("test-le.g3");
        Files.write(file, original);
        byte[] blob = G3Blobs.encode(new G3Value.StringValue("hi"));
        try (FileSystem fs = G3TestSupport.open(file, APPEND)) {
            Path f = Files.createDirectory(fs.getPath("/000001.Scan"));
            Files.write(f.resolve("Comment"), blob);
        }
        byte[] now = Files.readAllBytes(file);
        assertThat(Arrays.copyOf(now, original.length)).isEqualTo(original);
        byte[] expected = G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 'S', List.of("Comment".getBytes()), List.of(blob));
        assertThat(Arrays.copyOfRange(now, original.length, now.length)).isEqualTo(expected);
    }

    @Test
    void aTornTailIsCutOffByTheNextAppendAtEveryCutPoint() throws Exception {
        byte[] base = G3TestSupport.corpusBytes("simple-types.g3");
        byte[] last = Arrays.copyOfRange(base, 2223, base.length);
        byte[] extra = G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 'T', List.of("t".getBytes()),
                List.of(G3Blobs.encode(new G3Value.TimeValue(5))));
        for (int cut = 1; cut < last.length; cut += 37) {
            Path file = tmp.resolve("torn" + cut + ".g3");
            byte[] torn = Arrays.copyOf(base, 2223 + cut);
            Files.write(file, torn);
            try (FileSystem fs = G3TestSupport.open(file, APPEND)) {
                Path f = Files.createDirectory(fs.getPath("/000003.Timepoint"));
                G3Blobs.write(f, "t", new G3Value.TimeValue(5));
            }
            byte[] now = Files.readAllBytes(file);
            byte[] expected = Arrays.copyOf(base, 2223 + extra.length);
            System.arraycopy(extra, 0, expected, 2223, extra.length);
            assertThat(now).as("cut %d", cut).isEqualTo(expected);
        }
    }

    @Test
    void wrongNamesAndChangesToWrittenFramesAreRefusedWithTheReason() throws Exception {
        Path file = tmp.resolve("refusals.g3");
        Files.write(file, G3TestSupport.corpusBytes("test-le.g3"));
        try (FileSystem fs = G3TestSupport.open(file, APPEND)) {
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/000005.Scan")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("000001.<FrameType>");
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/000001.Bogus")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("not a frame type name");
            assertThatThrownBy(() -> Files.write(fs.getPath("/000000.None/New"), new byte[] {1}))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("never changed");
            assertThatThrownBy(() -> Files.write(fs.getPath("/000000.None/Five"), new byte[] {1}))
                    .isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> Files.delete(fs.getPath("/000000.None/Five"))).isInstanceOf(AccessDeniedException.class);
            Path f = Files.createDirectory(fs.getPath("/000001.Scan"));
            assertThatThrownBy(() -> Files.write(f.resolve("%41"), new byte[] {1}))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("canonical");
            Files.write(f.resolve("%2E%2E"), new byte[] {1, 2});
            Files.write(f.resolve("%"), new byte[] {3});
        }
        try (FileSystem fs = G3TestSupport.open(file)) {
            assertThat((byte[]) Files.getAttribute(fs.getPath("/000001.Scan/%2E%2E"), "g3:key")).isEqualTo("..".getBytes());
            assertThat(Files.readAllBytes(fs.getPath("/000001.Scan/%"))).containsExactly(3);
        }
    }

    @Test
    void appendingToGzipIsRefusedWithTheReason() throws Exception {
        Path file = tmp.resolve("s.g3.gz");
        Files.write(file, G3TestSupport.corpusBytes("simple-types.g3.gz"));
        try (FileSystem fs = G3TestSupport.open(file, APPEND)) {
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/000004.Scan")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("compressed")
                    .hasMessageContaining("Cannot append to compressed file.");
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(G3TestSupport.corpusBytes("simple-types.g3.gz"));
        assertThatThrownBy(() -> G3TestSupport.open(tmp.resolve("new.g3.gz"), CREATE))
                .isInstanceOf(AccessDeniedException.class).hasMessageContaining("compressed");
    }

    @Test
    void appendedFramesAreSeenByAReaderThatRefreshes() throws Exception {
        Path file = tmp.resolve("live.g3");
        Files.write(file, G3TestSupport.corpusBytes("test-le.g3"));
        try (FileSystem reader = G3TestSupport.open(file)) {
            try (FileSystem writer = G3TestSupport.open(file, APPEND)) {
                Path f = Files.createDirectory(writer.getPath("/000001.Map"));
                G3Blobs.write(f, "k", new G3Value.IntValue(3));
            }
            assertThat(G3Blobs.read(reader.getPath("/000001.Map/k"))).contains(new G3Value.IntValue(3));
        }
    }

    /** Values stream into the file one at a time: a second key file while one is open is refused, naming it. */
    @Test
    void aSecondKeyFileWhileOneIsOpenIsRefusedAndTheFirstStillCommits() throws Exception {
        Path file = tmp.resolve("one-at-a-time.g3");
        byte[] blob = G3Blobs.encode(new G3Value.IntValue(7));
        try (FileSystem fs = G3TestSupport.open(file, CREATE)) {
            Path f = Files.createDirectory(fs.getPath("/000000.Scan"));
            try (var first = Files.newByteChannel(f.resolve("first"), java.util.Set.of(java.nio.file.StandardOpenOption.CREATE_NEW,
                    java.nio.file.StandardOpenOption.WRITE))) {
                first.write(ByteBuffer.wrap(blob, 0, 3));
                assertThatThrownBy(() -> Files.write(f.resolve("second"), new byte[] {1}))
                        .isInstanceOf(java.io.IOException.class).hasMessageContaining("key file first")
                        .hasMessageContaining("still open");
                first.write(ByteBuffer.wrap(blob, 3, blob.length - 3));
            }
            assertThat(Files.exists(f.resolve("second"))).isFalse();
            G3Blobs.write(f, "third", new G3Value.BoolValue(true));
        }
        try (FileSystem fs = G3TestSupport.open(file, Map.of("strict", true))) {
            Path f = fs.getPath("/000000.Scan");
            assertThat(Files.readAttributes(f, "g3:*")).containsEntry("crcOk", true).containsEntry("entries", 2);
            assertThat(G3Blobs.read(f.resolve("first"))).contains(new G3Value.IntValue(7));
            assertThat(G3Blobs.read(f.resolve("third"))).contains(new G3Value.BoolValue(true));
        }
    }

    /**
     * A reader that looked while the last step of a commit was pending (the CRC appended, the entry count
     * still the placeholder) sees the frame once the count is written in place, though the size is unchanged.
     */
    @Test
    void aReaderSeesAFrameWhoseCountIsWrittenInPlaceAfterItLooked() throws Exception {
        Path file = tmp.resolve("in-place.g3");
        byte[] frame = G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 'S', List.of("k".getBytes()),
                List.of(G3Blobs.encode(new G3Value.IntValue(5))));
        byte[] pending = frame.clone();
        ByteBuffer.wrap(pending).order(ByteOrder.LITTLE_ENDIAN).putInt(5, G3Writer.UNCOMMITTED_COUNT);
        Files.write(file, pending);
        try (FileSystem reader = G3TestSupport.open(file)) {
            Path root = reader.getPath("/");
            assertThat(Files.getAttribute(root, "g3:frames")).isEqualTo(0);
            assertThat((String) Files.getAttribute(root, "g3:uncommittedTail")).startsWith("truncated tail");
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                    java.nio.file.StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(frame, 5, 4), 5); // the commit point: same size
            }
            try (Stream<Path> s = Files.list(root)) {
                assertThat(s.map(p -> p.getFileName().toString())).containsExactly("000000.Scan");
            }
            assertThat(G3Blobs.read(reader.getPath("/000000.Scan/k"))).contains(new G3Value.IntValue(5));
        }
    }

    @Test
    void aLargeStagedFrameKeepsItsKeyOrder() throws Exception {
        Path file = tmp.resolve("order.g3");
        List<String> keys = new ArrayList<>();
        try (FileSystem fs = G3TestSupport.open(file, CREATE)) {
            Path f = Files.createDirectory(fs.getPath("/000000.Scan"));
            for (int i = 50; i > 0; i--) {
                keys.add("k" + i);
                G3Blobs.write(f, "k" + i, new G3Value.IntValue(i));
            }
        }
        try (FileSystem fs = G3TestSupport.open(file); Stream<Path> s = Files.list(fs.getPath("/000000.Scan"))) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyElementsOf(keys);
        }
    }
}
