package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every LIME and G3 corpus file (damaged ones and the .g3.gz included) opened twice through the index
 * cache: the second open comes from the cache and shows the same tree, the same attributes and the
 * same bytes as the scan.
 */
class IndexCacheCorpusTest {
    @TempDir
    Path dir;

    static Stream<Path> corpusFiles() throws IOException {
        Path corpus = TestContainers.corpus("s01_single_record.lime").getParent().getParent();
        List<Path> out = new ArrayList<>();
        for (String format : List.of("lime", "g3")) {
            try (Stream<Path> s = Files.list(corpus.resolve(format))) {
                s.filter(p -> !p.getFileName().toString().matches("MANIFEST.tsv|README.md")).sorted().forEach(out::add);
            }
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("corpusFiles")
    void theCachedOpenShowsWhatTheScanShowed(Path original) throws IOException {
        Path file = dir.resolve(original.getFileName());
        Files.copy(original, file);
        IndexCacheTest.settle(file);
        Map<String, Object> env = Map.of("indexCache", dir.resolve("cache").toString(), "indexCacheMinSize", 0);
        String format = original.getParent().getFileName().toString();
        List<String> scanned;
        try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(file, env)) {
            scanned = describe(fs, format);
        }
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.SCANNED);
        List<String> cached;
        try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(file, env)) {
            cached = describe(fs, format);
        }
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.CACHED);
        assertThat(cached).isEqualTo(scanned);
    }

    /** Every path with its format attributes (before any read), then every file's bytes (or the read's failure). */
    private static List<String> describe(FileSystem fs, String format) throws IOException {
        List<String> out = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Map<String, String> attributes = new TreeMap<>();
                Files.readAttributes(p, format + ":*").forEach((k, v) -> {
                    // restartIndex and gzipScan say where the gzip index came from (scanned, natively or not, or loaded)
                    if (!k.equals("restartIndex") && !k.equals("gzipScan")) {
                        attributes.put(k, v instanceof byte[] b ? HexFormat.of().formatHex(b) : String.valueOf(v));
                    }
                });
                out.add(p + " " + attributes);
                if (Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        }
        for (Path p : files) {
            try {
                out.add(p + " " + TestContainers.sha256(Files.readAllBytes(p)));
            } catch (IOException e) {
                out.add(p + " " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        return out;
    }
}
