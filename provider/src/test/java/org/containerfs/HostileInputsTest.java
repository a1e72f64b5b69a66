package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile headers for every format, one row each: a corpus file with one field made hostile (a length
 * of 2^62 or negative, an offset outside the file, a structure pointing into itself, a name list with
 * no NUL, a 26-digit count, a gzip bomb, 2^31-1 tasks in a tiny file). Each must fail with a specific
 * ContainerFormatException whose message names a byte offset ("at byte N"), never with an OutOfMemoryError, a
 * hang or an unchecked exception. The rows also run in a child JVM with a 32 MiB heap
 * ({@link #main}), so an allocation sized by a hostile field fails there.
 *
 * <p>Index loops and steps that do not advance, per format:
 * <ul>
 *   <li>LIME: records are walked in file order, each step a 144-byte header plus a length that may not be
 *       negative; nothing points anywhere, so no step stands still or goes back.</li>
 *   <li>GSD: the index is an array read once from front to back; entries point at data, never at other
 *       entries. A frame number that decreases is refused (row), and frame numbers are bounded by the
 *       index size, itself bounded by the file size.</li>
 *   <li>scda: sections are walked in file order, each at least a 64-byte header, V element sizes 32
 *       bytes each; only an A array of 0-byte elements declares nodes that take no bytes (row).</li>
 *   <li>G3: frames in file order, each at least 17 bytes (header and CRC), entries at least 16; no
 *       pointers. A .g3.gz has gzip members of at least 18 bytes in a row; its persisted restart index
 *       (.zidx) is a second file, so crafted ones, loops included, are in G3IndexSidecarTamperTest.</li>
 *   <li>SION: no chains: a chunk's position is a formula of META1's chunk sizes and META2's block counts.
 *       Chunks of 0 bytes put every block row at the same byte, so the row count is bounded by META2's
 *       bytes instead (row); the members of a multi-file set are found by name from the first file's
 *       count, never from each other.</li>
 * </ul>
 */
class HostileInputsTest {
    static final long TWO_62 = 1L << 62;

    record Row(String name, String format, String file, String corpus, UnaryOperator<byte[]> mutation,
            Map<String, Object> env, Class<? extends ContainerFormatException> expected, String offset) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Row> rows() {
        return List.of(
                new Row("lime record length 2^62", "lime", "h.lime", "lime/s01_single_record.lime",
                        b -> putLong(b, 8, ByteOrder.BIG_ENDIAN, TWO_62), Map.of(), ContainerFormatException.class, "at byte 8"),
                new Row("lime record length negative", "lime", "h.lime", "lime/s01_single_record.lime",
                        b -> putLong(b, 8, ByteOrder.BIG_ENDIAN, -1), Map.of(), ContainerFormatException.class, "at byte 8"),
                new Row("gsd index entries 2^62", "gsd", "h.gsd", "gsd/sparse_chunks_and_gaps.gsd",
                        b -> putLong(b, 16, ByteOrder.LITTLE_ENDIAN, TWO_62), Map.of(), ContainerFormatException.class, "at byte 8"),
                new Row("gsd index entries negative", "gsd", "h.gsd", "gsd/sparse_chunks_and_gaps.gsd",
                        b -> putLong(b, 16, ByteOrder.LITTLE_ENDIAN, -1), Map.of(), ContainerFormatException.class, "at byte 8"),
                new Row("gsd index outside the file", "gsd", "h.gsd", "gsd/sparse_chunks_and_gaps.gsd",
                        b -> putLong(b, 8, ByteOrder.LITTLE_ENDIAN, 1L << 40), Map.of(), ContainerFormatException.class, "at byte 8"),
                new Row("gsd index over the header", "gsd", "h.gsd", "gsd/sparse_chunks_and_gaps.gsd",
                        b -> putLong(b, 8, ByteOrder.LITTLE_ENDIAN, 0), Map.of(), ContainerFormatException.class, "at byte 8"),
                new Row("gsd name list 2^62 entries", "gsd", "h.gsd", "gsd/sparse_chunks_and_gaps.gsd",
                        b -> putLong(b, 32, ByteOrder.LITTLE_ENDIAN, TWO_62), Map.of(), ContainerFormatException.class, "at byte 24"),
                new Row("gsd index entry of an earlier frame", "gsd", "h.gsd", "gsd/sparse_chunks_and_gaps.gsd",
                        b -> putLong(b, 448, ByteOrder.LITTLE_ENDIAN, 2), Map.of(), ContainerFormatException.class, "at byte 448"),
                new Row("gsd name list without NUL", "gsd", "h.gsd", "gsd/sparse_chunks_and_gaps.gsd",
                        b -> fill(b, 4352, 4352 + 16 * 64, (byte) 'A'), Map.of(), ContainerFormatException.class, "at byte 5375"),
                new Row("scda count with 26 digits", "scda", "h.scda", "scda/blocks.scda",
                        b -> put(b, 0xc2, "12345678901234567890123456 --\n"), Map.of(), ContainerFormatException.class, "from byte 224"),
                new Row("scda block size beyond the file", "scda", "h.scda", "scda/blocks.scda",
                        b -> put(b, 0xc2, "18446744073709551615 --------\n"), Map.of(), ContainerFormatException.class, "from byte 224"),
                new Row("scda A array of 2^31-1 elements of 0 bytes", "scda", "h.scda", "scda/arrays.scda",
                        b -> put(put(b, 0xc2, "2147483647 ------------------\n"), 0xe2, "0 ---------------------------\n"),
                        Map.of(), ContainerFormatException.class, "at byte 192"),
                new Row("g3 key length 2^62", "g3", "h.g3", "g3/test-le.g3",
                        b -> putLong(b, 13, ByteOrder.LITTLE_ENDIAN, TWO_62), Map.of(), ContainerFormatException.class, "at byte 13"),
                new Row("g3 blob length negative", "g3", "h.g3", "g3/test-le.g3",
                        b -> putLong(b, 24, ByteOrder.LITTLE_ENDIAN, -1), Map.of(), ContainerFormatException.class, "at byte 32"),
                new Row("g3 entry count 2^31-1", "g3", "h.g3", "g3/test-le.g3",
                        b -> putInt(b, 5, ByteOrder.LITTLE_ENDIAN, Integer.MAX_VALUE), Map.of(), ContainerFormatException.class, "at byte 0"),
                new Row("g3.gz bomb: a 2^40-byte blob", "g3", "h.g3.gz", null,
                        b -> gzipBomb(1L << 40, 8 << 20), Map.of(), ContainerFormatException.class, "at byte 0"),
                new Row("g3.gz bomb: 64 MiB of zeros past maxFrameBytes", "g3", "h.g3.gz", null,
                        b -> gzipBomb(64 << 20, 64 << 20), Map.of("maxFrameBytes", 1 << 20), ContainerFormatException.class, "at byte 0"),
                new Row("sion ntasks 2^31-1 in a tiny file", "sion", "h.sion", "sion/one_task_one_chunk.sion",
                        b -> putInt(b, 24, ByteOrder.LITTLE_ENDIAN, Integer.MAX_VALUE), Map.of(), ContainerFormatException.class, "at byte 2068"),
                new Row("sion chunk size 2^62", "sion", "h.sion", "sion/one_task_one_chunk.sion",
                        b -> putLong(b, 1076 + 8, ByteOrder.LITTLE_ENDIAN, TWO_62), Map.of(), ContainerFormatException.class, "at byte 1092"),
                new Row("sion chunks of 0 bytes in 2^31-1 block rows", "sion", "h.sion", "sion/one_task_one_chunk.sion",
                        b -> putInt(putLong(b, 1084, ByteOrder.LITTLE_ENDIAN, 0), 1092, ByteOrder.LITTLE_ENDIAN, Integer.MAX_VALUE),
                        Map.of(), ContainerFormatException.class, "at byte 2048"),
                new Row("sion start of metadata block 2 outside the file", "sion", "h.sion", "sion/one_task_one_chunk.sion",
                        b -> putLong(b, 1080 + 16, ByteOrder.LITTLE_ENDIAN, 1L << 50), Map.of(), ContainerFormatException.class, "at byte 1096"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void aHostileFieldGetsASpecificExceptionNamingItsOffset(Row row) throws Exception {
        Throwable thrown = catchThrowable(() -> openWalkAndRead(row, hostileBytes(row)));
        assertThat(thrown).as(row.name()).isInstanceOf(row.expected());
        assertThat(thrown.getMessage()).as(row.name()).contains(row.file()).contains(row.offset())
                .matches(DamagedVariantMessagesTest.SHAPE);
    }

    @org.junit.jupiter.api.Test
    void everyRowFailsTheSameWayWithA32MiBHeap() throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dcontainerfs.corpus=" + corpus(), "-cp", System.getProperty("java.class.path"),
                HostileInputsTest.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out.lines().filter(l -> l.startsWith("ok ")).count()).as(out).isEqualTo(rows().size());
    }

    /** The 32 MiB child: every row must end in its exception (an OutOfMemoryError escapes and fails the exit code). */
    public static void main(String[] args) throws Exception {
        for (Row row : rows()) {
            try {
                openWalkAndRead(row, hostileBytes(row));
                System.out.println("FAILED " + row.name() + ": no exception");
            } catch (ContainerFormatException e) {
                System.out.println((row.expected().isInstance(e) ? "ok " : "FAILED ") + row.name() + ": " + e);
            }
        }
    }

    static byte[] hostileBytes(Row row) throws IOException {
        byte[] base = row.corpus() == null ? new byte[0] : Files.readAllBytes(corpus().resolve(row.corpus()));
        return row.mutation().apply(base);
    }

    static void openWalkAndRead(Row row, byte[] data) throws IOException {
        try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
            Path file = mem.getPath("/" + row.file());
            Files.write(file, data);
            Map<String, Object> env = new HashMap<>(row.env());
            env.put("format", row.format());
            env.put("strict", true);
            try (FileSystem fs = ContainerFileSystems.provider(row.format()).newFileSystem(file, env);
                    Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                byte[] buf = new byte[8192];
                for (Path p : (Iterable<Path>) walk::iterator) {
                    Files.readAttributes(p, row.format() + ":*");
                    if (Files.isRegularFile(p)) {
                        try (InputStream in = Files.newInputStream(p)) {
                            while (in.read(buf) > 0) {
                                // read everything
                            }
                        }
                    }
                }
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
            }
        }
    }

    static Path corpus() {
        return Paths.get(System.getProperty("containerfs.corpus", "src/test/resources/corpus")).toAbsolutePath();
    }

    static byte[] putLong(byte[] b, int at, ByteOrder order, long v) {
        ByteBuffer.wrap(b).order(order).putLong(at, v);
        return b;
    }

    static byte[] putInt(byte[] b, int at, ByteOrder order, int v) {
        ByteBuffer.wrap(b).order(order).putInt(at, v);
        return b;
    }

    static byte[] put(byte[] b, int at, String s) {
        byte[] a = s.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(a, 0, b, at, a.length);
        return b;
    }

    static byte[] fill(byte[] b, int from, int to, byte v) {
        Arrays.fill(b, from, to, v);
        return b;
    }

    /** A .g3.gz whose one frame declares a blob of {@code declared} bytes, followed by {@code zeros} zero bytes. */
    static byte[] gzipBomb(long declared, int zeros) {
        ByteBuffer head = ByteBuffer.allocate(13 + 8 + 1 + 8).order(ByteOrder.LITTLE_ENDIAN);
        head.put((byte) 1).putInt(1).putInt(1).putInt(0x4e).putLong(1).put((byte) 'a').putLong(declared);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(head.array());
            byte[] block = new byte[1 << 16];
            for (int i = 0; i < zeros; i += block.length) {
                gz.write(block, 0, Math.min(block.length, zeros - i));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
