package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code put} of a 4 GiB + 1 byte file into each format (G3: the value the issue saw marked DAMAGED, as every
 * value of 2^29 bytes or more got a wrong CRC): put, verified sound and read back byte for byte. The source is a sparse file whose
 * only data are markers across the 2^31 and 2^32 boundaries, the last one ending at its last byte, so a copy
 * that wraps an int offset or drops the last byte puts a marker in the wrong place.
 */
class BigPutTest {
    private static final long SIZE = (1L << 32) + 1;
    /** Each marker is its offset as text; the last, cut short by the end, covers 2^32 and the last byte. */
    private static final long[] MARKERS = {0, (1L << 31) - 3, (1L << 32) - 5};

    @TempDir
    Path tmp;

    /** A sparse file of {@code SIZE} bytes with a marker (its own offset as text) at each of {@link #MARKERS}. */
    private Path sparseSource() throws IOException {
        Path source = tmp.resolve("source.bin");
        try (FileChannel out = FileChannel.open(source, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.SPARSE)) {
            for (long at : MARKERS) {
                byte[] text = ("@" + at).getBytes(StandardCharsets.US_ASCII);
                out.write(ByteBuffer.wrap(text, 0, (int) Math.min(text.length, SIZE - at)), at);
            }
        }
        assertThat(Files.size(source)).isEqualTo(SIZE);
        return source;
    }

    /** One unit per format, each into a new container that {@code put} creates; G3 is the issue's DAMAGED case. */
    @ParameterizedTest
    @CsvSource({"big.g3, /000000.Scan/big", "big.lime, /msg01/rec01.big", "big.gsd, /0/big", "big.scda, /0000.B.big",
            "big.sion, /task000000"})
    void aUnitOf4GibPlusOneByteIsPutVerifiedAndReadBackExactly(String name, String unitPath) throws IOException {
        Path source = sparseSource();
        Path container = tmp.resolve(name);
        Cli.Result put = Cli.run("put", container, unitPath, source);
        assertThat(put.status()).as(put.stderr()).isZero();
        Cli.Result verify = Cli.run("verify", container);
        assertThat(verify.status()).as(verify.stdout() + verify.stderr()).isZero();
        try (FileSystem fs = ContainerFileSystems.open(container);
                SeekableByteChannel unit = Files.newByteChannel(fs.getPath(unitPath));
                FileChannel original = FileChannel.open(source)) {
            assertThat(unit.size()).isEqualTo(SIZE);
            assertSameBytes(original, unit);
        }
        Files.delete(container);
        Files.delete(source);
    }

    /** Reads both channels to their end, a MiB at a time, and fails at the first offset where they differ. */
    private static void assertSameBytes(SeekableByteChannel expected, SeekableByteChannel actual) throws IOException {
        ByteBuffer a = ByteBuffer.allocate(1 << 20);
        ByteBuffer b = ByteBuffer.allocate(1 << 20);
        long at = 0;
        while (true) {
            int n = readBlock(expected, a);
            int m = readBlock(actual, b);
            int differs = Arrays.mismatch(a.array(), 0, n, b.array(), 0, m);
            assertThat(differs).as("first differing byte after %d", at).isNegative();
            if (n == 0) {
                return;
            }
            at += n;
        }
    }

    private static int readBlock(SeekableByteChannel in, ByteBuffer into) throws IOException {
        into.clear();
        while (into.hasRemaining() && in.read(into) >= 0) {
            // until full or at the end
        }
        return into.position();
    }
}
