package org.containerfs.gsd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.gsd.GsdTestSupport.corpus;
import static org.containerfs.gsd.GsdTestSupport.open;
import static org.containerfs.gsd.GsdTestSupport.openRead;
import static org.containerfs.gsd.GsdTestSupport.sha256;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every row of corpus/gsd/MANIFEST.tsv, and what the corpus README says about each file. */
class GsdCorpusTest {

    record Row(String file, int frame, String chunk, String type, int typeId, long n, int m, long nbytes, String sha256) {}

    static Map<String, List<Row>> manifest() throws IOException {
        Map<String, List<Row>> byFile = new TreeMap<>();
        List<String> lines = Files.readAllLines(corpus("MANIFEST.tsv"), StandardCharsets.UTF_8);
        assertThat(lines.get(0)).isEqualTo("file\tframe\tchunk\ttype\ttype_id\tN\tM\tnbytes\tsha256");
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            Row r = new Row(f[0], Integer.parseInt(f[1]), f[2], f[3], Integer.parseInt(f[4]), Long.parseLong(f[5]),
                    Integer.parseInt(f[6]), Long.parseLong(f[7]), f[8]);
            byFile.computeIfAbsent(r.file(), k -> new ArrayList<>()).add(r);
        }
        return byFile;
    }

    static Stream<String> manifestFiles() throws IOException {
        return manifest().keySet().stream();
    }

    /** The tree-mapping rule, written independently: split on '/', unless a needed directory is another chunk. */
    static String expectedPath(int frame, String chunk, Set<String> frameNames) {
        String[] parts = chunk.split("/", -1);
        boolean split = true;
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].isEmpty() || parts[i].equals(".") || parts[i].equals("..")) {
                split = false;
            }
            if (i < parts.length - 1) {
                prefix.append(i == 0 ? "" : "/").append(parts[i]);
                if (frameNames.contains(prefix.toString())) {
                    split = false;
                }
            }
        }
        return "/" + frame + "/" + (split ? chunk : chunk.replace("/", "%2F"));
    }

    @ParameterizedTest
    @MethodSource("manifestFiles")
    void everyManifestRowMatchesNameTypeShapeAndBytes(String file) throws IOException {
        List<Row> rows = manifest().get(file);
        Map<Integer, Set<String>> namesByFrame = new TreeMap<>();
        for (Row r : rows) {
            namesByFrame.computeIfAbsent(r.frame(), k -> new HashSet<>()).add(r.chunk());
        }
        try (FileSystem fs = openRead(corpus(file))) {
            for (Row r : rows) {
                Path p = fs.getPath(expectedPath(r.frame(), r.chunk(), namesByFrame.get(r.frame())));
                assertThat(Files.isRegularFile(p)).as(p.toString()).isTrue();
                Map<String, Object> a = Files.readAttributes(p, "gsd:*");
                assertThat(a.get("type")).as(p + " type").isEqualTo(r.type());
                assertThat(a.get("typeId")).as(p + " typeId").isEqualTo(r.typeId());
                assertThat(a.get("N")).as(p + " N").isEqualTo(r.n());
                assertThat(a.get("M")).as(p + " M").isEqualTo(r.m());
                assertThat(a.get("frame")).isEqualTo(r.frame());
                assertThat(a.get("name")).isEqualTo(r.chunk());
                assertThat(Files.size(p)).as(p + " size").isEqualTo(r.nbytes());
                assertThat(sha256(Files.readAllBytes(p))).as(p + " sha256").isEqualTo(r.sha256());
            }
            // and nothing more than the manifest lists
            long files;
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                files = walk.filter(Files::isRegularFile).count();
            }
            assertThat(files).isEqualTo(rows.size());
            int lastFrame = rows.stream().mapToInt(Row::frame).max().orElse(-1);
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:frames")).isEqualTo(lastFrame + 1);
        }
    }

    @Test
    void manifestCoversEveryCorpusFileButTheEmptyOne() throws IOException {
        Set<String> gsdFiles = new HashSet<>();
        try (Stream<Path> s = Files.list(corpus(""))) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".gsd")).forEach(gsdFiles::add);
        }
        gsdFiles.remove("empty_no_frames.gsd");
        assertThat(manifest().keySet()).containsExactlyInAnyOrderElementsOf(gsdFiles);
    }

    @Test
    void emptyFileHasNoFramesAndGsdsInitialLayout() throws IOException {
        try (FileSystem fs = openRead(corpus("empty_no_frames.gsd"))) {
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s).isEmpty();
            }
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "gsd:*");
            assertThat(root).containsEntry("frames", 0).containsEntry("version", "2.0")
                    .containsEntry("indexLocation", 256L).containsEntry("indexAllocatedEntries", 128L)
                    .containsEntry("namelistLocation", 4352L).containsEntry("namelistAllocatedEntries", 16L)
                    .containsEntry("size", 5376L).containsEntry("application", "gen_gsd_corpus")
                    .containsEntry("schema", "hoomd");
        }
    }

    @Test
    void v1FileKeepsWriteOrderInListingAndFindsEveryNameByLookup() throws IOException {
        try (FileSystem fs = openRead(corpus("v1_upstream_test_gsd_v1.gsd"))) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:version")).isEqualTo("1.0");
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:indexLocation")).isEqualTo(39172L);
            List<String> listed = new ArrayList<>();
            List<Long> locations = new ArrayList<>();
            try (Stream<Path> s = Files.list(fs.getPath("/4"))) {
                s.forEach(p -> {
                    listed.add(p.getFileName().toString());
                    try {
                        locations.add((Long) Files.getAttribute(p, "gsd:location"));
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            assertThat(listed).hasSize(127);
            // the listing is file (index) order: the v1 index is not sorted by name id
            assertThat(listed).isNotEqualTo(listed.stream().sorted((a, b) -> Integer.compare(
                    Integer.parseInt(a), Integer.parseInt(b))).toList());
            for (int i = 0; i < 127; i++) {
                assertThat(Files.exists(fs.getPath("/4/" + i))).isTrue();
            }
        }
    }

    @Test
    void indexGrowthFileIsReadFromTheRelocatedIndex() throws IOException {
        try (FileSystem fs = openRead(corpus("many_frames_index_growth.gsd"))) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "gsd:*");
            assertThat(root).containsEntry("indexLocation", 36792L).containsEntry("indexAllocatedEntries", 1024L)
                    .containsEntry("frames", 300).containsEntry("chunks", 900);
        }
    }

    @Test
    void framesEndedEmptyInTheMiddleAreEmptyDirectoriesAndTrailingOnesAreGone() throws IOException {
        try (FileSystem fs = openRead(corpus("sparse_chunks_and_gaps.gsd"))) {
            List<String> frames = new ArrayList<>();
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                s.forEach(p -> frames.add(p.getFileName().toString()));
            }
            assertThat(frames).containsExactly("0", "1", "2", "3", "4", "5", "6", "7");
            for (String empty : List.of("/2", "/3")) {
                try (Stream<Path> s = Files.list(fs.getPath(empty))) {
                    assertThat(s).isEmpty();
                }
                assertThat(Files.getAttribute(fs.getPath(empty), "gsd:chunkCount")).isEqualTo(0);
            }
        }
    }

    @Test
    void killedWriterLeftThreeFramesAndNoTraceOfItsLastName() throws IOException {
        try (FileSystem fs = openRead(corpus("killed_before_end_frame.gsd"))) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:frames")).isEqualTo(3);
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:names")).isEqualTo(2);
        }
    }

    @Test
    void appendedSessionsShowNamesAddedLater() throws IOException {
        try (FileSystem fs = openRead(corpus("appended_three_sessions.gsd"))) {
            assertThat(Files.exists(fs.getPath("/2/session2"))).isFalse();
            assertThat(Files.isRegularFile(fs.getPath("/3/session2/only"))).isTrue();
            assertThat(Files.getAttribute(fs.getPath("/3/session2"), "gsd:prefix")).isEqualTo("session2");
            assertThat(Files.isRegularFile(fs.getPath("/5/session3/only"))).isTrue();
        }
    }

    @Test
    void rawViewShowsOnlyStoredChunksWhileHoomdViewFallsBackToFrameZero() throws IOException {
        Path file = corpus("hoomd_trajectory.gsd");
        try (FileSystem raw = openRead(file)) {
            assertThat(Files.exists(raw.getPath("/5/particles/velocity"))).isFalse();
            assertThat(Files.exists(raw.getPath("/0/configuration/step"))).isFalse();
        }
        try (FileSystem hoomd = open(file, Map.of("hoomd", "true"));
                FileSystem raw = openRead(file)) {
            Path v5 = hoomd.getPath("/5/particles/velocity");
            assertThat(Files.readAllBytes(v5)).isEqualTo(Files.readAllBytes(raw.getPath("/0/particles/velocity")))
                    .isNotEqualTo(Files.readAllBytes(raw.getPath("/3/particles/velocity")));
            assertThat(Files.getAttribute(v5, "gsd:inheritedFrom")).isEqualTo(0);
            assertThat(Files.getAttribute(v5, "gsd:frame")).isEqualTo(0);
            Path own = hoomd.getPath("/3/particles/velocity");
            assertThat(Files.getAttribute(own, "gsd:inheritedFrom")).isEqualTo(-1);
            assertThat(Files.readAllBytes(own)).isEqualTo(Files.readAllBytes(raw.getPath("/3/particles/velocity")));
            // frame 0 stays as stored: its missing step has no earlier frame to come from
            assertThat(Files.exists(hoomd.getPath("/0/configuration/step"))).isFalse();
            assertThat(Files.getAttribute(hoomd.getPath("/"), "gsd:hoomdFallback")).isEqualTo(true);
        }
    }

    @Test
    void rootAttributesDescribeTheContainer() throws IOException {
        try (FileSystem fs = openRead(corpus("hoomd_trajectory.gsd"))) {
            Map<String, Object> a = new LinkedHashMap<>(Files.readAttributes(fs.getPath("/"), "gsd:*"));
            assertThat(a).containsEntry("version", "2.0").containsEntry("schema", "hoomd")
                    .containsEntry("schemaVersion", "1.4").containsEntry("frames", 12).containsEntry("orphanBytes", 0L);
        }
    }

    @Test
    void version03ReadsWithTheV1Layout(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("v03.gsd");
        Files.copy(corpus("v1_upstream_test_gsd_v1.gsd"), file);
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {3, 0, 0, 0}), 44);
        }
        try (FileSystem v03 = openRead(file); FileSystem v1 = openRead(corpus("v1_upstream_test_gsd_v1.gsd"))) {
            assertThat(Files.getAttribute(v03.getPath("/"), "gsd:version")).isEqualTo("0.3");
            for (String p : List.of("/0/0", "/2/63", "/4/126")) {
                assertThat(Files.readAllBytes(v03.getPath(p))).isEqualTo(Files.readAllBytes(v1.getPath(p)));
            }
        }
    }
}
