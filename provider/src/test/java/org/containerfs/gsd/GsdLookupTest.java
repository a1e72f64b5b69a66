package org.containerfs.gsd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.gsd.GsdTestSupport.corpus;
import static org.containerfs.gsd.GsdTestSupport.create;
import static org.containerfs.gsd.GsdTestSupport.open;
import static org.containerfs.gsd.GsdTestSupport.writeChunk;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A path lookup resolves names with binary searches, without building the frame's shape; listing
 * builds the shape. Both must give the same tree: every listed path is found with the same chunk,
 * and every path listed in some other frame is found in this one exactly when it is listed here.
 */
class GsdLookupTest {
    @TempDir
    Path tmp;

    /**
     * Frames with differing name sets, so the split rule decides differently from frame to frame. In
     * a staged frame a name is written before the names that extend it ("particles" before
     * "particles/position"): the staged tree already shows "particles" as a directory otherwise.
     */
    Path awkwardNames() throws IOException {
        Path file = tmp.resolve("awkward.gsd");
        List<List<String>> frames = List.of(
                List.of("particles", "particles%2Fposition", "a%2F%2Fb", ".%2Fx", "x%2F..", "%2Flead", "trail%2F",
                        "100%25 wörld%2Fok", "log%2Fdeep%2Fer%2Fname", "%2E", "%2E%2E"),
                List.of("particles%2Fposition", "log%2Fdeep", "log%2Fdeep%2Fer%2Fname", "log%2Fdeeper", "x"),
                List.of("particles%2Fposition", "particles%2Fvelocity", "log%2Fdeep%2Fer%2Fname", "log%2Fa", "log%2Fdeepest%2Fq"),
                List.of(),
                List.of("log", "log%2Fdeep%2Fer%2Fname", "particles", "λ".repeat(140), "λ".repeat(140) + "%2F" + "μ".repeat(140)));
        try (FileSystem fs = create(file, Map.of())) {
            for (int f = 0; f < frames.size(); f++) {
                Files.createDirectory(fs.getPath("/" + f));
                for (String name : frames.get(f)) {
                    writeChunk(fs.getPath("/" + f + "/" + name), "uint8", 1, new byte[] {(byte) f});
                }
            }
        }
        return file;
    }

    @Test
    void lookupAgreesWithListingOnCorpusAndAwkwardNamesInBothViews() throws IOException {
        List<Path> files = new java.util.ArrayList<>();
        try (Stream<Path> s = Files.list(corpus(""))) {
            s.filter(p -> p.toString().endsWith(".gsd")).sorted().forEach(files::add);
        }
        files.add(awkwardNames());
        for (Path file : files) {
            for (Map<String, Object> env : List.of(Map.<String, Object>of(), Map.<String, Object>of("hoomd", "true"))) {
                check(file, env);
            }
        }
    }

    private static void check(Path file, Map<String, Object> env) throws IOException {
        try (FileSystem fs = open(file, env)) {
            // listing: the frame shapes
            Map<Integer, Map<String, Object>> listed = new TreeMap<>();
            Set<String> union = new TreeSet<>();
            int frames = (Integer) Files.getAttribute(fs.getPath("/"), "gsd:frames");
            for (int f = 0; f < frames; f++) {
                Map<String, Object> entries = new HashMap<>();
                Path frameDir = fs.getPath("/" + f);
                try (Stream<Path> walk = Files.walk(frameDir)) {
                    for (Path p : walk.skip(1).toList()) {
                        String rel = frameDir.relativize(p).toString();
                        entries.put(rel, Files.isDirectory(p) ? "dir" : Files.getAttribute(p, "gsd:location"));
                        union.add(rel);
                    }
                }
                listed.put(f, entries);
            }
            // lookups: the direct path
            for (int f = 0; f < frames; f++) {
                Map<String, Object> entries = listed.get(f);
                for (String rel : union) {
                    Path p = fs.getPath("/" + f + "/" + rel);
                    String what = file.getFileName() + " " + env + " /" + f + "/" + rel;
                    assertThat(Files.exists(p)).as(what).isEqualTo(entries.containsKey(rel));
                    if (entries.containsKey(rel)) {
                        Object expected = entries.get(rel);
                        assertThat(Files.isDirectory(p) ? "dir" : Files.getAttribute(p, "gsd:location")).as(what).isEqualTo(expected);
                    }
                }
                for (String absent : List.of("nope", "particles%2Fnope", "%2F", "%", "%41", "log/nope", "x%2F")) {
                    if (!entries.containsKey(absent)) {
                        assertThat(Files.exists(fs.getPath("/" + f + "/" + absent))).as(file + " /" + f + "/" + absent).isFalse();
                    }
                }
            }
        }
    }

