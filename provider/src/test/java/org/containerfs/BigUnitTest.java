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
        write(container, format, env, unit, bytes, attributes, dirs);
        readBack(container, format, unit, bytes);
        return container;
    }

    private static void write(Path container, String format, Map<String, ?> env, String unit, GeneratedBytes bytes,
            FileAttribute<?>[] attributes, String... dirs) throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(container, format, env)) {
            for (String d : dirs) {
                Files.createDirectory(fs.getPath(d));
            }
            try (SeekableByteChannel out = Files.newByteChannel(fs.getPath(unit),
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes)) {
                bytes.writeTo(out);
                assertThat(out.size()).isEqualTo(bytes.size());
            }
        }
    }

    private static void readBack(Path container, String format, String unit, GeneratedBytes bytes) throws IOException {
        assertThat(Files.size(container)).isGreaterThan(bytes.size());
        try (FileSystem fs = ContainerFileSystems.open(container, Map.of("strict", true))) {
            Path p = fs.getPath(unit);
            assertThat(Files.size(p)).isEqualTo(bytes.size());
            try (SeekableByteChannel in = Files.newByteChannel(p)) {
                bytes.assertSameAs(in, format + " " + unit);
            }
        }
    }

    @Test
    void aLimeRecordOf4GibPlusOneByte() throws IOException {
        Path c = writeAndReadBack("lime", Map.of(), "/msg01/rec01.big", new GeneratedBytes(SIZE, 1), new FileAttribute<?>[0],
                "/msg01");
        Files.delete(c);
    }

    /**
     * A uint8 chunk of N = 641 rows of M = 6,700,417 (4 GiB + 1 byte: N x M passes 2^32 while each fits an
     * int), read back by us; python3-gsd, the reference library, opens the file (it checks every index entry's
     * extent against the file size) and finds the chunk. Reading the 4 GiB chunk there too would take longer
     * than all the other big tests together.
     */
    @Test
    void aGsdChunkOf4GibPlusOneByteTheGsdLibraryAccepts() throws IOException, InterruptedException {
        Path c = writeAndReadBack("gsd", Map.of(), "/0/big", new GeneratedBytes(SIZE, 2),
                new FileAttribute<?>[] {ContainerFileSystems.attribute("gsd:type", "uint8"),
                        ContainerFileSystems.attribute("gsd:M", 6_700_417)}, "/0");
        String script = """
                import sys, gsd.fl
                f = gsd.fl.open(name=sys.argv[1], mode='rb')
                print(f.nframes, f.chunk_exists(frame=0, name='big'), f.find_matching_chunk_names(''))
                """;
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", script, c.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out).isEqualTo("1 True ['big']");
        Files.delete(c);
    }

    @Test
    void anScdaBlockSectionOf4GibPlusOneByte() throws IOException {
        Path c = writeAndReadBack("scda", Map.of(), "/0000.B.big", new GeneratedBytes(SIZE, 3), new FileAttribute<?>[0]);
        Files.delete(c);
    }

    /** The file system's block size: a task's chunk is its stream rounded up to it (a 1 GiB block would add a GiB). */
    @Test
    void aSionTaskStreamOf4GibPlusOneByte() throws IOException {
        Path c = writeAndReadBack("sion", Map.of(), "/task000000", new GeneratedBytes(SIZE, 4), new FileAttribute<?>[0]);
        Files.delete(c);
    }

    private static final String G3_VALUE = "/000000.Scan/big";

    /** The child of the G3 test: writes the value in a JVM whose heap is far smaller than the value. */
    public static void main(String[] args) throws IOException {
        write(Path.of(args[0]), "g3", Map.of(), G3_VALUE, new GeneratedBytes(SIZE, 5), new FileAttribute<?>[0],
                "/000000.Scan");
    }

    /**
     * A G3 value of 4 GiB + 1 byte, written by a child JVM with a 32 MiB heap (the writer keeps no value in
     * memory), read back, and its frame's stored CRC checked against the JDK's CRC32C (not G3Crc): spt3g's
     * CRC of data D is CRC32C(D) xor CRC32C(as many zero bytes).
     */
    @Test
    void aG3ValueOf4GibPlusOneByteWrittenWithA32MibHeapWithTheCrcSpt3gComputes() throws Exception {
        Path c = tmp.resolve("big.g3");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                "-cp", System.getProperty("java.class.path"), BigUnitTest.class.getName(), c.toString())
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(child.waitFor()).as(out).isZero();
        readBack(c, "g3", G3_VALUE, new GeneratedBytes(SIZE, 5));
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
