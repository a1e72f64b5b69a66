package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight threads read random records of one file system at once, by positional reads on channels
 * they share and by sequential reads on channels and streams of their own; every byte is compared
 * with what the record must hold (a pure function of record number and offset).
 */
class ConcurrentReadersTest {
    private static final int THREADS = 8;
    private static final int RECORDS = 40;
    private static final int ROUNDS_PER_THREAD = 150;

    @TempDir
    static Path dir;
    private static FileSystem fs;
    private static List<Path> records;
    private static long[] sizes;

    /** The byte at {@code offset} of record {@code r}: cheap to recompute, different for every record. */
    private static byte expected(int r, long offset) {
        long x = (offset + 1) * 0x9E3779B97F4A7C15L ^ (r + 1) * 0xC2B2AE3D27D4EB4FL;
        x ^= x >>> 29;
        return (byte) (x * 0xBF58476D1CE4E5B9L >>> 56);
    }

    @BeforeAll
    static void writeContainer() throws IOException {
        Path container = dir.resolve("many.lime");
        SplittableRandom random = new SplittableRandom(42);
        sizes = new long[RECORDS];
        records = new ArrayList<>();
        try (FileSystem writer = TestContainers.create(container)) {
            for (int r = 0; r < RECORDS; r++) {
                int message = r / 8 + 1;
                Path msg = writer.getPath(String.format("/msg%02d", message));
                if (r % 8 == 0) {
                    Files.createDirectory(msg);
                }
                sizes[r] = r % 10 == 3 ? 0 : random.nextInt(r % 4 == 0 ? 300_000 : 5_000);
                Path record = msg.resolve(String.format("rec%02d.data-%d", r % 8 + 1, r));
                try (SeekableByteChannel out = Files.newByteChannel(record, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE)) {
                    ByteBuffer chunk = ByteBuffer.allocate(65536);
                    for (long off = 0; off < sizes[r]; ) {
                        chunk.clear();
                        while (chunk.hasRemaining() && off < sizes[r]) {
                            chunk.put(expected(r, off++));
                        }
                        out.write(chunk.flip());
                    }
                }
                records.add(record);
            }
        }
        fs = TestContainers.openReadOnly(container);
        records = records.stream().map(p -> fs.getPath(p.toString())).toList();
    }

    @AfterAll
    static void close() throws IOException {
        fs.close();
    }

    private static void check(int r, long offset, ByteBuffer data) {
        for (int i = 0; data.hasRemaining(); i++) {
            byte b = data.get();
            if (b != expected(r, offset + i)) {
                throw new AssertionError("record " + r + " byte " + (offset + i) + ": got " + b + ", expected "
                        + expected(r, offset + i));
            }
        }
    }

    @Test
    void eightThreadsReadRandomRecordsAndEveryByteIsRight() throws Exception {
        // channels shared by all threads, for positional reads only (FileChannel's thread-safe half)
        List<FileChannel> shared = new ArrayList<>();
        for (Path record : records) {
            shared.add(FileChannel.open(record, StandardOpenOption.READ));
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Long>> results = new ArrayList<>();
        try {
            for (int t = 0; t < THREADS; t++) {
                long seed = t;
                results.add(pool.submit((Callable<Long>) () -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    long checked = 0;
                    start.await();
                    for (int round = 0; round < ROUNDS_PER_THREAD; round++) {
                        int r = random.nextInt(RECORDS);
                        long size = sizes[r];
                        switch (random.nextInt(4)) {
                            case 0 -> { // positional read on the shared channel
                                long offset = size == 0 ? 0 : random.nextLong(size);
                                ByteBuffer buf = ByteBuffer.allocate((int) Math.min(1 + random.nextInt(70_000), size - offset + 8));
                                int n = shared.get(r).read(buf, offset);
                                if (size == 0) {
                                    assertThat(n).isEqualTo(-1);
                                    break;
                                }
                                assertThat(n).isEqualTo((int) Math.min(buf.capacity(), size - offset));
                                check(r, offset, buf.flip());
                                checked += n;
                            }
                            case 1 -> { // sequential read of the whole record on an own channel
                                try (SeekableByteChannel ch = Files.newByteChannel(records.get(r))) {
                                    ByteBuffer buf = ByteBuffer.allocate(8192 + random.nextInt(8192));
                                    long offset = 0;
                                    int n;
                                    while ((n = ch.read(buf.clear())) >= 0) {
                                        check(r, offset, buf.flip());
                                        offset += n;
                                    }
                                    assertThat(offset).isEqualTo(size);
                                    checked += offset;
                                }
                            }
                            case 2 -> { // seek then read sequentially
                                try (SeekableByteChannel ch = Files.newByteChannel(records.get(r))) {
                                    long offset = size == 0 ? 0 : random.nextLong(size);
                                    ch.position(offset);
                                    ByteBuffer buf = ByteBuffer.allocate(4096);
                                    int n = ch.read(buf);
                                    assertThat(n).isEqualTo(size == 0 ? -1 : (int) Math.min(4096, size - offset));
                                    check(r, offset, buf.flip());
                                    assertThat(ch.position()).isEqualTo(offset + Math.max(n, 0));
                                    checked += Math.max(n, 0);
                                }
                            }
                            default -> { // an input stream, with tree look-ups in between
                                try (InputStream in = Files.newInputStream(records.get(r))) {
                                    byte[] all = in.readAllBytes();
                                    assertThat(all.length).isEqualTo(size);
                                    check(r, 0, ByteBuffer.wrap(all));
                                    checked += all.length;
                                }
                                try (Stream<Path> list = Files.list(records.get(r).getParent())) {
                                    assertThat(list.count()).isEqualTo(records.get(r).getParent().equals(
                                            fs.getPath("/msg05")) ? RECORDS - 32 : 8);
                                }
                                assertThat(Files.readAttributes(records.get(r), "lime:length"))
                                        .containsEntry("length", size);
                            }
                        }
                    }
                    return checked;
                }));
            }
            start.countDown();
            long total = 0;
            for (Future<Long> f : results) {
                total += f.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).isPositive();
        } finally {
            pool.shutdownNow();
            for (FileChannel c : shared) {
                c.close();
            }
        }
    }
}
