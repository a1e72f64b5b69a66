package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every row of corpus/g3/MANIFEST.tsv, checked through the file system view. */
class G3CorpusTest {

    record Row(String file, int frame, long offset, String frameType, String key, String blobType, long blobLength,
            String sha256, boolean crcOk) {
        /** The manifest writes ad-hoc types as adhoc:<chars>; the tree uses adhoc-<chars>. */
        String frameDir() {
            String type = frameType.startsWith("adhoc:") ? "adhoc-" + frameType.substring(6) : frameType;
            return String.format("/%06d.%s", frame, type);
        }

        @Override
        public String toString() {
            return file + " " + frameDir() + "/" + key;
        }
    }

    static List<Row> rows() throws IOException {
        List<Row> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(G3TestSupport.corpus("MANIFEST.tsv"), StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] c = line.split("\t", -1);
            rows.add(new Row(c[0], Integer.parseInt(c[1]), Long.parseLong(c[2]), c[3], c[4], c[5],
                    c[6].isEmpty() ? -1 : Long.parseLong(c[6]), c[7], c[8].equals("yes")));
        }
        return rows;
    }

    @Test
    void theManifestHasTheExpectedRows() throws IOException {
        assertThat(rows()).hasSize(87);
        assertThat(rows().stream().map(Row::file).distinct())
                .containsExactlyInAnyOrder("all-frame-types.g3", "big-blob-800k.g3", "concatenated.g3", "simple-types.g3",
                        "simple-types.g3.gz", "test-le-v2.g3", "test-le.g3");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void everyManifestRowMatches(Row row) throws Exception {
        try (FileSystem fs = G3TestSupport.open(G3TestSupport.corpus(row.file()))) {
            Path dir = fs.getPath(row.frameDir());
            assertThat(Files.isDirectory(dir)).as(row.frameDir()).isTrue();
            Map<String, Object> frame = Files.readAttributes(dir, "g3:*");
            assertThat(frame.get("offset")).isEqualTo(row.offset());
            assertThat(frame.get("crcOk")).isEqualTo(row.crcOk());
            assertThat(frame.get("crcComputed")).isEqualTo(frame.get("crcStored"));
            if (row.key().isEmpty()) {
                try (Stream<Path> keys = Files.list(dir)) {
                    assertThat(keys).isEmpty();
                }
                return;
            }
            Path key = dir.resolve(G3Blobs.keyName(row.key()));
            byte[] blob = Files.readAllBytes(key);
            assertThat(blob).hasSize((int) row.blobLength());
            assertThat(Files.size(key)).isEqualTo(row.blobLength());
            assertThat(G3TestSupport.sha256(blob)).isEqualTo(row.sha256());
            Map<String, Object> attrs = Files.readAttributes(key, "g3:*");
            assertThat(attrs.get("blobType")).isEqualTo(row.blobType());
            assertThat(attrs.get("length")).isEqualTo(row.blobLength());
            assertThat(attrs.get("key")).isEqualTo(row.key().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Listing order is on-disk order, and every file has exactly the manifest's frames and keys. */
    @ParameterizedTest
    @MethodSource("files")
    void treesListExactlyTheManifestInFileOrder(String file) throws Exception {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        for (Row r : rows()) {
            if (r.file().equals(file)) {
                List<String> keys = expected.computeIfAbsent(r.frameDir().substring(1), k -> new ArrayList<>());
                if (!r.key().isEmpty()) {
                    keys.add(r.key());
                }
            }
        }
        try (FileSystem fs = G3TestSupport.open(G3TestSupport.corpus(file))) {
            Map<String, List<String>> actual = new LinkedHashMap<>();
            try (Stream<Path> frames = Files.list(fs.getPath("/"))) {
                for (Path f : frames.collect(Collectors.toList())) {
                    try (Stream<Path> keys = Files.list(f)) {
                        actual.put(f.getFileName().toString(),
                                keys.map(k -> k.getFileName().toString()).collect(Collectors.toList()));
                    }
                }
            }
            assertThat(actual).containsExactlyEntriesOf(expected);
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "g3:*");
            assertThat(root.get("damage")).isEqualTo("");
            assertThat(root.get("tailLength")).isEqualTo(0L);
        }
    }

    static Stream<String> files() throws IOException {
        return rows().stream().map(Row::file).distinct();
    }

    @Test
    void theEmptyFileIsAValidStreamOfNoFrames() throws Exception {
        try (FileSystem fs = G3TestSupport.open(G3TestSupport.corpus("empty.g3"))) {
            try (Stream<Path> frames = Files.list(fs.getPath("/"))) {
                assertThat(frames).isEmpty();
            }
            assertThat(Files.getAttribute(fs.getPath("/"), "g3:frames")).isEqualTo(0);
        }
    }

    @Test
    void allFrameTypesHaveTheirCodesAndTheAdhocScanIsNotTheStandardScan() throws Exception {
        try (FileSystem fs = G3TestSupport.open(G3TestSupport.corpus("all-frame-types.g3"))) {
            assertThat(Files.getAttribute(fs.getPath("/000003.Scan"), "g3:typeCode")).isEqualTo((int) 'S');
            assertThat(Files.getAttribute(fs.getPath("/000015.adhoc-Scan"), "g3:typeCode")).isEqualTo(0x5363616E);
            assertThat(Files.getAttribute(fs.getPath("/000016.EndProcessing"), "g3:typeCode")).isEqualTo((int) 'Z');
            assertThat(Files.getAttribute(fs.getPath("/000014.None"), "g3:entries")).isEqualTo(0);
            assertThat(Files.getAttribute(fs.getPath("/000014.None"), "g3:length")).isEqualTo(17L);
        }
    }

    @Test
    void blobAttributesGiveClassVersionsAndEndianness() throws Exception {
        try (FileSystem fs = G3TestSupport.open(G3TestSupport.corpus("test-le.g3"));
                FileSystem v2 = G3TestSupport.open(G3TestSupport.corpus("test-le-v2.g3"))) {
            assertThat(Files.getAttribute(fs.getPath("/000000.None/VecInt"), "g3:classVersion")).isEqualTo(1L);
            assertThat(Files.getAttribute(v2.getPath("/000000.None/VecInt"), "g3:classVersion")).isEqualTo(2L);
            assertThat(Files.getAttribute(fs.getPath("/000000.None/Map"), "g3:blobEndianness")).isEqualTo("little");
            assertThat(Files.getAttribute(fs.getPath("/000000.None"), "g3:endianness")).isEqualTo("little");
        }
    }

    @Test
    void typedValuesOfTheUpstreamFilesDecode() throws Exception {
        try (FileSystem fs = G3TestSupport.open(G3TestSupport.corpus("test-le.g3"));
                FileSystem v2 = G3TestSupport.open(G3TestSupport.corpus("test-le-v2.g3"))) {
            for (FileSystem f : List.of(fs, v2)) {
                assertThat(G3Blobs.read(f.getPath("/000000.None/Five"))).contains(new G3Value.IntValue(5));
                assertThat(G3Blobs.read(f.getPath("/000000.None/Vec")))
                        .contains(new G3Value.VectorDouble(new double[] {2.6, 7.2}));
                assertThat(G3Blobs.read(f.getPath("/000000.None/VecInt")))
                        .contains(new G3Value.VectorInt(new long[] {17, 42, 87}));
                G3Value.MapDouble map = (G3Value.MapDouble) G3Blobs.read(f.getPath("/000000.None/Map")).orElseThrow();
                assertThat(map.values()).containsExactly(Map.entry("GoingOnSixteen", 15.9), Map.entry("Six", 6.0));
            }
        }
    }
}