    @Test
    void concurrentLookupsAndReadsSeeTheSameBytes() throws Exception {
        Path file = corpus("hoomd_trajectory.gsd");
        Map<String, byte[]> expected = new TreeMap<>();
        try (FileSystem fs = open(file, Map.of())) {
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                for (Path p : walk.filter(Files::isRegularFile).toList()) {
                    expected.put(p.toString(), Files.readAllBytes(p));
                }
            }
        }
        List<String> paths = List.copyOf(expected.keySet());
        try (FileSystem fs = open(file, Map.of("hoomd", "true"))) {
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
            try {
                List<java.util.concurrent.Future<Integer>> results = new java.util.ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int seed = t;
                    results.add(pool.submit(() -> {
                        java.util.Random r = new java.util.Random(seed);
                        int checked = 0;
                        for (int i = 0; i < 2000; i++) {
                            String p = paths.get(r.nextInt(paths.size()));
                            assertThat(Files.readAllBytes(fs.getPath(p))).as(p).isEqualTo(expected.get(p));
                            checked++;
                        }
                        return checked;
                    }));
                }
                for (java.util.concurrent.Future<Integer> f : results) {
                    assertThat(f.get()).isEqualTo(2000);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * A listing reuses the shape of the frame listed just before when the two hold the same name ids in the
     * same order. Frames of equal chunk counts but other names, or the same names in another order, listed
     * in turn must each show what the frame shows when it is the first thing a fresh file system lists;
     * in hoomd mode frame 0 (which inherits nothing) must not lend its shape to later frames.
     */
    @Test
    void framesListedInTurnShowWhatEachShowsListedAlone() throws IOException {
        Path file = tmp.resolve("turns.gsd");
        List<List<String>> frames = List.of(
                List.of("a", "b"), List.of("a", "c"), List.of("a", "c"), List.of("c", "a"), List.of("a", "b"),
                List.of("a%2Fx", "b"), List.of("a%2Fy", "b"), List.of("a", "b"));
        try (FileSystem fs = create(file, Map.of())) {
            for (int f = 0; f < frames.size(); f++) {
                Files.createDirectory(fs.getPath("/" + f));
                for (String name : frames.get(f)) {
                    writeChunk(fs.getPath("/" + f + "/" + name), "uint8", 1, new byte[] {(byte) f});
                }
            }
        }
        for (Map<String, Object> env : List.of(Map.<String, Object>of(), Map.<String, Object>of("hoomd", "true"))) {
            Map<Integer, List<String>> alone = new TreeMap<>();
            for (int f = 0; f < frames.size(); f++) {
                try (FileSystem fs = open(file, env)) {
                    alone.put(f, tree(fs.getPath("/" + f)));
                }
            }
            assertThat(alone.get(1)).as("the names differ, so must the listings").isNotEqualTo(alone.get(0));
            assertThat(alone.get(3)).as("the order differs, so must the listings").isNotEqualTo(alone.get(2));
            try (FileSystem fs = open(file, env)) {
                for (int round = 0; round < 2; round++) {
                    for (int f = 0; f < frames.size(); f++) {
                        assertThat(tree(fs.getPath("/" + f))).as("frame " + f + " " + env).isEqualTo(alone.get(f));
                    }
                }
            }
        }
    }

    /** Every path below {@code dir}, relative to it, in listing order, with each chunk's location. */
    private static List<String> tree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.skip(1).map(p -> {
                try {
                    return dir.relativize(p) + (Files.isDirectory(p) ? "/" : "@" + Files.getAttribute(p, "gsd:location"));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }
}
