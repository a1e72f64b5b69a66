package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.containerfs.spi.ContainerFormatException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** .g3.gz: same tree as the decompressed stream, random access from restart points, damage, persisted index. */
class G3GzipTest {
    private static final long SPAN = 64 * 1024;
    private static final int FRAMES = 100;
    private static byte[] stream;

    @TempDir
    Path tmp;

    /**
     * About 1.4 MB of frames: random doubles in [0,1) and small ints and text (compressible: Huffman
     * blocks that end anywhere in a byte), and random bit patterns (incompressible: zlib writes stored
     * blocks, whose lengths are byte-aligned, after restart points that are not).
     */
    @BeforeAll
    static void generate() {
        Random random = new Random(3);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int f = 0; f < FRAMES; f++) {
            double[] az = new double[random.nextInt(2000)];
            for (int i = 0; i < az.length; i++) {
                az[i] = random.nextDouble();
            }
            long[] flags = new long[random.nextInt(4000)];
            for (int i = 0; i < flags.length; i++) {
                flags[i] = i % 7;
            }
            double[] noise = new double[f % 5 == 0 ? 6000 + random.nextInt(4000) : random.nextInt(1000)];
            for (int i = 0; i < noise.length; i++) {
                noise[i] = Double.longBitsToDouble(random.nextLong());
            }
            List<byte[]> keys = List.of("Az".getBytes(), "Flags".getBytes(), "Noise".getBytes(), "Comment".getBytes());
            List<byte[]> blobs = List.of(G3Blobs.encode(new G3Value.VectorDouble(az)),
                    G3Blobs.encode(new G3Value.VectorInt(flags)), G3Blobs.encode(new G3Value.VectorDouble(noise)),
                    G3Blobs.encode(new G3Value.StringValue("frame " + f + " ".repeat(random.nextInt(3000)))));
            out.writeBytes(G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, f % 2 == 0 ? 'S' : 'C', keys, blobs));
        }
        stream = out.toByteArray();
    }

    private static byte[] gzip(byte[] data, int level, int strategy) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16) {
            {
                def.setLevel(level);
                def.setStrategy(strategy);
            }
        }) {
            gz.write(data);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    /** A member with every optional header field (FEXTRA, FNAME, FCOMMENT, FHCRC), written by hand. */
    private static byte[] gzipWithHeaderFields(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] header = {0x1F, (byte) 0x8B, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3, 3, 0, 'x', 'y', 'z', 'n', 'a', 'm', 'e', 0,
            'c', 0};
        out.writeBytes(header);
        CRC32 hcrc = new CRC32();
        hcrc.update(header);
        out.write((int) hcrc.getValue() & 0xFF);
        out.write((int) (hcrc.getValue() >> 8) & 0xFF);
        Deflater d = new Deflater(9, true);
        d.setInput(data);
        d.finish();
        byte[] buf = new byte[65536];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        CRC32 crc = new CRC32();
        crc.update(data);
        out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue())
                .putInt(data.length).array());
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static List<Path> keyFiles(FileSystem fs) throws Exception {
        List<Path> keys = new ArrayList<>();
        try (Stream<Path> frames = Files.list(fs.getPath("/"))) {
            for (Path f : frames.collect(Collectors.toList())) {
                try (Stream<Path> ks = Files.list(f)) {
                    keys.addAll(ks.collect(Collectors.toList()));
                }
            }
        }
        return keys;
    }

    /** Every key of the .gz, read in shuffled order, equals the same key of the plain file. */
    private void assertSameTree(Path gz, Map<String, ?> env) throws Exception {
        Path plain = tmp.resolve("plain.g3");
        Files.write(plain, stream);
        try (FileSystem p = G3TestSupport.open(plain); FileSystem z = G3TestSupport.open(gz, env)) {
            List<Path> plainKeys = keyFiles(p);
            List<Path> gzKeys = keyFiles(z);
            assertThat(gzKeys.stream().map(Path::toString)).containsExactlyElementsOf(
                    plainKeys.stream().map(Path::toString).collect(Collectors.toList()));
            for (int i = 0; i < gzKeys.size(); i++) {
                assertThat(Files.readAllBytes(gzKeys.get(i))).as(gzKeys.get(i).toString())
                        .isEqualTo(Files.readAllBytes(plainKeys.get(i)));
            }
            // then random access in shuffled order (each read starts from a restart point or a kept cursor)
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < gzKeys.size(); i++) {
                order.add(i);
            }
            Collections.shuffle(order, new Random(11));
            for (int i : order.subList(0, 60)) {
                assertThat(Files.readAllBytes(gzKeys.get(i))).as(gzKeys.get(i).toString())
                        .isEqualTo(Files.readAllBytes(plainKeys.get(i)));
                assertThat(Files.readAttributes(gzKeys.get(i), "g3:offset,length"))
                        .isEqualTo(Files.readAttributes(plainKeys.get(i), "g3:offset,length"));
            }
            assertThat(Files.getAttribute(z.getPath("/"), "g3:damage")).isEqualTo("");
            assertThat(Files.getAttribute(z.getPath("/"), "g3:gzipDamage")).isEqualTo("");
            assertThat(Files.getAttribute(z.getPath("/"), "g3:streamSize")).isEqualTo((long) stream.length);
        }
    }

    @Test
    void everyDeflateLevelAndStrategyGivesTheSameTreeAsThePlainFile() throws Exception {
        int[][] settings = {{0, Deflater.DEFAULT_STRATEGY}, {1, Deflater.DEFAULT_STRATEGY}, {6, Deflater.FILTERED},
            {9, Deflater.HUFFMAN_ONLY}};
        for (int[] s : settings) {
            Path gz = tmp.resolve("level" + s[0] + ".g3.gz");
            Files.write(gz, gzip(stream, s[0], s[1]));
            assertSameTree(gz, Map.of("gzipSpan", SPAN));
            try (FileSystem z = G3TestSupport.open(gz, Map.of("gzipSpan", SPAN))) {
                assertThat((Integer) Files.getAttribute(z.getPath("/"), "g3:restartPoints")).isGreaterThan(4);
            }
        }
    }

    /**
     * Issue 16.5: a sound stream is scanned with native zlib, and the restart points it finds (block
     * ends found ahead of zlib, each checked against the real output) are about as dense as the Java
     * inflater's; the reads through them are checked by the other tests of this class.
     */
    @Test
    void aSoundStreamIsScannedNativelyWithRestartPointsAsDenseAsTheJavaInflaters() throws Exception {
        int[][] settings = {{0, Deflater.DEFAULT_STRATEGY}, {1, Deflater.DEFAULT_STRATEGY}, {6, Deflater.FILTERED},
            {9, Deflater.HUFFMAN_ONLY}};
        for (int[] s : settings) {
            Path gz = tmp.resolve("scan" + s[0] + ".g3.gz");
            Files.write(gz, gzip(stream, s[0], s[1]));
            Map<String, Object> fast;
            Map<String, Object> java;
            try (FileSystem z = G3TestSupport.open(gz, Map.of("gzipSpan", SPAN))) {
                fast = Files.readAttributes(z.getPath("/"), "g3:*");
            }
            try (FileSystem z = G3TestSupport.open(gz, Map.of("gzipSpan", SPAN, "gzipNative", false))) {
                java = Files.readAttributes(z.getPath("/"), "g3:*");
            }
            System.out.printf("level %d: native %s points, java %s points%n", s[0], fast.get("restartPoints"), java.get("restartPoints"));
            assertThat(fast.get("gzipScan")).as("level %d", s[0]).isEqualTo("native");
            assertThat(java.get("gzipScan")).isEqualTo("java");
            // a point is the end of the first whole block found after it is due: later by up to a block
            // than the Java inflater's, which is much at this tiny span (blocks of 20-100 KiB output here)
            assertThat((Integer) fast.get("restartPoints")).as("level %d", s[0])
                    .isGreaterThanOrEqualTo((Integer) java.get("restartPoints") / 2);
            for (String same : List.of("frames", "entries", "streamSize", "damage", "gzipMembers")) {
                assertThat(fast.get(same)).as(same).isEqualTo(java.get(same));
            }
        }
    }

    /**
     * Backwards, every read starts afresh from the restart point before its key, so every point's
     * bit shift meets whatever blocks follow it, stored ones included.
     */
    @Test
    void everyKeyReadBackwardsFromItsRestartPointMatchesThePlainFile() throws Exception {
        Path plain = tmp.resolve("plain.g3");
        Files.write(plain, stream);
        for (int level : new int[] {1, 6, 9}) {
            Path gz = tmp.resolve("backwards" + level + ".g3.gz");
            Files.write(gz, gzip(stream, level, Deflater.DEFAULT_STRATEGY));
            try (FileSystem p = G3TestSupport.open(plain); FileSystem z = G3TestSupport.open(gz, Map.of("gzipSpan", 32 * 1024))) {
                List<Path> plainKeys = keyFiles(p);
                List<Path> gzKeys = keyFiles(z);
                for (int i = gzKeys.size() - 1; i >= 0; i--) {
                    assertThat(Files.readAllBytes(gzKeys.get(i))).as("level %d, %s", level, gzKeys.get(i))
                            .isEqualTo(Files.readAllBytes(plainKeys.get(i)));
                }
            }
        }
    }

    @Test
    void multiMemberFilesAreReadWhole() throws Exception {
        int a = stream.length / 3;
        int b = 2 * stream.length / 3;
        byte[] members = concat(gzip(Arrays.copyOfRange(stream, 0, a), 6, Deflater.DEFAULT_STRATEGY),
                gzip(new byte[0], 6, Deflater.DEFAULT_STRATEGY),
                gzipWithHeaderFields(Arrays.copyOfRange(stream, a, b)),
                gzip(Arrays.copyOfRange(stream, b, stream.length), 1, Deflater.DEFAULT_STRATEGY));
        Path gz = tmp.resolve("members.g3.gz");
        Files.write(gz, members);
        assertSameTree(gz, Map.of("gzipSpan", SPAN));
        try (FileSystem z = G3TestSupport.open(gz)) {
            assertThat(Files.getAttribute(z.getPath("/"), "g3:gzipMembers")).isEqualTo(4);
        }
    }

    @Test
    void aRandomReadInflatesFromTheNearestRestartPointNotFromTheStart() throws Exception {
        Path gz = tmp.resolve("random.g3.gz");
        Files.write(gz, gzip(stream, 6, Deflater.DEFAULT_STRATEGY));
        try (FileSystem z = G3TestSupport.open(gz, Map.of("gzipSpan", SPAN))) {
            List<Path> keys = keyFiles(z);
            Path last = keys.get(keys.size() - 2);
            long length = Files.size(last);
            long offset = (Long) Files.getAttribute(last, "g3:offset");
            assertThat(offset).isGreaterThan(stream.length - 100_000L);
            // reading a key first checks its frame's CRC (the frame's bytes), then serves the key
            byte[] got = Files.readAllBytes(last);
            long frameLength = (Long) Files.getAttribute(last.getParent(), "g3:length");
            long inflated = (Long) Files.getAttribute(z.getPath("/"), "g3:inflatedBytes");
            assertThat(got).hasSize((int) length);
            // two starts from restart points (the CRC pass over the frame, then the key), each at most a span
            // plus one deflate block before the offset: far less than inflating everything before the key
            assertThat(inflated).isLessThan(2 * (2 * SPAN) + frameLength + length).isLessThan(offset / 2);
        }
    }

    @Test
    void aTruncatedGzipListsTheCompleteFramesAndStrictFails() throws Exception {
        byte[] full = gzip(stream, 6, Deflater.DEFAULT_STRATEGY);
        Path gz = tmp.resolve("cut.g3.gz");
        Files.write(gz, Arrays.copyOf(full, full.length / 2));
        try (FileSystem z = G3TestSupport.open(gz)) {
            Map<String, Object> root = Files.readAttributes(z.getPath("/"), "g3:*");
            assertThat((String) root.get("gzipDamage")).contains("truncated");
            assertThat((String) root.get("damage")).startsWith("gzip stream: ").contains("truncated tail");
            int frames = (Integer) root.get("frames");
            assertThat(frames).isGreaterThan(10).isLessThan(FRAMES);
            List<Path> keys = keyFiles(z);
            assertThat(Files.readAllBytes(keys.get(keys.size() - 1))).isNotEmpty();
        }
        assertThatThrownBy(() -> G3TestSupport.open(gz, Map.of("strict", true))).isInstanceOf(ContainerFormatException.class);
    }

    /**
     * Issue 18.2: damaged copies of a corpus .g3.gz, as checked against spt3g. Each problem reaches the
     * root's damage (committed data, so verify fails), with the byte offset and what was expected; the
     * tree shows what could be decoded; uncommittedTail stays empty (nobody appends to a .g3.gz).
     */
    @Test
    void damageInTheGzipStreamIsDamageAtTheRootWithItsOffset() throws Exception {
        byte[] sound = G3TestSupport.corpusBytes("simple-types.g3.gz");
        byte[] flipped = sound.clone();
        flipped[sound.length / 2] ^= 0x10; // a bit in the middle of the deflate data
        byte[] badTrailer = sound.clone();
        badTrailer[sound.length - 8] ^= 0x01; // the trailer's CRC-32
        byte[] badFirstBlock = sound.clone();
        badFirstBlock[10] |= 0x06; // the first block's type bits become 11 (reserved)
        Map<String, byte[]> cases = Map.of("flipped", flipped, "trailer", badTrailer, "firstBlock", badFirstBlock);
        for (Map.Entry<String, byte[]> c : cases.entrySet()) {
            Path gz = tmp.resolve(c.getKey() + ".g3.gz");
            Files.write(gz, c.getValue());
            try (FileSystem z = G3TestSupport.open(gz)) {
                Map<String, Object> root = Files.readAttributes(z.getPath("/"), "g3:*");
                assertThat((String) root.get("damage")).as(c.getKey()).startsWith("gzip stream: ")
                        .containsPattern("byte [0-9]+").contains("expected");
                assertThat(root.get("uncommittedTail")).as(c.getKey()).isEqualTo("");
            }
        }
        try (FileSystem z = G3TestSupport.open(tmp.resolve("trailer.g3.gz"))) {
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:damage"))
                    .contains("trailer at byte " + (sound.length - 8)).contains("CRC-32");
        }
        try (FileSystem z = G3TestSupport.open(tmp.resolve("firstBlock.g3.gz"))) {
            assertThat(Files.getAttribute(z.getPath("/"), "g3:frames")).isEqualTo(0);
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:damage")).contains("corrupt deflate data");
        }
        Path ok = tmp.resolve("sound.g3.gz");
        Files.write(ok, sound);
        try (FileSystem z = G3TestSupport.open(ok)) {
            assertThat(Files.readAttributes(z.getPath("/"), "g3:damage,uncommittedTail"))
                    .containsEntry("damage", "").containsEntry("uncommittedTail", "");
        }
    }

    /**
     * The native pass checks each member's CRC-32 on the reading side, on segments cut where members end: a bad CRC
     * of a member inside the file, and of an empty member (a segment with no bytes of its own), is damage too.
     */
    @Test
    void aBadCrcOfAMemberInsideTheFileOrOfAnEmptyMemberIsReported() throws Exception {
        int a = stream.length / 2;
        byte[][] parts = {gzip(Arrays.copyOfRange(stream, 0, a), 6, Deflater.DEFAULT_STRATEGY),
                gzip(new byte[0], 6, Deflater.DEFAULT_STRATEGY),
                gzip(Arrays.copyOfRange(stream, a, stream.length), 6, Deflater.DEFAULT_STRATEGY)};
        for (int damaged = 0; damaged < 2; damaged++) {
            byte[][] copy = parts.clone();
            copy[damaged] = parts[damaged].clone();
            copy[damaged][copy[damaged].length - 8] ^= 0x10; // the member trailer's CRC-32
            Path gz = tmp.resolve("member" + damaged + "crc.g3.gz");
            Files.write(gz, concat(copy[0], copy[1], copy[2]));
            try (FileSystem z = G3TestSupport.open(gz)) {
                assertThat((String) Files.getAttribute(z.getPath("/"), "g3:gzipDamage")).as("member %d", damaged)
                        .contains("CRC-32");
            }
            assertThatThrownBy(() -> G3TestSupport.open(gz, Map.of("strict", true)))
                    .isInstanceOf(ContainerFormatException.class);
        }
    }

    @Test
    void aBadMemberCrcAndTrailingGarbageAreReported() throws Exception {
        byte[] full = gzip(stream, 6, Deflater.DEFAULT_STRATEGY);
        byte[] badCrc = full.clone();
        badCrc[badCrc.length - 8] ^= 1;
        Path bad = tmp.resolve("badcrc.g3.gz");
        Files.write(bad, badCrc);
        try (FileSystem z = G3TestSupport.open(bad)) {
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:gzipDamage")).contains("CRC-32");
            assertThat(Files.getAttribute(z.getPath("/"), "g3:frames")).isEqualTo(FRAMES);
        }
        Path junk = tmp.resolve("junk.g3.gz");
        Files.write(junk, concat(full, new byte[] {0, 0, 0, 0}));
        try (FileSystem z = G3TestSupport.open(junk)) {
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:gzipDamage")).contains("trailing garbage");
            assertThat(Files.getAttribute(z.getPath("/"), "g3:frames")).isEqualTo(FRAMES);
        }
        assertThatThrownBy(() -> G3TestSupport.open(junk, Map.of("strict", true))).isInstanceOf(ContainerFormatException.class);
    }

    @Test
    void thePersistedRestartIndexIsReusedOnlyWhileSizeAndMtimeMatch() throws Exception {
        Path gz = tmp.resolve("persist.g3.gz");
        Files.write(gz, gzip(stream, 6, Deflater.DEFAULT_STRATEGY));
        Map<String, Object> env = Map.of("gzipIndex", true, "gzipSpan", SPAN);
        try (FileSystem z = G3TestSupport.open(gz, env)) {
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:restartIndex")).startsWith("saved");
        }
        assertThat(tmp.resolve("persist.g3.gz.zidx")).exists();
        try (FileSystem z = G3TestSupport.open(gz, env)) {
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:restartIndex")).startsWith("loaded");
            assertThat(Files.getAttribute(z.getPath("/"), "g3:frames")).isEqualTo(FRAMES);
        }
        assertSameTree(gz, env);
        Files.setLastModifiedTime(gz, FileTime.fromMillis(Files.getLastModifiedTime(gz).toMillis() + 5000));
        try (FileSystem z = G3TestSupport.open(gz, env)) {
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:restartIndex")).startsWith("saved");
        }
        Path cache = Files.createDirectory(tmp.resolve("cache"));
        try (FileSystem z = G3TestSupport.open(gz, Map.of("gzipIndexDir", cache.toString()))) {
            assertThat(Files.getAttribute(z.getPath("/"), "g3:frames")).isEqualTo(FRAMES);
        }
        assertThat(cache.resolve("persist.g3.gz.zidx")).exists();
        // a damaged index file is ignored, not trusted
        try (SeekableByteChannel ch = Files.newByteChannel(cache.resolve("persist.g3.gz.zidx"),
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(200);
        }
        try (FileSystem z = G3TestSupport.open(gz, Map.of("gzipIndexDir", cache.toString()))) {
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:restartIndex")).startsWith("saved");
            assertThat(Files.getAttribute(z.getPath("/"), "g3:frames")).isEqualTo(FRAMES);
        }
    }

    @Test
    void aFrameLargerThanMaxFrameBytesEndsTheGzipScanInsteadOfInflatingIt() throws Exception {
        byte[] bomb = G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 'S', List.of("zeros".getBytes()),
                List.of(new byte[4 << 20]));
        Path gz = tmp.resolve("bomb.g3.gz");
        Files.write(gz, gzip(concat(G3TestSupport.corpusBytes("test-le.g3"), bomb), 9, Deflater.DEFAULT_STRATEGY));
        assertThat(Files.size(gz)).isLessThan(100_000);
        try (FileSystem z = G3TestSupport.open(gz, Map.of("maxFrameBytes", 1 << 20))) {
            assertThat(Files.getAttribute(z.getPath("/"), "g3:frames")).isEqualTo(1);
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:damage")).contains("maxFrameBytes");
        }
        assertThatThrownBy(() -> G3TestSupport.open(gz, Map.of("maxFrameBytes", 1 << 20, "strict", true)))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("maxFrameBytes");
        try (FileSystem z = G3TestSupport.open(gz)) {
            assertThat(Files.getAttribute(z.getPath("/"), "g3:frames")).isEqualTo(2);
            assertThat(Files.size(z.getPath("/000001.Scan/zeros"))).isEqualTo(4 << 20);
        }
    }

    @Test
    void frameCrcsAreCheckedDuringTheGzipScanAndABadOneFailsReads() throws Exception {
        byte[] plain = G3TestSupport.corpusBytes("simple-types.g3");
        plain[1215 + 40] ^= 1;
        Path gz = tmp.resolve("badframe.g3.gz");
        Files.write(gz, gzip(plain, 6, Deflater.DEFAULT_STRATEGY));
        try (FileSystem z = G3TestSupport.open(gz, Map.of("gzipIndex", true))) {
            assertThat(Files.getAttribute(z.getPath("/000002.Scan"), "g3:crcOk")).isEqualTo(false);
            assertThat(Files.getAttribute(z.getPath("/000001.Scan"), "g3:crcOk")).isEqualTo(true);
            assertThatThrownBy(() -> Files.readAllBytes(z.getPath("/000002.Scan/Az")))
                    .isInstanceOf(org.containerfs.spi.ChecksumMismatchException.class).hasMessageContaining("000002.Scan");
        }
        // the verdict survives in the persisted index
        try (FileSystem z = G3TestSupport.open(gz, Map.of("gzipIndex", true))) {
            assertThat((String) Files.getAttribute(z.getPath("/"), "g3:restartIndex")).startsWith("loaded");
            assertThatThrownBy(() -> Files.readAllBytes(z.getPath("/000002.Scan/Az")))
                    .isInstanceOf(org.containerfs.spi.ChecksumMismatchException.class);
            assertThat((long) (Long) Files.getAttribute(z.getPath("/"), "g3:inflatedBytes")).isZero();
        }
    }

    @Test
    void theCorpusGzipMatchesItsPlainTwin() throws Exception {
        try (FileSystem p = G3TestSupport.open(G3TestSupport.corpus("simple-types.g3"));
                FileSystem z = G3TestSupport.open(G3TestSupport.corpus("simple-types.g3.gz"))) {
            List<Path> a = keyFiles(p);
            List<Path> b = keyFiles(z);
            assertThat(b).hasSameSizeAs(a);
            for (int i = 0; i < a.size(); i++) {
                assertThat(Files.readAllBytes(b.get(i))).isEqualTo(Files.readAllBytes(a.get(i)));
            }
            assertThat(Files.getAttribute(z.getPath("/"), "g3:compressed")).isEqualTo(true);
            assertThat(Files.getAttribute(z.getPath("/000002.Scan"), "g3:crcOk")).isEqualTo(true);
        }
    }
}
