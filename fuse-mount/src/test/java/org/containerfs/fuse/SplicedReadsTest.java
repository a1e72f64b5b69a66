package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads through the low-level engine of a record stored as one range of the container file are answered
 * from the container's descriptor ({@code fuse_reply_data}), counted by the engine; the same container
 * gzipped goes through buffers. Both give the record's bytes, at every offset, across the end and past it.
 */
class SplicedReadsTest {
    /** Not a multiple of the page size: the kernel's last READ of the record spans its end. */
    private static final int BIG = 3 * 1024 * 1024 + 1234;

    @TempDir
    static Path dir;
    static Path container;
    static Path gzipped;
    static byte[] big;
    static byte[] small;

    @BeforeAll
    static void containers() throws Exception {
        FuseTestSupport.requireFuse();
        big = new byte[BIG];
        new Random(28).nextBytes(big);
        small = "a small record".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        container = dir.resolve("spliced.lime");
        try (FileSystem fs = ParallelReadersTest.lime().newFileSystem(container, Map.of("create", "true"))) {
            Path message = Files.createDirectory(fs.getPath("/msg01"));
            Files.write(message.resolve("rec01.big"), big);
            Files.write(message.resolve("rec02.small"), small);
        }
        gzipped = dir.resolve("spliced.lime.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzipped))) {
            Files.copy(container, out);
        }
    }

    @Test
    void aContiguousRecordIsReadFromTheContainersDescriptor() throws Exception {
        Path mp = Files.createDirectory(dir.resolve("plain"));
        try (InProcessMount m = InProcessMount.mount(Engine.lowlevel, container, mp, false)) {
            NioLowLevelOperations ops = m.lowLevel().operations();
            assertThat(Files.readAllBytes(m.path("/msg01/rec01.big"))).isEqualTo(big);
            assertThat(Files.readAllBytes(m.path("/msg01/rec02.small"))).isEqualTo(small);
            assertThat(ops.splicedOpens()).as("opens served from the container's descriptor").isEqualTo(2);
            assertThat(ops.splicedReads()).as("reads answered from the descriptor").isGreaterThanOrEqualTo(2);
            readsAcrossAndPastTheEnd(m.path("/msg01/rec01.big"), big);

            // two opens of two records share the container's one descriptor
            try (FileChannel a = FileChannel.open(m.path("/msg01/rec01.big"), StandardOpenOption.READ);
                    FileChannel b = FileChannel.open(m.path("/msg01/rec02.small"), StandardOpenOption.READ)) {
                assertThat(ops.openStorageFiles()).isEqualTo(1);
                ByteBuffer got = ByteBuffer.allocate(small.length);
                b.read(got, 0);
                assertThat(got.array()).isEqualTo(small);
            }
            awaitNoStorageFiles(ops); // the kernel's RELEASE comes after close(2) returns
            assertThat(ops.openStorageFiles()).as("descriptors after the last release").isZero();
        }
    }

    @Test
    void aGzippedContainerIsReadThroughBuffers() throws Exception {
        Path mp = Files.createDirectory(dir.resolve("gzip"));
        try (InProcessMount m = InProcessMount.mount(Engine.lowlevel, gzipped, mp, false)) {
            NioLowLevelOperations ops = m.lowLevel().operations();
            assertThat(Files.readAllBytes(m.path("/msg01/rec01.big"))).isEqualTo(big);
            assertThat(Files.readAllBytes(m.path("/msg01/rec02.small"))).isEqualTo(small);
            readsAcrossAndPastTheEnd(m.path("/msg01/rec01.big"), big);
            assertThat(ops.splicedOpens()).isZero();
            assertThat(ops.splicedReads()).isZero();
            assertThat(ops.openStorageFiles()).isZero();
        }
    }

