package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One unit of 4 GiB + 1 byte per format, written through the NIO API from a generated stream (never a
 * whole array) and read back byte for byte: every length and offset on the way must be 64-bit. Each file
 * is deleted by its test (the temporary directory too, but not before the next test writes its own).
 */
class BigUnitTest {
    private static final long SIZE = GeneratedBytes.FOUR_GIB_PLUS_ONE;

    @TempDir
    Path tmp;

    /** Creates {@code container} of {@code format}, makes {@code dirs}, writes the unit at {@code unit}; reads it back. */
    private Path writeAndReadBack(String format, Map<String, ?> env, String unit, GeneratedBytes bytes,
            FileAttribute<?>[] attributes, String... dirs) throws IOException {
        Path container = tmp.resolve("big." + format);
        try (FileSystem fs = ContainerFileSystems.create(container, format, env)) {
            for (String d : dirs) {
                Files.createDirectory(fs.getPath(d));
            }
            try (SeekableByteChannel out = Files.newByteChannel(fs.getPath(unit),
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes)) {
                bytes.writeTo(out);
                assertThat(out.size()).isEqualTo(SIZE);
            }
        }
        assertThat(Files.size(container)).isGreaterThan(SIZE);
        try (FileSystem fs = ContainerFileSystems.open(container, Map.of("strict", true))) {
            Path p = fs.getPath(unit);
            assertThat(Files.size(p)).isEqualTo(SIZE);
            try (SeekableByteChannel in = Files.newByteChannel(p)) {
                bytes.assertSameAs(in, format + " " + unit);
            }
        }
        return container;
    }

    @Test
    void aLimeRecordOf4GibPlusOneByte() throws IOException {
        Path c = writeAndReadBack("lime", Map.of(), "/msg01/rec01.big", new GeneratedBytes(SIZE, 1), new FileAttribute<?>[0],
                "/msg01");
        Files.delete(c);
    }

    @Test
    void aGsdChunkOf4GibPlusOneByte() throws IOException {
        Path c = writeAndReadBack("gsd", Map.of(), "/0/big", new GeneratedBytes(SIZE, 2),
                new FileAttribute<?>[] {ContainerFileSystems.attribute("gsd:type", "uint8"),
                        ContainerFileSystems.attribute("gsd:M", 1)}, "/0");
        Files.delete(c);
    }

    @Test
    void anScdaBlockSectionOf4GibPlusOneByte() throws IOException {
        Path c = writeAndReadBack("scda", Map.of(), "/0000.B.big", new GeneratedBytes(SIZE, 3), new FileAttribute<?>[0]);
        Files.delete(c);
    }

    @Test
    void aSionTaskStreamOf4GibPlusOneByteOverSeveralBlocks() throws IOException {
        Path c = writeAndReadBack("sion", Map.of("blockSize", 1 << 30), "/task000000", new GeneratedBytes(SIZE, 4),
                new FileAttribute<?>[0]);
        Files.delete(c);
    }

    /**
     * A G3 value of 4 GiB + 1 byte: read back, and its frame's stored CRC checked against the JDK's CRC32C
     * (not G3Crc): spt3g's CRC of data D is CRC32C(D) xor CRC32C(as many zero bytes).
     */
    @Test
    void aG3ValueOf4GibPlusOneByteWithTheCrcSpt3gComputes() throws IOException {
        Path c = writeAndReadBack("g3", Map.of(), "/000000.Scan/big", new GeneratedBytes(SIZE, 5), new FileAttribute<?>[0],
                "/000000.Scan");
        try (FileChannel file = FileChannel.open(c)) {
            long keyAt = 13 + 8;
            long valueAt = keyAt + 3 + 8;
            assertThat(file.size()).isEqualTo(valueAt + SIZE + 4);
            CRC32C data = new CRC32C();
            CRC32C zeros = new CRC32C();
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            ByteBuffer zero = ByteBuffer.allocateDirect(1 << 20);
            sum(file, keyAt, 3, buf, data, zero, zeros);
            sum(file, valueAt, SIZE, buf, data, zero, zeros);
            ByteBuffer stored = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            file.read(stored, valueAt + SIZE);
            assertThat(stored.getInt(0)).isEqualTo((int) (data.getValue() ^ zeros.getValue()));
        }
        Files.delete(c);
    }

    /** Feeds {@code length} bytes of {@code file} from {@code at} to {@code data}, and as many zeros to {@code zeros}. */
    private static void sum(FileChannel file, long at, long length, ByteBuffer buf, CRC32C data, ByteBuffer zero, CRC32C zeros)
            throws IOException {
        for (long done = 0; done < length; ) {
            buf.clear().limit((int) Math.min(buf.capacity(), length - done));
            int n = file.read(buf, at + done);
            assertThat(n).isPositive();
            data.update(buf.flip());
            zeros.update(zero.clear().limit(n));
            done += n;
        }
    }
}
