package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.containerfs.spi.ContainerFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A truncated tail is a writer's uncommitted append only if it can be one torn frame: a length field damaged in a
 * committed frame must not pass for a torn append (which verify calls sound and the next append cuts off).
 */
class G3TornTailTest {
    @TempDir
    Path tmp;

    private Map<String, Object> root(Path file) throws Exception {
        try (FileSystem fs = G3TestSupport.open(file)) {
            return Files.readAttributes(fs.getPath("/"), "g3:damage,uncommittedTail,frames,tailOffset");
        }
    }

    private Path flipped(String corpus, int at, int xor) throws Exception {
        byte[] b = G3TestSupport.corpusBytes(corpus);
        b[at] ^= (byte) xor;
        return Files.write(tmp.resolve(corpus + "-" + at), b);
    }

    /** Files whose first frame's count, key length or blob length was made huge, and that hold a later frame. */
    @Test
    void aDamagedLengthBeforeCommittedFramesIsDamageNotATornAppend() throws Exception {
        // file, byte, xor, where the committed frame found starts (0: not checked); byte 8 is the top byte of
        // the entry count there (xor 0xFF makes it 2^31 or more, which the scan already calls unreadable)
        for (Object[] c : new Object[][] {{"all-frame-types.g3", 15, 0xFF, 87L}, {"big-blob-800k.g3", 8, 0x7F, 222L},
                {"big-blob-800k.g3", 15, 0xFF, 222L}, {"concatenated.g3", 15, 0xFF, 0L}, {"simple-types.g3", 36, 0xFF, 0L},
                {"simple-types.g3", 7, 0xFF, 0L}}) {
            Path p = flipped((String) c[0], (int) c[1], (int) c[2]);
            Map<String, Object> root = root(p);
            assertThat((String) root.get("uncommittedTail")).as("%s byte %s", c[0], c[1]).isEmpty();
            assertThat((String) root.get("damage")).as("%s byte %s", c[0], c[1]).startsWith("unreadable tail")
                    .contains("from byte 0").contains("with a matching CRC-32C starts at byte")
                    .contains("committed frames were lost");
            if ((long) c[3] > 0) {
                assertThat((String) root.get("damage")).contains("starts at byte " + c[3] + ":");
            }
            // an append would have cut the committed frames off as a torn tail; now it is refused
            long size = Files.size(p);
            try (FileSystem fs = G3TestSupport.open(p, Map.of("accessMode", "readWrite"))) {
                assertThatThrownBy(() -> {
                    Files.createDirectory(fs.getPath("/000000.Scan"));
                    fs.close();
                }).isInstanceOf(ContainerFormatException.class).hasMessageContaining("refusing to append after damage");
            }
            assertThat(Files.size(p)).isEqualTo(size);
        }
    }

