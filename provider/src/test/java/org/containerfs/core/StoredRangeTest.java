package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.storage.PathInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ContainerFileSystems#storedRange}: for every file of every corpus container, a range that is
 * present holds the file's bytes (SHA-256 of the range read from the storage file = SHA-256 of the NIO
 * read); which files have one, per format; none where the bytes are decompressed, read through an input,
 * truncated or staged.
 */
class StoredRangeTest {

    @TempDir
    Path tmp;

    static Path corpus() {
        String dir = System.getProperty("containerfs.corpus");
        return dir != null ? Path.of(dir) : Path.of("src/test/resources/corpus").toAbsolutePath();
    }

    /** The container files of one format's corpus directory (everything but the manifests and notes). */
    static List<Path> containers(String format) throws IOException {
        try (Stream<Path> s = Files.list(corpus().resolve(format))) {
            return s.filter(p -> !p.getFileName().toString().endsWith(".tsv") && !p.getFileName().toString().endsWith(".md"))
                    .sorted().toList();
        }
    }

    /** What one file of a container gave: its NIO bytes' hash (null: the read failed) and its range. */
    record Seen(Path path, String sha256, Exception readFailure, Optional<StoredRange> range) {}

    /** Every regular file of the container at {@code file}, or null if the container does not open. */
    static List<Seen> walk(FileSystem fs) throws Exception {
        List<Seen> out = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> w = Files.walk(fs.getPath("/"))) {
            files = w.filter(Files::isRegularFile).toList();
        }
        for (Path p : files) {
            String sha = null;
            Exception failure = null;
            try {
                sha = sha256(Files.readAllBytes(p));
            } catch (IOException e) {
                failure = e;
            }
            Optional<StoredRange> range = ContainerFileSystems.storedRange(p);
            if (range.isPresent()) {
                StoredRange r = range.get();
                assertThat(r.file().isAbsolute()).isTrue();
                assertThat(r.length()).as("length of the range of %s", p).isEqualTo(Files.size(p));
                // a range is served by the mount without NIO's checks: bytes NIO refuses (truncated, failed CRC) must
                // have none, or the mount would answer what every other door calls damage
                assertThat(failure).as("a file with a range must read through NIO: %s", p).isNull();
                assertThat(sha256(readRange(r))).as("bytes of the range of %s (%s)", p, r).isEqualTo(sha);
            }
            out.add(new Seen(p, sha, failure, range));
        }
        return out;
    }

    static byte[] readRange(StoredRange r) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(r.length()));
        try (FileChannel ch = FileChannel.open(r.file(), StandardOpenOption.READ)) {
            while (buf.hasRemaining()) {
                int n = ch.read(buf, r.offset() + buf.position());
                if (n < 0) {
                    throw new IOException(r.file() + " ends before " + r);
                }
            }
        }
        return buf.array();
    }

    static String sha256(byte[] bytes) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IOException(e);
        }
    }

    /** Container file name to its files, for every corpus container of {@code format} that opens. */
    static Map<String, List<Seen>> corpusOf(String format) throws Exception {
        Map<String, List<Seen>> out = new LinkedHashMap<>();
        for (Path c : containers(format)) {
            FileSystem fs;
            try {
                fs = ContainerFileSystems.open(c);
            } catch (IOException | RuntimeException refused) {
                continue; // a damaged file header: nothing to read
            }
            try (fs) {
                out.put(c.getFileName().toString(), walk(fs));
            }
        }
        return out;
    }

    static List<Seen> all(Map<String, List<Seen>> byContainer) {
        return byContainer.values().stream().flatMap(List::stream).toList();
    }

    @Test
    void everyReadableLimeRecordIsItsStoredRange() throws Exception {
        Map<String, List<Seen>> lime = corpusOf("lime");
        assertThat(lime).containsKeys("s01_single_record.lime", "s10_truncated_in_payload.lime", "s13_large_record.lime");
        for (Seen s : all(lime)) {
            if (s.readFailure() == null) {
                assertThat(s.range()).as("range of %s", s.path()).isPresent();
            } else {
                assertThat(s.range()).as("range of unreadable %s", s.path()).isEmpty();
            }
        }
    }

    @Test
    void truncatedLimeRecordsHaveNoRange() throws Exception {
        for (String name : List.of("s10_truncated_in_payload.lime", "s16_truncated_in_padding.lime")) {
            try (FileSystem fs = ContainerFileSystems.open(corpus().resolve("lime").resolve(name))) {
                List<Seen> seen = walk(fs);
                List<Seen> failing = seen.stream().filter(s -> s.readFailure() != null).toList();
                if (name.startsWith("s10")) {
                    assertThat(failing).as("the truncated record of %s", name).isNotEmpty();
                }
                for (Seen s : failing) {
                    assertThat(s.readFailure()).isInstanceOf(TruncatedDataException.class);
                    assertThat(s.range()).as("range of truncated %s", s.path()).isEmpty();
                }
                for (Seen s : seen) {
                    if (s.readFailure() == null) {
                        assertThat(s.range()).as("range of complete %s", s.path()).isPresent();
                    }
                }
            }
        }
    }

    @Test
    void everyGsdChunkIsItsStoredRange() throws Exception {
        List<Seen> gsd = all(corpusOf("gsd"));
        assertThat(gsd).isNotEmpty();
        for (Seen s : gsd) {
            assertThat(s.readFailure()).as("read of %s", s.path()).isNull();
            assertThat(s.range()).as("range of %s", s.path()).isPresent();
        }
    }

    @Test
    void scdaSectionsHaveRangesUnlessEncoded() throws Exception {
        Map<String, List<Seen>> scda = corpusOf("scda");
        List<Seen> readable = all(scda).stream().filter(s -> s.readFailure() == null).toList();
        assertThat(readable.stream().filter(s -> s.range().isPresent())).isNotEmpty();
        assertThat(scda).containsKey("encode_flag_on.scda");
        for (Seen s : all(scda)) {
            if (s.readFailure() != null) {
                assertThat(s.range()).as("range of unreadable %s", s.path()).isEmpty();
            }
        }
    }

    @Test
    void anEncodedScdaSectionHasNoRange() throws Exception {
        byte[] text = "an scda block, ".repeat(50).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (boolean encode : new boolean[] {true, false}) {
            Path file = tmp.resolve("encode-" + encode + ".scda");
            try (FileSystem fs = ContainerFileSystems.provider("scda").newFileSystem(file,
                    Map.of("create", true, "encode", encode))) {
                Files.write(fs.getPath("/0000.B.block"), text);
            }
            try (FileSystem fs = ContainerFileSystems.open(file)) {
                Path block = fs.getPath("/0000.B.block");
                assertThat(Files.readAllBytes(block)).isEqualTo(text);
                assertThat(ContainerFileSystems.storedRange(block)).as("encode=%s", encode).matches(r -> r.isPresent() != encode);
                walk(fs); // and a range present holds the bytes
            }
        }
    }

    @Test
    void sionStreamsHaveRangesOnlyWhenOneChunk() throws Exception {
        Map<String, List<Seen>> sion = corpusOf("sion");
        List<Seen> all = all(sion);
        assertThat(all.stream().filter(s -> s.range().isPresent())).isNotEmpty();
        // a task of several chunks is assembled from pieces: no range
        assertThat(sion.get("multiblock_bs512.sion").stream().filter(s -> s.range().isEmpty())).isNotEmpty();
        assertThat(sion.get("one_task_one_chunk.sion").stream().filter(s -> s.range().isPresent())).isNotEmpty();
    }

    @Test
    void uncompressedG3ValuesAreRangesAndGzippedOnesAreNot() throws Exception {
        Map<String, List<Seen>> g3 = corpusOf("g3");
        g3.forEach((name, seen) -> {
            for (Seen s : seen) {
                if (name.endsWith(".gz")) {
                    assertThat(s.range()).as("range of %s in %s", s.path(), name).isEmpty();
                } else if (s.readFailure() == null) {
                    assertThat(s.range()).as("range of %s in %s", s.path(), name).isPresent();
                } else {
                    assertThat(s.range()).as("range of unreadable %s in %s", s.path(), name).isEmpty();
                }
            }
        });
        assertThat(g3.get("simple-types.g3.gz")).isNotEmpty();
    }

    @Test
    void g3ValuesOfAFrameWithAFailedCrcHaveNoRange() throws Exception {
        byte[] bytes = Files.readAllBytes(corpus().resolve("g3").resolve("simple-types.g3"));
        int flipped = 0;
        List<Seen> failing = List.of();
        // flip one byte at a time from the middle on until a value fails its frame's CRC (not a header, which would
        // refuse the whole file), so the test does not depend on where the corpus file's frames lie
        for (int at = bytes.length / 2; at < bytes.length - 8 && failing.isEmpty(); at += 7) {
            byte[] damaged = bytes.clone();
            damaged[at] ^= 0x5a;
            Path copy = tmp.resolve("crc-" + at + ".g3");
            Files.write(copy, damaged);
            FileSystem fs;
            try {
                fs = ContainerFileSystems.open(copy);
            } catch (IOException refused) {
                continue;
            }
            try (fs) {
                List<Seen> seen = walk(fs); // asserts that no file with a range fails to read
                failing = seen.stream().filter(s -> s.readFailure() != null).toList();
                flipped = at;
            }
        }
        assertThat(failing).as("values failing their CRC after flipping byte %d", flipped).isNotEmpty();
        for (Seen s : failing) {
            assertThat(s.range()).as("range of %s, whose frame fails its CRC", s.path()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lime/s03_multi_msg_pack.lime", "gsd/hoomd_trajectory.gsd", "sion/tasks4_varsizes_bs512.sion"})
    void aGzippedContainerHasNoRanges(String corpusFile) throws Exception {
        Path source = corpus().resolve(corpusFile);
        Path gz = tmp.resolve(source.getFileName() + ".gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(source, out);
        }
        try (FileSystem fs = ContainerFileSystems.open(gz)) {
            List<Seen> seen = walk(fs);
            assertThat(seen).isNotEmpty();
            assertThat(seen).allSatisfy(s -> assertThat(s.range()).as("range of %s", s.path()).isEmpty());
        }
        try (FileSystem fs = ContainerFileSystems.open(source)) { // the same container stored as it is: ranges
            assertThat(walk(fs).stream().filter(s -> s.range().isPresent())).isNotEmpty();
        }
    }

    @Test
    void aContainerReadThroughAnInputHasNoRanges() throws Exception {
        Path source = corpus().resolve("lime/s03_multi_msg_pack.lime");
        try (FileSystem fs = ContainerFileSystems.open(PathInput.of(source), Map.of())) {
            List<Seen> seen = walk(fs);
            assertThat(seen).isNotEmpty();
            assertThat(seen).allSatisfy(s -> assertThat(s.range()).isEmpty());
        }
    }

    @Test
    void directoriesOtherPathsAndMissingNames() throws Exception {
        Path source = corpus().resolve("lime/s03_multi_msg_pack.lime");
        try (FileSystem fs = ContainerFileSystems.open(source)) {
            assertThat(ContainerFileSystems.storedRange(fs.getPath("/"))).isEmpty();
            assertThat(ContainerFileSystems.storedRange(fs.getPath("/msg01"))).isEmpty();
            assertThatThrownBy(() -> ContainerFileSystems.storedRange(fs.getPath("/msg99/none")))
                    .isInstanceOf(NoSuchFileException.class);
        }
        assertThat(ContainerFileSystems.storedRange(source)).isEmpty(); // a plain file is no container's file
    }

    @Test
    void aTreeAnswersForFilesInsideContainersOnly() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("tree"));
        Files.copy(corpus().resolve("lime/s03_multi_msg_pack.lime"), dir.resolve("a.lime"));
        Files.writeString(dir.resolve("notes.txt"), "plain");
        try (FileSystem tree = ContainerFileSystems.openTree(dir, Map.of())) {
            assertThat(ContainerFileSystems.storedRange(tree.getPath("/notes.txt"))).isEmpty();
            assertThat(ContainerFileSystems.storedRange(tree.getPath("/a.lime"))).isEmpty();
            List<Path> records;
            try (Stream<Path> w = Files.walk(tree.getPath("/a.lime"))) {
                records = w.filter(Files::isRegularFile).toList();
            }
            assertThat(records).isNotEmpty();
            for (Path p : records) {
                StoredRange r = ContainerFileSystems.storedRange(p).orElseThrow();
                assertThat(r.file()).isEqualTo(dir.resolve("a.lime").toAbsolutePath());
                assertThat(sha256(readRange(r))).isEqualTo(sha256(Files.readAllBytes(p)));
            }
        }
    }

    @Test
    void stagedFilesHaveNoRangeUntilCommitted() throws Exception {
        Path file = tmp.resolve("staged.g3");
        try (FileSystem fs = ContainerFileSystems.create(file, "g3")) {
            Path frame = Files.createDirectory(fs.getPath("/000000.Scan"));
            Path key = frame.resolve("data");
            Files.write(key, new byte[] {1, 2, 3, 4});
            assertThat(Files.getAttribute(frame, "g3:staged")).isEqualTo(true);
            assertThat(ContainerFileSystems.storedRange(key)).isEmpty();
            Files.setAttribute(frame, "g3:commit", true);
            StoredRange r = ContainerFileSystems.storedRange(key).orElseThrow();
            assertThat(readRange(r)).isEqualTo(Files.readAllBytes(key));
        }
        Path gsd = tmp.resolve("staged.gsd");
        try (FileSystem fs = ContainerFileSystems.create(gsd, "gsd")) {
            Path frame = Files.createDirectory(fs.getPath("/0"));
            Files.createDirectories(frame.resolve("unit"));
            Path chunk = frame.resolve("unit/data");
            try (var ch = Files.newByteChannel(chunk, java.util.EnumSet.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), ContainerFileSystems.attribute("gsd:type", "uint8"),
                    ContainerFileSystems.attribute("gsd:M", 1))) {
                ch.write(ByteBuffer.wrap(new byte[] {9, 8, 7}));
            }
            assertThat(Files.readAllBytes(chunk)).containsExactly(9, 8, 7);
            assertThat(ContainerFileSystems.storedRange(chunk)).isEmpty();
            Files.setAttribute(frame, "gsd:commit", true);
            StoredRange r = ContainerFileSystems.storedRange(chunk).orElseThrow();
            assertThat(readRange(r)).containsExactly(9, 8, 7);
        }
    }
}
