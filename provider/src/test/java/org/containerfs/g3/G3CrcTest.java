package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class G3CrcTest {

    /** Standard CRC-32C (init and final XOR ~0), as java.util.zip computes it. */
    private static int standard(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return (int) c.getValue();
    }

    /**
     * The G3 variant differs from the standard CRC-32C only in init and final XOR, and CRCs are linear:
     * raw(data) = standard(data) XOR standard(as many zero bytes), since raw(zeros) = 0.
     */
    private static int expectedRaw(int standardOfData, int length) {
        return standardOfData ^ standard(new byte[length]);
    }

    @Test
    void matchesTheStandardCheckValueTransformedToInitZeroAndNoFinalXor() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        int expected = expectedRaw(0xE3069283, check.length); // the published CRC-32C check value
        assertThat(G3Crc.of(check)).isEqualTo(expected);
        assertThat(G3TestSupport.slowCrc(check)).isEqualTo(expected);
    }

    @Test
    void matchesTheRfc3720VectorsTransformed() {
        byte[] zeros = new byte[32];
        byte[] ones = new byte[32];
        Arrays.fill(ones, (byte) 0xFF);
        byte[] ascending = new byte[32];
        for (int i = 0; i < 32; i++) {
            ascending[i] = (byte) i;
        }
        // iSCSI (RFC 3720 B.4) CRC-32C values of these 32-byte buffers
        assertThat(G3Crc.of(zeros)).isEqualTo(expectedRaw(0x8A9136AA, 32)).isZero();
        assertThat(G3Crc.of(ones)).isEqualTo(expectedRaw(0x62A8AB43, 32));
        assertThat(G3Crc.of(ascending)).isEqualTo(expectedRaw(0x46DD794E, 32));
    }

    @Test
    void agreesWithTheJdkAfterTheTransformOnRandomData() {
        Random random = new Random(7);
        for (int n : new int[] {0, 1, 3, 17, 1000, 65537}) {
            byte[] data = new byte[n];
            random.nextBytes(data);
            assertThat(G3Crc.of(data)).as("length %d", n).isEqualTo(expectedRaw(standard(data), n));
        }
    }

    /** Long runs go through the JDK's CRC32C and a shift of the start value: the same as the table, byte by byte. */
    @Test
    void longRunsFromAnyStartValueEqualTheByteByByteTable() {
        Random random = new Random(11);
        for (int n : new int[] {255, 256, 257, 4096, 100_003}) {
            byte[] data = new byte[n + 10];
            random.nextBytes(data);
            int start = random.nextInt();
            int slow = start;
            for (int i = 5; i < 5 + n; i++) {
                slow = G3Crc.update(slow, data, i, 1);
            }
            assertThat(G3Crc.update(start, data, 5, n)).as("length %d", n).isEqualTo(slow);
            java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(n);
            direct.put(data, 5, n).flip();
            assertThat(G3Crc.update(start, direct)).as("direct, length %d", n).isEqualTo(slow);
        }
    }

    /**
     * The combine step (the register carried over a run of zero bytes) against the JDK's CRC32C fed the
     * same run in 1 MiB chunks, at every power of two from 2^20 to 2^33 and one byte either side: a wrong
     * power table shows from 2^29 bytes on (issue 25, a wrapped zlib-style table). The run follows a prefix,
     * so the shifted register is an arbitrary value, not the all-ones start.
     */
    @Test
    void theShiftOverLongZeroRunsAgreesWithTheJdkAtEveryPowerOfTwoUpTo2To33() {
        byte[] prefix = "123456789".getBytes(StandardCharsets.US_ASCII);
        CRC32C jdk = new CRC32C();
        jdk.update(prefix);
        int afterPrefix = G3Crc.update(~0, prefix, 0, prefix.length); // the JDK's register, which starts at ~0
        assertThat(~afterPrefix).isEqualTo((int) jdk.getValue());
        java.nio.ByteBuffer zeros = java.nio.ByteBuffer.allocateDirect(1 << 20);
        long fed = 0;
        int checked = 0;
        for (int e = 20; e <= 33; e++) {
            for (long length : new long[] {(1L << e) - 1, 1L << e, (1L << e) + 1}) {
                for (long left = length - fed; left > 0; left -= zeros.limit()) {
                    zeros.clear().limit((int) Math.min(zeros.capacity(), left));
                    jdk.update(zeros);
                    zeros.flip();
                }
                fed = length;
                assertThat(~G3Crc.shift(afterPrefix, length)).as("a run of %d zero bytes", length)
                        .isEqualTo((int) jdk.getValue());
                checked++;
            }
        }
        assertThat(checked).isEqualTo(3 * 14);
    }

    @Test
    void chainsOverKeysAndBlobsLikeOneBuffer() {
        byte[] key = "Elevation".getBytes(StandardCharsets.US_ASCII);
        byte[] blob = {1, 2, 3, 4, 5};
        int chained = G3Crc.update(G3Crc.update(0, key, 0, key.length), blob, 0, blob.length);
        byte[] both = new byte[key.length + blob.length];
        System.arraycopy(key, 0, both, 0, key.length);
        System.arraycopy(blob, 0, both, key.length, blob.length);
        assertThat(chained).isEqualTo(G3Crc.of(both)).isEqualTo(G3TestSupport.slowCrc(key, blob));
    }

    @Test
    void theEmptyFrameCrcIsZeroAndLeadingZerosDoNotChangeIt() {
        assertThat(G3Crc.of(new byte[0])).isZero();
        assertThat(G3Crc.of(new byte[] {0, 0, 0, 42})).isEqualTo(G3Crc.of(new byte[] {42}));
    }

    @Test
    void theStoredCrcOfTheUpstreamFileMatches() throws Exception {
        byte[] file = G3TestSupport.corpusBytes("test-le.g3");
        int stored = java.nio.ByteBuffer.wrap(file, file.length - 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        // entries: "Map" (93-byte blob) from byte 13: u64 len, key, u64 len, blob ...
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int pos = 13;
        int crc = 0;
        for (int i = 0; i < 4; i++) {
            int kl = (int) b.getLong(pos);
            crc = G3Crc.update(crc, file, pos + 8, kl);
            pos += 8 + kl;
            int bl = (int) b.getLong(pos);
            crc = G3Crc.update(crc, file, pos + 8, bl);
            pos += 8 + bl;
        }
        assertThat(pos).isEqualTo(file.length - 4);
        assertThat(crc).isEqualTo(stored);
    }
}