    @Test
    void withSplicingTheBytesAreThoseOfTheBufferPath() throws Exception {
        Path plain = Files.createDirectory(dir.resolve("cmp-plain"));
        Path gz = Files.createDirectory(dir.resolve("cmp-gz"));
        try (InProcessMount a = InProcessMount.mount(Engine.lowlevel, container, plain, false);
                InProcessMount b = InProcessMount.mount(Engine.lowlevel, gzipped, gz, false)) {
            Random random = new Random(4);
            try (FileChannel x = FileChannel.open(a.path("/msg01/rec01.big"), StandardOpenOption.READ);
                    FileChannel y = FileChannel.open(b.path("/msg01/rec01.big"), StandardOpenOption.READ)) {
                for (int i = 0; i < 200; i++) {
                    long at = random.nextInt(BIG + 100);
                    int size = 1 + random.nextInt(300_000);
                    assertThat(readAt(x, at, size)).as("%d bytes at %d", size, at).isEqualTo(readAt(y, at, size));
                }
            }
            assertThat(a.lowLevel().operations().splicedReads()).isPositive();
            assertThat(b.lowLevel().operations().splicedReads()).isZero();
        }
    }

    @Test
    void aReadGetsTheBytesInsideTheFileUpToItsEndAndNoneAtOrPastIt() {
        assertThat(NioLowLevelOperations.splicedBytes(100, 0, 4096)).isEqualTo(100);
        assertThat(NioLowLevelOperations.splicedBytes(100, 90, 4096)).isEqualTo(10);
        assertThat(NioLowLevelOperations.splicedBytes(100, 10, 20)).isEqualTo(20);
        assertThat(NioLowLevelOperations.splicedBytes(100, 99, 1)).isEqualTo(1);
        assertThat(NioLowLevelOperations.splicedBytes(100, 100, 4096)).isZero();
        assertThat(NioLowLevelOperations.splicedBytes(100, 4096, 4096)).isZero();
        assertThat(NioLowLevelOperations.splicedBytes(0, 0, 4096)).isZero();
        assertThat(NioLowLevelOperations.splicedBytes(Long.MAX_VALUE, Long.MAX_VALUE - 5, 4096)).isEqualTo(5);
    }

    @Test
    void requestsFitTheLargestPipeWithLibfusesMargin() {
        // libfuse splices a reply of n bytes if the pipe holds 16 + n + 3 pages
        assertThat(org.containerfs.fuse.lowlevel.Connection.splicedReplyLimit(1 << 20)).isEqualTo(252 * 4096);
        assertThat(252 * 4096 + 16 + 3 * 4096).isLessThanOrEqualTo(1 << 20);
        assertThat(253 * 4096 + 16 + 3 * 4096).isGreaterThan(1 << 20);
        assertThat(org.containerfs.fuse.lowlevel.Connection.splicedReplyLimit(2 << 20)).isEqualTo(508 * 4096);
        assertThat(org.containerfs.fuse.lowlevel.Connection.splicedReplyLimit(64 * 1024)).isEqualTo(12 * 4096);
    }

    /** Positional reads through the mount: inside, spanning the end, at it and past it. */
    private static void readsAcrossAndPastTheEnd(Path file, byte[] expected) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            int n = expected.length;
            assertThat(readAt(ch, 4096 + 7, 10_000)).isEqualTo(java.util.Arrays.copyOfRange(expected, 4103, 14_103));
            assertThat(readAt(ch, n - 10, 100)).isEqualTo(java.util.Arrays.copyOfRange(expected, n - 10, n));
            assertThat(readAt(ch, n - 70_000, 200_000)).isEqualTo(java.util.Arrays.copyOfRange(expected, n - 70_000, n));
            assertThat(ch.read(ByteBuffer.allocate(100), n)).as("a read at the end").isEqualTo(-1);
            assertThat(ch.read(ByteBuffer.allocate(100), n + 5000L)).as("a read past the end").isEqualTo(-1);
        }
    }

    /** Up to {@code size} bytes at {@code at} (fewer only at the end of the file). */
    private static byte[] readAt(FileChannel ch, long at, int size) throws Exception {
        ByteBuffer buf = ByteBuffer.allocate(size);
        while (buf.hasRemaining()) {
            int got = ch.read(buf, at + buf.position());
            if (got < 0) {
                break;
            }
        }
        return java.util.Arrays.copyOf(buf.array(), buf.position());
    }

    private static void awaitNoStorageFiles(NioLowLevelOperations ops) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (ops.openStorageFiles() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}
