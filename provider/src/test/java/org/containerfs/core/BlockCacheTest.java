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

    /**
     * Generated bytes posing as a remote object: counts requests and their sizes, how many are
     * outstanding at once, and requests after close. With {@code overlapGate}, a request waits (up to a
     * second) for a second one to be outstanding, so a reader that fetches one range at a time is seen
     * with at most one outstanding, whatever the machine's speed.
     */
    static class StoreInput implements org.containerfs.storage.ContainerInput {
        final long size;
        final boolean overlapGate;
        final java.util.concurrent.atomic.AtomicLong requests = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong bytes = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong requestsAfterClose = new java.util.concurrent.atomic.AtomicLong();
        final java.util.Queue<Integer> requestSizes = new java.util.concurrent.ConcurrentLinkedQueue<>();
        private int outstanding;
        int maxOutstanding;
        private volatile boolean closed;

        StoreInput(long size, boolean overlapGate) {
            this.size = size;
            this.overlapGate = overlapGate;
        }

        static byte byteAt(long pos) {
            return (byte) (pos * 31 + (pos >>> 13));
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            if (closed) {
                requestsAfterClose.incrementAndGet();
            }
            requests.incrementAndGet();
            int n = (int) Math.min(dst.remaining(), size - position);
            requestSizes.add(n);
            synchronized (this) {
                maxOutstanding = Math.max(maxOutstanding, ++outstanding);
                notifyAll();
                long deadline = System.nanoTime() + 1_000_000_000L;
                while (overlapGate && outstanding < 2 && System.nanoTime() < deadline) {
                    try {
                        wait(50);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException();
                    }
                }
            }
            try {
                for (int i = 0; i < n; i++) {
                    dst.put(byteAt(position + i));
                }
                bytes.addAndGet(n);
                return n;
            } finally {
                synchronized (this) {
                    outstanding--;
                }
            }
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public java.net.URI uri() {
            return java.net.URI.create("s3://bucket/generated");
        }

        @Override
        public org.containerfs.storage.InputIdentity identity() {
            return new org.containerfs.storage.InputIdentity(uri(), size, "1");
        }

        @Override
        public org.containerfs.storage.ContainerInput sibling(String fileName) throws IOException {
            throw new java.nio.file.NoSuchFileException(fileName);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** A {@link StoreInput} that also opens ranged requests read in order, counting them and what they send. */
    static final class RangeStoreInput extends StoreInput {
        final java.util.concurrent.atomic.AtomicLong rangesOpened = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong rangeBytes = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong rangesOpenNow = new java.util.concurrent.atomic.AtomicLong();

        RangeStoreInput(long size) {
            super(size, false);
        }

        @Override
        public java.io.InputStream openRange(long position, long end) {
            rangesOpened.incrementAndGet();
            rangesOpenNow.incrementAndGet();
            return new java.io.InputStream() {
                long next = position;
                boolean open = true;

                @Override
                public int read() {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    int n = (int) Math.min(len, end - next);
                    if (n <= 0) {
                        return -1;
                    }
                    for (int i = 0; i < n; i++) {
                        b[off + i] = byteAt(next + i);
                    }
                    next += n;
                    rangeBytes.addAndGet(n);
                    return n;
                }

                @Override
                public void close() {
                    if (open) {
                        open = false;
                        rangesOpenNow.decrementAndGet();
                    }
                }
            };
        }
    }

    @Test
    void largeReadsInOrderGoOnInOneRangedRequestAndAnOverlappingReaderKeepsToTheCache() throws Exception {
        long size = 64L << 20;
        RangeStoreInput store = new RangeStoreInput(size);
        BlockCachedInput cache = (BlockCachedInput) BlockCachedInput.cacheIfRemote(store, BlockCacheSettings.DEFAULTS);
        ByteBuffer buf = ByteBuffer.allocate(1 << 20);
        long pos = 144;
        while (pos < size / 2) {
            int n = cache.read(buf.clear(), pos);
            for (int i = 0; i < n; i += 4093) {
                assertThat(buf.get(i)).as("byte %d", pos + i).isEqualTo(StoreInput.byteAt(pos + i));
            }
            pos += n;
        }
        // from the second large read on, one ranged request carries the run: only the first read is a range
        // of its own (three were, while a run needed four reads in a row)
        assertThat(store.rangesOpened.get()).isEqualTo(1);
        assertThat(store.requests.get()).as("%s", store.requestSizes).isEqualTo(1);
        assertThat(store.bytes.get() + store.rangeBytes.get()).isLessThanOrEqualTo(size / 2 + (8L << 20));
        // a reader going back over bytes the request has passed: served by the cache, and no new request opened
        long back = pos - (1 << 19);
        for (int k = 0; k < 8; k++, back += 1 << 19) {
            int n = cache.read(buf.clear(), back);
            for (int i = 0; i < n; i += 4093) {
                assertThat(buf.get(i)).as("byte %d", back + i).isEqualTo(StoreInput.byteAt(back + i));
            }
        }
        assertThat(store.rangesOpened.get()).isEqualTo(1);
        cache.close();
        assertThat(store.rangesOpenNow.get()).as("ranged requests left open after close").isZero();
        assertThat(store.requestsAfterClose.get()).isZero();
    }

    @Test
    void streamingInOrderTakesGrowingOverlappingRequestsAndNoneAfterClose() throws Exception {
        int mib = 96;
        long size = (long) mib << 20;
        StoreInput store = new StoreInput(size, true);
        BlockCachedInput cache = (BlockCachedInput) BlockCachedInput.cacheIfRemote(store, BlockCacheSettings.DEFAULTS);
        ByteBuffer buf = ByteBuffer.allocate(1 << 20);
        long start = 144; // a record's payload after its header: reads are off the block grid
        long maxHeld = 0;
        for (long pos = start; pos < size; ) {
            int n = cache.read(buf.clear(), pos);
            for (int i = 0; i < n; i += 4093) {
                assertThat(buf.get(i)).as("byte %d", pos + i).isEqualTo(StoreInput.byteAt(pos + i));
            }
            pos += n;
            maxHeld = Math.max(maxHeld, cache.heldBytes());
        }
        cache.close();
        assertThat(store.requests.get()).as("requests to stream %d MiB: %s", mib, store.requestSizes)
                .isLessThanOrEqualTo(mib / 8 + 8);
        assertThat(store.bytes.get()).isLessThanOrEqualTo(size);
        assertThat(store.requestSizes.stream().mapToInt(Integer::intValue).max().orElse(0))
                .as("largest request").isGreaterThanOrEqualTo(8 << 20);
        assertThat(store.maxOutstanding).as("requests in flight at once").isGreaterThanOrEqualTo(2);
        assertThat(maxHeld).as("bytes held").isLessThanOrEqualTo(BlockCacheSettings.DEFAULTS.cacheBytes());
        assertThat(store.requestsAfterClose.get()).isZero();
    }

    @Test
    void closingInTheMiddleOfAStreamFetchesNothingMore() throws Exception {
        StoreInput store = new StoreInput(64L << 20, false);
        BlockCachedInput cache = (BlockCachedInput) BlockCachedInput.cacheIfRemote(store, BlockCacheSettings.DEFAULTS);
        ByteBuffer buf = ByteBuffer.allocate(1 << 20);
        for (long pos = 0; pos < 12L << 20; ) {
            pos += cache.read(buf.clear(), pos);
        }
        cache.close();
        long atClose = store.requests.get();
        Thread.sleep(200); // a queued read-ahead that escaped close would show up here
        assertThat(store.requests.get()).isEqualTo(atClose);
        assertThat(store.requestsAfterClose.get()).isZero();
        assertThatThrownBy(() -> cache.read(buf.clear(), 12L << 20)).isInstanceOf(IOException.class);
    }

    @Test
    void smallRandomReadsInASmallRegionStayExact() throws IOException {
        // GSD-like: chunks of a few hundred bytes at random offsets within 4 MiB, with repeats nearby
        StoreInput store = new StoreInput(4L << 20, false);
        try (var cache = (BlockCachedInput) BlockCachedInput.cacheIfRemote(store, BlockCacheSettings.DEFAULTS)) {
            Random random = new Random(14);
            long needed = 0;
            for (int i = 0; i < 300; i++) {
                int length = 16 + random.nextInt(400);
                long at = random.nextInt((4 << 20) - length);
                ByteBuffer b = ByteBuffer.allocate(length);
                assertThat(cache.read(b, at)).isEqualTo(length);
                assertThat(b.get(length - 1)).isEqualTo(StoreInput.byteAt(at + length - 1));
                needed += length;
            }
            assertThat(store.requests.get()).isLessThanOrEqualTo(300);
            assertThat(store.bytes.get()).as("bytes moved for %d needed", needed).isLessThanOrEqualTo(2 * needed);
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
