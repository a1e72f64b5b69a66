package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A remote input whose exact identity has an index cache entry is opened from it without a single read: the entry
 * names the format, the head is not fetched for detection. A compressed one is still detected through the
 * decompression layer (its format's entry describes the inflated bytes), and one whose identity changed is read and
 * scanned again.
 */
class RemoteOpenFromEntryTest {
    @TempDir
    Path dir;

    private Map<String, Object> env() {
        return Map.of("indexCache", dir.resolve("cache").toString(), "indexCacheMinSize", 0);
    }

    private Path container(String name, byte[] bytes) throws IOException {
        Path file = Files.write(dir.resolve(name), bytes);
        // settled: a modification time of the last two seconds gets no entry
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        return file;
    }

    private static byte[] lime() throws IOException {
        return Files.readAllBytes(Path.of(System.getProperty("containerfs.corpus", "src/test/resources/corpus"),
                "lime", "s08_ildg_scidac_gauge.lime"));
    }

    private static List<String> listing(FileSystem fs) throws IOException {
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            return walk.map(p -> p + (Files.isRegularFile(p) ? " " + sizeOf(p) : "")).toList();
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aRemoteInputWithAnEntryForItsIdentityOpensWithoutARead() throws IOException {
        Path file = container("conf.lime", lime());
        List<String> cold;
        CountingInput first = CountingInput.of(file);
        try (FileSystem fs = ContainerFileSystems.open(first, env())) {
            cold = listing(fs);
            assertThat(fs.provider().getScheme()).isEqualTo("lime");
        }
        assertThat(first.counters().reads.get()).isPositive();
        CountingInput again = CountingInput.of(file);
        try (FileSystem fs = ContainerFileSystems.open(again, env())) {
            assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.CACHED);
            assertThat(fs.provider().getScheme()).isEqualTo("lime");
            assertThat(listing(fs)).isEqualTo(cold);
            assertThat(again.counters().reads.get()).as("requests: %s", again.counters().log).isZero();
        }
        // format=lime asked for: only that format's entry is looked for, and it serves as well
        CountingInput forced = CountingInput.of(file);
        try (FileSystem fs = ContainerFileSystems.open(forced, Map.of("indexCache", dir.resolve("cache").toString(),
                "indexCacheMinSize", 0, "format", "lime"))) {
            assertThat(listing(fs)).isEqualTo(cold);
            assertThat(forced.counters().reads.get()).isZero();
        }
        // changed (another modification time, so another identity): read, detected and scanned again
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 30_000));
        CountingInput changed = CountingInput.of(file);
        try (FileSystem fs = ContainerFileSystems.open(changed, env())) {
            assertThat(listing(fs)).isEqualTo(cold);
        }
        assertThat(changed.counters().reads.get()).isPositive();
    }

    @Test
    void aCompressedRemoteInputIsStillDetectedThroughTheDecompressionLayer() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(lime());
        }
        Path file = container("conf.lime.gz", out.toByteArray());
        List<String> cold;
        try (FileSystem fs = ContainerFileSystems.open(CountingInput.of(file), env())) {
            cold = listing(fs);
        }
        CountingInput again = CountingInput.of(file);
        try (FileSystem fs = ContainerFileSystems.open(again, env())) {
            assertThat(fs.provider().getScheme()).isEqualTo("lime");
            assertThat(listing(fs)).isEqualTo(cold).hasSizeGreaterThan(3);
        }
        assertThat(again.counters().reads.get()).as("its head, for detection").isPositive();
    }
}
