package org.containerfs.sion;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every row of the reference corpus's MANIFEST.tsv and HEADERS.tsv (written by SIONlib 1.7.6 and 1.4). */
class SionCorpusTest {

    static Path corpus() {
        String property = System.getProperty("containerfs.corpus");
        Path base = property != null ? Paths.get(property) : Paths.get("src/test/resources/corpus");
        return base.resolve("sion");
    }

    static List<String[]> rows(String manifest) throws IOException {
        List<String> lines = Files.readAllLines(corpus().resolve(manifest));
        List<String[]> out = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isBlank()) {
                out.add(line.split("\t", -1));
            }
        }
        return out;
    }

    static Stream<Arguments> manifestRows() throws IOException {
        return rows("MANIFEST.tsv").stream().map(r -> Arguments.of(r[0], Integer.parseInt(r[1]), Long.parseLong(r[2]),
                Integer.parseInt(r[3]), Long.parseLong(r[4]), r[5], Long.parseLong(r[6]), r[7]));
    }

    static Stream<Arguments> headerRows() throws IOException {
        return rows("HEADERS.tsv").stream().map(r -> Arguments.of((Object[]) r));
    }

    static FileSystem open(Path file, Map<String, ?> env) throws IOException {
        return FileSystems.newFileSystem(file, env);
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest(name = "{0} task {1} chunk {3}")
    @MethodSource("manifestRows")
    void manifestRowMatchesStreamChunkAndGlobalRank(String file, int task, long globalRank, int chunk, long chunkBytes,
            String chunkSha, long streamBytes, String streamSha) throws IOException {
        Path container = corpus().resolve(file);
        String taskName = String.format("task%06d", task);
        try (FileSystem fs = open(container, Map.of())) {
            Path p = fs.getPath("/" + taskName);
            assertThat(Files.size(p)).isEqualTo(streamBytes);
            assertThat(sha256(Files.readAllBytes(p))).isEqualTo(streamSha);
            assertThat(Files.getAttribute(p, "sion:globalRank")).isEqualTo(globalRank);
        }
        try (FileSystem fs = open(container, Map.of("chunks", "true"))) {
            Path c = fs.getPath("/" + taskName, String.format("chunk%06d", chunk));
            assertThat(Files.size(c)).isEqualTo(chunkBytes);
            assertThat(sha256(Files.readAllBytes(c))).isEqualTo(chunkSha);
            long[] sizes = (long[]) Files.getAttribute(c.getParent(), "sion:chunkSizes");
            assertThat(sizes[chunk]).isEqualTo(chunkBytes);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("headerRows")
    void headerRowMatchesRootAttributes(String file, String status, String fsblksize, String ntasks, String nfiles,
            String filenumber, String maxusedchunks, String ffv, String writer, String keyval, String flag1,
            String userEndianness, String chunksizes, String toolMessage) throws IOException {
        assertThat(status).isEqualTo("ok");
        assertThat(toolMessage).isEmpty();
        try (FileSystem fs = open(corpus().resolve(file), Map.of())) {
            Map<String, Object> a = Files.readAttributes(fs.getPath("/"), "sion:*");
            assertThat(a.get("blockSize")).isEqualTo(Integer.parseInt(fsblksize));
            assertThat(a.get("tasks")).isEqualTo(Integer.parseInt(ntasks));
            assertThat(a.get("files")).isEqualTo(Integer.parseInt(nfiles));
            assertThat(a.get("fileNumber")).isEqualTo(Integer.parseInt(filenumber));
            assertThat(a.get("maxChunks")).isEqualTo(Integer.parseInt(maxusedchunks));
            assertThat(a.get("fileFormatVersion")).isEqualTo(Integer.parseInt(ffv));
            assertThat(a.get("writerVersion")).isEqualTo(writer);
            assertThat(a.get("keyValueMode")).isEqualTo(Integer.parseInt(keyval.split(" ")[0]));
            assertThat(keyval).contains("SION_KEYVAL_" + ((String) a.get("keyValueModeName")).toUpperCase());
            assertThat(a.get("flag1")).isEqualTo(Long.parseLong(flag1.split(" ")[0]));
            assertThat(a.get("userDataEndianness")).isEqualTo(userEndianness);
            long[] stored = Arrays.stream(chunksizes.split(",")).mapToLong(Long::parseLong).toArray();
            assertThat((long[]) a.get("chunkSizesStored")).containsExactly(stored);
            assertThat(a.get("endianness")).isEqualTo(file.startsWith("be_") ? "big" : "little");
            assertThat(a.get("recovered")).isEqualTo(false);
        }
    }

    /** The tree lists exactly the manifest's tasks, and each task directory exactly its chunks. */
    @Test
    void treeListsEveryManifestTaskAndChunkAndNothingElse() throws IOException {
        Map<String, Map<String, Integer>> chunksPerTask = new LinkedHashMap<>();
        for (String[] r : rows("MANIFEST.tsv")) {
            chunksPerTask.computeIfAbsent(r[0], k -> new LinkedHashMap<>())
                    .merge(String.format("task%06d", Integer.parseInt(r[1])), 1, Integer::sum);
        }
        assertThat(chunksPerTask).hasSize(rows("HEADERS.tsv").size());
        for (Map.Entry<String, Map<String, Integer>> e : chunksPerTask.entrySet()) {
            try (FileSystem fs = open(corpus().resolve(e.getKey()), Map.of("chunks", true))) {
                List<String> tasks = list(fs.getPath("/"));
                assertThat(tasks).as(e.getKey()).containsExactlyElementsOf(e.getValue().keySet());
                for (String task : tasks) {
                    assertThat(list(fs.getPath("/", task))).as(e.getKey() + " " + task)
                            .hasSize(e.getValue().get(task));
                }
            }
            try (FileSystem fs = open(corpus().resolve(e.getKey()), Map.of())) {
                for (Path p : Files.list(fs.getPath("/")).collect(Collectors.toList())) {
                    assertThat(Files.isRegularFile(p)).as(p.toString()).isTrue();
                }
            }
        }
    }

    static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toList());
        }
    }

    /** Big-endian metadata is swapped; the user data is not (the payload equals its little-endian twin's). */
    @Test
    void bigEndianTwinHasTheSamePayloadAndAttributes() throws IOException {
        try (FileSystem be = open(corpus().resolve("be_tasks4_varsizes_bs512.sion"), Map.of());
                FileSystem le = open(corpus().resolve("tasks4_varsizes_bs512.sion"), Map.of())) {
            for (String task : list(le.getPath("/"))) {
                assertThat(Files.readAllBytes(be.getPath("/", task))).isEqualTo(Files.readAllBytes(le.getPath("/", task)));
                assertThat((long[]) Files.getAttribute(be.getPath("/", task), "sion:chunkOffsets"))
                        .isEqualTo((long[]) Files.getAttribute(le.getPath("/", task), "sion:chunkOffsets"));
            }
            assertThat(Files.getAttribute(be.getPath("/"), "sion:endianness")).isEqualTo("big");
            assertThat(Files.getAttribute(be.getPath("/"), "sion:prefix")).isEqualTo("tasks4_varsizes_bs512.sion");
        }
    }

    /** Non-dense, unsorted global ranks and a requested 5000 bytes rounded up to 8192. */
    @Test
    void globalRanksAndRoundedCapacities() throws IOException {
        try (FileSystem fs = open(corpus().resolve("tasks3_globalranks_bs4096.sion"), Map.of())) {
            assertThat(Files.getAttribute(fs.getPath("/task000000"), "sion:globalRank")).isEqualTo(42L);
            assertThat(Files.getAttribute(fs.getPath("/task000001"), "sion:globalRank")).isEqualTo(7L);
            assertThat(Files.getAttribute(fs.getPath("/task000002"), "sion:globalRank")).isEqualTo(19L);
            assertThat(Files.getAttribute(fs.getPath("/task000002"), "sion:capacity")).isEqualTo(8192L);
            assertThat(Files.getAttribute(fs.getPath("/task000002"), "sion:physicalFile"))
                    .isEqualTo("tasks3_globalranks_bs4096.sion");
            assertThat(Files.getAttribute(fs.getPath("/task000002"), "sion:localRank")).isEqualTo(2);
            // start of data = roundup(1088 + 16*3, 4096); task 2 follows 4096 + 4096
            assertThat((long[]) Files.getAttribute(fs.getPath("/task000002"), "sion:chunkOffsets"))
                    .containsExactly(4096L + 8192L);
        }
    }

    /** Several blocks per task: chunk offsets step by the sum of all capacities (the global skip). */
    @Test
    void multiblockChunkOffsetsStepByTheGlobalSkip() throws IOException {
        try (FileSystem fs = open(corpus().resolve("multiblock_bs512.sion"), Map.of())) {
            assertThat((long[]) Files.getAttribute(fs.getPath("/task000000"), "sion:chunkOffsets"))
                    .containsExactly(1536L, 1536L + 1536, 1536L + 3072);
            assertThat((long[]) Files.getAttribute(fs.getPath("/task000002"), "sion:chunkSizes"))
                    .containsExactly(512L, 10L);
            // reads that cross a chunk boundary, through a channel at an arbitrary position
            byte[] whole = Files.readAllBytes(fs.getPath("/task000000"));
            try (var ch = Files.newByteChannel(fs.getPath("/task000000"))) {
                ch.position(390);
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(420);
                while (buf.hasRemaining() && ch.read(buf) > 0) {
                    // fill
                }
                assertThat(buf.array()).isEqualTo(Arrays.copyOfRange(whole, 390, 810));
            }
            // transferTo across chunk boundaries, part by part, into a real file
            Path out = Files.createTempFile("sion-transfer", ".bin");
            try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(fs.getPath("/task000000"));
                    java.nio.channels.FileChannel sink = java.nio.channels.FileChannel.open(out,
                            java.nio.file.StandardOpenOption.WRITE)) {
                long done = 0;
                while (done < 1190) {
                    done += in.transferTo(10 + done, 1190 - done, sink);
                }
                assertThat(in.transferTo(1200, 10, sink)).isZero();
            }
            try {
                assertThat(Files.readAllBytes(out)).isEqualTo(Arrays.copyOfRange(whole, 10, 1200));
            } finally {
                Files.delete(out);
            }
        }
    }
}
