package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.containerfs.spi.FormatOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block cache in front of remote inputs, held to the request bounds of issue 14 by counting every
 * read the input receives (one read = one ranged GET of a real store) and the bytes it returns.
 */
class BlockCacheTest {
    private static final int BLOCK = BlockCacheSettings.DEFAULTS.blockSize();
    private static final int SMALL_RECORDS = 100_000;
    private static final int SMALL_PAYLOAD = 64;

    @TempDir
    static Path dir;
    static Path manyRecords;
    static Path bigRecords;

    @BeforeAll
    static void writeContainers() throws IOException {
        manyRecords = dir.resolve("many.lime");
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(manyRecords), 1 << 16)) {
            for (int r = 0; r < SMALL_RECORDS; r++) {
                writeRecord(out, "ildg-binary-data", payload(r, SMALL_PAYLOAD));
            }
        }
        // small records between big ones: the scan reads headers far apart, never the big payloads
        bigRecords = dir.resolve("big.lime");
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(bigRecords), 1 << 16)) {
            writeRecord(out, "xlf-info", payload(0, 100));
            writeRecord(out, "ildg-binary-data", payload(1, 5 << 20));
            writeRecord(out, "scidac-checksum", payload(2, 10_000));
            writeRecord(out, "ildg-binary-data", payload(3, 5 << 20));
            writeRecord(out, "ildg-binary-data", payload(4, 50_000));
        }
    }

    /** Record {@code r}'s payload: bytes no other record has at the same offset. */
    static byte[] payload(int r, int length) {
        byte[] b = new byte[length];
        Random random = new Random(r);
        random.nextBytes(b);
        return b;
    }

    private static void writeRecord(OutputStream out, String type, byte[] payload) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(144).order(ByteOrder.BIG_ENDIAN);
        h.putInt(0x456789AB).putShort((short) 1).put((byte) 0xC0).put((byte) 0).putLong(payload.length);
        h.put(type.getBytes(StandardCharsets.US_ASCII));
        out.write(h.array());
        out.write(payload);
        out.write(new byte[(8 - (payload.length & 7)) & 7]);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static Path record(FileSystem fs, int r) {
        return fs.getPath(String.format("/msg%02d/rec01.ildg-binary-data", r + 1));
    }

    @Test
    void openingAHundredThousandRecordsReadsEachBlockOnce() throws IOException {
        CountingInput input = CountingInput.of(manyRecords);
        try (FileSystem fs = ContainerFileSystems.open(input, Map.of())) {
            long size = Files.size(manyRecords);
            assertThat(input.counters().reads.get()).as("requests to open %d bytes: %s", size, input.counters().log)
                    .isLessThanOrEqualTo(1 + ceilDiv(size, BLOCK));
            assertThat(input.counters().bytes.get()).isLessThanOrEqualTo(size + 4096);
            assertThat(Files.getAttribute(fs.getPath("/"), "lime:records")).isEqualTo(SMALL_RECORDS);
            assertThat(Files.readAllBytes(record(fs, 77_777))).isEqualTo(payload(77_777, SMALL_PAYLOAD));
        }
        assertThat(input.counters().readsAfterClose.get()).isZero();
    }

    @Test
    void openingAContainerOfBigRecordsTakesAFewRequestsAndAReadOneMore() throws IOException {
        CountingInput input = CountingInput.of(bigRecords);
        try (FileSystem fs = ContainerFileSystems.open(input, Map.of())) {
            assertThat(input.counters().reads.get()).as("%s", input.counters().log).isLessThanOrEqualTo(4);
            assertThat(input.counters().bytes.get()).as("%s", input.counters().log).isLessThan(2 * BLOCK);

            input.counters().reset();
            // the last record: the scan read its header's 4 KiB window only
            assertThat(Files.readAllBytes(record(fs, 4))).isEqualTo(payload(4, 50_000));
            assertThat(input.counters().reads.get()).as("%s", input.counters().log).isEqualTo(1);
            assertThat(input.counters().bytes.get()).isLessThanOrEqualTo(ceilDiv(50_000, 64 << 10) * (64 << 10));

            // 20 random 4 KiB reads inside a 5 MiB record: one exact request each
            input.counters().reset();
            Random random = new Random(20);
            byte[] expected = payload(3, 5 << 20);
            try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/msg04/rec01.ildg-binary-data"))) {
                for (int i = 0; i < 20; i++) {
                    int at = random.nextInt((5 << 20) - 4096);
                    ByteBuffer b = ByteBuffer.allocate(4096);
                    ch.position(at).read(b);
                    assertThat(b.array()).isEqualTo(java.util.Arrays.copyOfRange(expected, at, at + 4096));
                }
            }
            assertThat(input.counters().reads.get()).isLessThanOrEqualTo(20);
            assertThat(input.counters().bytes.get()).isLessThanOrEqualTo(2 * 20 * 4096);
        }
    }

    @Test
    void openingGsdAndG3CorpusFilesTakesAtMostFourRequests() throws IOException {
        for (String file : List.of("gsd/many_frames_index_growth.gsd", "gsd/hoomd_trajectory.gsd",
                "g3/big-blob-800k.g3", "g3/concatenated.g3")) {
            Path path = InputCorpusTest.corpusDir(file.substring(0, file.indexOf('/')))
                    .resolve(file.substring(file.indexOf('/') + 1));
            CountingInput input = CountingInput.of(path);
            try (FileSystem fs = ContainerFileSystems.open(input, Map.of())) {
                assertThat(input.counters().reads.get()).as("requests to open %s: %s", file, input.counters().log).isLessThanOrEqualTo(4);
            }
        }
    }

    @Test
    void aHundredRandomRecordsTakeAtMostAHundredRequestsAndTwiceTheirBytes() throws IOException {
        // blocks of 64 KiB and a cache of 256 KiB: after the scan, hardly any record is still cached
        Map<String, Object> small = Map.of("blockCacheBlockSize", 64 << 10, "blockCacheBytes", 256 << 10,
                "blockCacheReadAhead", 128 << 10);
        CountingInput input = CountingInput.of(manyRecords);
        try (FileSystem fs = ContainerFileSystems.open(input, small)) {
            input.counters().reset();
            Random random = new Random(100);
            for (int i = 0; i < 100; i++) {
                int r = random.nextInt(SMALL_RECORDS - 1000); // the cache still holds the file's end
                assertThat(Files.readAllBytes(record(fs, r))).isEqualTo(payload(r, SMALL_PAYLOAD));
            }
            assertThat(input.counters().reads.get()).isLessThanOrEqualTo(100).isGreaterThan(90);
            assertThat(input.counters().bytes.get()).isLessThanOrEqualTo(2L * 100 * SMALL_PAYLOAD);
        }
    }

    @Test
    void randomReadsRoundByAtMostHalfTheirLength() throws IOException {
        BlockCacheSettings settings = BlockCacheSettings.DEFAULTS;
        CountingInput counting = CountingInput.of(bigRecords);
        try (var cache = (BlockCachedInput) BlockCachedInput.cacheIfRemote(counting, settings)) {
            Random random = new Random(7);
            long needed = 0;
            for (int i = 0; i < 200; i++) {
                int length = 1 + random.nextInt(i % 2 == 0 ? 100 : 200_000);
                long at = random.nextInt((int) Files.size(bigRecords) - length);
                ByteBuffer b = ByteBuffer.allocate(length);
                long before = counting.counters().bytes.get();
                int n = cache.read(b, at);
                assertThat(n).isEqualTo(length);
                long moved = counting.counters().bytes.get() - before;
                assertThat(moved).as("bytes moved for %d bytes at %d", length, at).isLessThan(2L * length);
                needed += length;
            }
            assertThat(counting.counters().reads.get()).isLessThanOrEqualTo(200);
            assertThat(counting.counters().bytes.get()).isLessThan(2 * needed);
        }
    }

    @Test
    void aStreamingReaderGetsWholeBlocksAheadWithinTheMemoryBound() throws Exception {
        BlockCacheSettings settings = BlockCacheSettings.of(new FormatOptions(Map.of(
                "blockCacheBlockSize", 64 << 10, "blockCacheBytes", 1 << 20, "blockCacheReadAhead", 256 << 10)));
        CountingInput counting = CountingInput.of(bigRecords);
        long size = Files.size(bigRecords);
        byte[] expected = Files.readAllBytes(bigRecords);
        try (var cache = (BlockCachedInput) BlockCachedInput.cacheIfRemote(counting, settings)) {
            byte[] all = new byte[(int) size];
            long max = 0;
            for (long pos = 0; pos < size; ) {
                ByteBuffer b = ByteBuffer.wrap(all, (int) pos, (int) Math.min(8192, size - pos));
                pos += cache.read(b, pos);
                max = Math.max(max, cache.heldBytes());
            }
            assertThat(all).isEqualTo(expected);
            assertThat(max).as("bytes held").isLessThanOrEqualTo(1 << 20);
            // three exact reads before the stream is recognised, then whole blocks
            assertThat(counting.counters().reads.get()).isLessThanOrEqualTo(3 + ceilDiv(size, 64 << 10));
            assertThat(counting.counters().bytes.get()).isLessThanOrEqualTo(size + 3 * 8192);
            // read-ahead went on after the cache had filled (10 times over) with what was read
            assertThat(counting.counters().bytesReadAhead.get()).isGreaterThan(size / 2);
        }
    }

    @Test
    void eightThreadsOfRandomReadsSeeTheSameBytes() throws Exception {
        Map<String, Object> small = Map.of("blockCacheBlockSize", 64 << 10, "blockCacheBytes", 512 << 10,
                "blockCacheReadAhead", 128 << 10);
        CountingInput input = CountingInput.of(bigRecords);
        byte[] big1 = payload(1, 5 << 20);
        byte[] big3 = payload(3, 5 << 20);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (FileSystem fs = ContainerFileSystems.open(input, small)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int seed = t;
                done.add(threads.submit(() -> {
                    Random random = new Random(seed);
                    boolean first = seed % 2 == 0;
                    byte[] expected = first ? big1 : big3;
                    Path p = fs.getPath(first ? "/msg02/rec01.ildg-binary-data" : "/msg04/rec01.ildg-binary-data");
                    try (SeekableByteChannel ch = Files.newByteChannel(p)) {
                        for (int i = 0; i < 300; i++) {
                            int length = 1 + random.nextInt(i % 3 == 0 ? 100_000 : 3000);
                            int at = random.nextInt(expected.length - length);
                            ByteBuffer b = ByteBuffer.allocate(length);
                            ch.position(at);
                            while (b.hasRemaining() && ch.read(b) > 0) {
                                // fill
                            }
                            assertThat(b.array()).isEqualTo(java.util.Arrays.copyOfRange(expected, at, at + length));
                        }
                    }
                    if (seed == 0) { // one thread also streams a whole record meanwhile
                        try (InputStream in = Files.newInputStream(p)) {
                            assertThat(in.readAllBytes()).isEqualTo(expected);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            threads.shutdown();
        }
        assertThat(input.counters().readsAfterClose.get()).isZero();
    }

    @Test
    void closingStopsReadAheadAndLaterReadsFail() throws Exception {
        CountingInput input = CountingInput.of(bigRecords);
        FileSystem fs = ContainerFileSystems.open(input, Map.of("blockCacheBlockSize", 64 << 10));
        Path big = fs.getPath("/msg02/rec01.ildg-binary-data");
        InputStream in = Files.newInputStream(big);
        in.readNBytes(64 << 10); // a stream: read-ahead queued
        fs.close();
        long afterClose = input.counters().reads.get();
        assertThat(input.isClosed()).isTrue();
        assertThat(input.counters().readsAfterClose.get()).isZero();
        assertThatThrownBy(() -> in.read()).isInstanceOf(IOException.class);
        assertThat(input.counters().reads.get()).isEqualTo(afterClose);
    }

    @Test
    void settingsComeFromEnvAndAreChecked() {
        Map<String, Object> env = new HashMap<>();
        env.put("blockCacheBytes", "33554432");
        env.put("blockCacheBlockSize", 1 << 16);
        BlockCacheSettings s = BlockCacheSettings.of(new FormatOptions(env));
        assertThat(s.cacheBytes()).isEqualTo(32L << 20);
        assertThat(s.blockSize()).isEqualTo(64 << 10);
        assertThatThrownBy(() -> BlockCacheSettings.of(new FormatOptions(Map.of("blockCacheBlockSize", 1000))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blockCacheBlockSize");
        assertThatThrownBy(() -> BlockCacheSettings.of(new FormatOptions(Map.of("blockCacheBytes", 1 << 20))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blockCacheBytes");
    }

    @Test
    void localInputsAreReadDirectly() throws IOException {
        try (var local = org.containerfs.storage.PathInput.of(bigRecords)) {
            assertThat(BlockCachedInput.cacheIfRemote(local, BlockCacheSettings.DEFAULTS)).isSameAs(local);
        }
    }
}