    /** Through the index cache: the second open, served from the cache, reports the same damage. */
    @Test
    void theIndexCacheKeepsTheVerdict() throws Exception {
        Path p = flipped("all-frame-types.g3", 15, 0xFF);
        Files.setLastModifiedTime(p, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 120_000));
        Map<String, Object> env = Map.of("indexCache", tmp.resolve("cache").toString(), "indexCacheMinSize", 0);
        for (int open = 0; open < 2; open++) {
            try (FileSystem fs = G3TestSupport.open(p, env)) {
                Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "g3:damage,uncommittedTail");
                assertThat((String) root.get("damage")).as("open %d", open).contains("starts at byte 87");
                assertThat(root.get("uncommittedTail")).as("open %d", open).isEqualTo("");
            }
        }
        try (Stream<Path> cached = Files.walk(tmp.resolve("cache"))) {
            assertThat(cached.filter(Files::isRegularFile).count()).isPositive();
        }
    }

    /** A writer killed during its append: a prefix of one frame after whole frames, cut anywhere. */
    @Test
    void aPrefixOfOneFrameIsStillAnUncommittedAppend() throws Exception {
        byte[] base = G3TestSupport.corpusBytes("all-frame-types.g3");
        byte[] frame = G3TestSupport.corpusBytes("big-blob-800k.g3"); // frame 1 (800 KB) starts at byte 222
        frame = Arrays.copyOfRange(frame, 222, frame.length);
        for (int cut : new int[] {1, 5, 13, 21, 40, 4000, 500_000, frame.length - 4, frame.length - 1}) {
            Path p = tmp.resolve("torn" + cut + ".g3");
            Files.write(p, base);
            Files.write(p, Arrays.copyOf(frame, cut), StandardOpenOption.APPEND);
            Map<String, Object> root = root(p);
            assertThat((String) root.get("uncommittedTail")).as("cut %d", cut).startsWith("truncated tail")
                    .contains("from byte " + base.length);
            assertThat(root.get("damage")).as("cut %d", cut).isEqualTo("");
            assertThat(root.get("frames")).isEqualTo(17);
        }
        // also a torn frame of the small test files, whose blobs hold many 0x00/0x01 bytes
        byte[] le = G3TestSupport.corpusBytes("test-le.g3");
        for (int cut = 1; cut < le.length; cut += 7) {
            Path p = tmp.resolve("le" + cut + ".g3");
            Files.write(p, base);
            Files.write(p, Arrays.copyOf(le, cut), StandardOpenOption.APPEND);
            Map<String, Object> root = root(p);
            assertThat(root.get("damage")).as("cut %d", cut).isEqualTo("");
            assertThat((String) root.get("uncommittedTail")).as("cut %d", cut).startsWith("truncated tail");
        }
    }

    /** 64 MiB after a header that declares more: the search reads a bounded part of it and finishes. */
    @Test
    void aHugeTailAfterACutHeaderOpensWithABoundedSearch() throws Exception {
        byte[] header = Arrays.copyOf(G3TestSupport.corpusBytes("test-le.g3"), 21); // 13-byte header + a key length
        header[16] = 0x7F; // a key far longer than the file
        byte[] base = G3TestSupport.corpusBytes("simple-types.g3");
        for (String fill : new String[] {"zeros", "random"}) {
            Path p = tmp.resolve(fill + ".g3");
            try (OutputStream out = Files.newOutputStream(p)) {
                out.write(base);
                out.write(header);
                Random random = new Random(42);
                byte[] block = new byte[1 << 20];
                for (int i = 0; i < 64; i++) {
                    if (fill.equals("random")) {
                        random.nextBytes(block);
                    }
                    out.write(block);
                }
            }
            Map<String, Object> root = root(p);
            assertThat(root.get("frames")).isEqualTo(4);
            assertThat(root.get("tailOffset")).isEqualTo((long) base.length);
            assertThat((String) root.get("uncommittedTail")).as(fill).startsWith("truncated tail");
            assertThat(root.get("damage")).as(fill).isEqualTo("");
            Files.delete(p);
        }
    }

    /**
     * Many candidate headers, each of a frame whose entries (empty keys, the next header as a 13-byte blob, then
     * 16 zero bytes each) run to the end of the file: the read budget ends the search, and the tail counts as damage.
     */
    @Test
    void aTailFullOfFrameHeadersExhaustsTheBudgetAndCountsAsDamage() throws Exception {
        int units = 100_000;
        int zeros = 8 << 20;
        ByteBuffer header = ByteBuffer.allocate(13).order(ByteOrder.LITTLE_ENDIAN).put((byte) 1).putInt(1)
                .putInt(650_000).putInt('N');
        ByteBuffer unit = ByteBuffer.allocate(29).order(ByteOrder.LITTLE_ENDIAN).putLong(0).putLong(13)
                .put(header.array());
        Path p = tmp.resolve("headers.g3");
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(p))) {
            out.write(G3TestSupport.corpusBytes("test-le.g3"));
            out.write(header.array());
            for (int i = 0; i < units; i++) {
                out.write(unit.array());
            }
            out.write(new byte[zeros]);
        }
        Map<String, Object> root = root(p);
        assertThat(root.get("frames")).isEqualTo(1);
        assertThat((String) root.get("uncommittedTail")).isEmpty();
        assertThat((String) root.get("damage")).startsWith("unreadable tail").contains("from byte 347")
                .contains("read its limit of " + TornTail.READ_BUDGET + " bytes");
        Files.delete(p);
    }

    @Test
    void corpusFilesStayClean() throws Exception {
        try (Stream<String> names = Stream.of("all-frame-types.g3", "big-blob-800k.g3", "concatenated.g3",
                "simple-types.g3", "test-le.g3", "test-le-v2.g3", "empty.g3")) {
            for (String name : names.toList()) {
                Map<String, Object> root = root(G3TestSupport.corpus(name));
                assertThat(root.get("damage")).as(name).isEqualTo("");
                assertThat(root.get("uncommittedTail")).as(name).isEqualTo("");
            }
        }
    }
}
