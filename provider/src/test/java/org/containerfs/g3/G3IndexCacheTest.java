package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G3 through the persisted index cache: frame headers damaged behind the cache's back (same size and
 * modification time) prove that a reopen does not scan; frames appended later are found by a scan of
 * the tail only; a .g3.gz is reused while unchanged and scanned again once it changed.
 */
class G3IndexCacheTest {
    private static final int FRAMES = 120; // 152 bytes each: the damage at the middle lies outside the sampled 4 KiB at both ends
    @TempDir
    Path dir;

    private Map<String, Object> env() {
        return Map.of("indexCache", dir.resolve("cache").toString(), "indexCacheMinSize", 0);
    }

    private static byte[] frames(int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int f = from; f < to; f++) {
            byte[] blob = new byte[100];
            blob[0] = (byte) f;
            out.writeBytes(G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 0x53 /* Scan */,
                    List.of("a".getBytes(), "b".getBytes()), List.of(blob, new byte[] {(byte) f})));
        }
        return out.toByteArray();
    }

    private static void settle(Path p) throws IOException {
        Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - 60_000 - Files.size(p)));
    }

    /** A .g3.gz of FRAMES frames, old enough for the cache to take an entry. */
    private Path settledGzip(String name) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(frames(0, FRAMES));
        }
        Path gz = Files.write(dir.resolve(name), bytes.toByteArray());
        settle(gz);
        return gz;
    }

    private List<String> tree(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        try (FileSystem fs = G3TestSupport.open(file, env()); Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                out.add(p + (Files.isRegularFile(p) ? " " + Files.size(p) : ""));
            }
        }
        return out;
    }

    @Test
    void reopenWithoutAScanThenOnlyTheAppendedFramesAreScanned() throws IOException {
        Path file = dir.resolve("run.g3");
        Files.write(file, frames(0, FRAMES));
        settle(file);
        List<String> first = tree(file);
        assertThat(first).hasSize(1 + FRAMES * 3);

        int frameBytes = frames(0, 1).length;
        FileTime mtime = Files.getLastModifiedTime(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {7}), (long) frameBytes * (FRAMES / 2)); // endian flag 7: not a frame
        }
        Files.setLastModifiedTime(file, mtime);
        assertThat(tree(file)).isEqualTo(first);

        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(frames(FRAMES, FRAMES + 3)));
        }
        settle(file);
        List<String> grown = tree(file);
        assertThat(grown).containsAll(first).hasSize(1 + (FRAMES + 3) * 3).contains("/000122.Scan/b 1");
        // a scan from the start stops at the damaged frame: the cache did not scan
        try (FileSystem fs = G3TestSupport.open(file, Map.of("indexCache", "off"))) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:damage")).contains("endian flag");
        }
    }

    @Test
    void aGzipFileIsReusedWhileUnchangedAndScannedOnceChanged() throws IOException {
        Path gz = settledGzip("run.g3.gz");
        List<String> first = tree(gz);
        try (FileSystem fs = G3TestSupport.open(gz, env())) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:restartIndex")).isEqualTo("loaded from the index cache");
            assertThat(Files.readAllBytes(fs.getPath("/000119.Scan/b"))).containsExactly(119);
        }
        assertThat(tree(gz)).isEqualTo(first);
        // a second member appended: a gzip stream is not grown in place, the scan starts over
        try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(gz, StandardOpenOption.APPEND))) {
            out.write(frames(FRAMES, FRAMES + 1));
        }
        settle(gz);
        try (FileSystem fs = G3TestSupport.open(gz, env())) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:restartIndex")).isEmpty();
            assertThat(Files.readAllBytes(fs.getPath("/000120.Scan/b"))).containsExactly(120);
        }
        // another restart span than the entry's: scanned with the span asked for
        try (FileSystem fs = G3TestSupport.open(gz, Map.of("indexCache", dir.resolve("cache").toString(),
                "indexCacheMinSize", 0, "gzipSpan", 65536))) {
            assertThat((long) Files.getAttribute(fs.getPath("/"), "g3:restartSpan")).isEqualTo(65536L);
        }
    }
    /** gzipIndex=true writes the .zidx even when the index cache served the open (docs/formats/g3.md, section 5). */
    @Test
    void gzipIndexWritesTheZidxAlsoWhenTheCacheServedTheOpen() throws IOException {
        Path gz = settledGzip("cached.g3.gz");
        List<String> first = tree(gz); // scanned, and the cache's entry saved
        Path zidx = dir.resolve("cached.g3.gz.zidx");
        Map<String, Object> withZidx = new java.util.HashMap<>(env());
        withZidx.put("gzipIndex", true);
        try (FileSystem fs = G3TestSupport.open(gz, withZidx)) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:restartIndex"))
                    .isEqualTo("loaded from the index cache; saved " + zidx);
        }
        assertThat(zidx).exists();
        // the file written is a whole index: an open without the cache reads it instead of the stream
        try (FileSystem fs = G3TestSupport.open(gz, Map.of("indexCache", "off", "gzipIndex", true))) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:restartIndex")).isEqualTo("loaded " + zidx);
            assertThat(Files.readAllBytes(fs.getPath("/000119.Scan/b"))).containsExactly(119);
        }
        assertThat(tree(gz)).isEqualTo(first);
        // once there, a cache-served open leaves it alone
        try (FileSystem fs = G3TestSupport.open(gz, withZidx)) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:restartIndex")).isEqualTo("loaded from the index cache");
        }
    }
}
