package org.containerfs.storage.gzip;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The empty block decodes to nothing, keeps the dictionary, and ends exactly {@code shift} bits into its last byte. */
class EmptyBlockPrefixTest {

    /**
     * Prefix, then a byte-aligned stored block written by hand right after it: the stored block's
     * length fields only line up if the prefix ends where it claims (a misplaced end reads them from
     * the wrong bits: "invalid stored block lengths").
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    void aStoredBlockAfterThePrefixIsReadAsWritten(int shift) throws Exception {
        byte[] prefix = EmptyBlockPrefix.endingAtBit(shift);
        byte[] payload = "after the prefix".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write(prefix, 0, prefix.length - 1);
        // the last prefix byte carries the final stored block's 3 header bits (1, 00) at bit `shift`;
        // a header that crosses the byte boundary continues in a byte of zero padding
        int last = prefix[prefix.length - 1] & ((1 << shift) - 1);
        in.write(last | (1 << shift) & 0xFF);
        if (shift > 5) {
            in.write(0);
        }
        in.write(payload.length & 0xFF);
        in.write(payload.length >>> 8);
        in.write(~payload.length & 0xFF);
        in.write((~payload.length >>> 8) & 0xFF);
        in.write(payload, 0, payload.length);
        assertThat(inflate(in.toByteArray(), null)).isEqualTo(payload);
    }

    /** With a preset dictionary, back-references of the blocks after the prefix still reach into it. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    void theDictionarySurvivesThePrefix(int shift) throws Exception {
        byte[] dictionary = new byte[32 * 1024];
        new Random(shift).nextBytes(dictionary);
        byte[] data = Arrays.copyOfRange(dictionary, 1000, 9000); // compresses to back-references only
        Deflater deflater = new Deflater(6, true);
        deflater.setDictionary(dictionary);
        deflater.setInput(data);
        deflater.finish();
        byte[] buf = new byte[64 * 1024];
        int n = deflater.deflate(buf);
        deflater.end();
        assertThat(n).isLessThan(200);
        // the compressed stream starts on a byte boundary: put `shift` zero bits of "previous block" below it
        byte[] shifted = new byte[n + 1];
        for (int i = 0; i <= n; i++) {
            int lo = i > 0 ? (buf[i - 1] & 0xFF) >>> (8 - shift) : 0;
            int hi = i < n ? (buf[i] & 0xFF) << shift : 0;
            shifted[i] = (byte) (lo | hi);
        }
        byte[] prefix = EmptyBlockPrefix.endingAtBit(shift);
        byte[] in = Arrays.copyOf(prefix, prefix.length + n);
        int mask = (1 << shift) - 1;
        in[prefix.length - 1] = (byte) ((prefix[prefix.length - 1] & mask) | (shifted[0] & ~mask));
        System.arraycopy(shifted, 1, in, prefix.length, n);
        assertThat(inflate(in, dictionary)).isEqualTo(data);
    }

    private static byte[] inflate(byte[] input, byte[] dictionary) throws Exception {
        Inflater inflater = new Inflater(true);
        try {
            if (dictionary != null) {
                inflater.setDictionary(dictionary);
            }
            inflater.setInput(input);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            while (!inflater.finished()) {
                int k = inflater.inflate(buf);
                if (k == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new AssertionError("inflater stopped early: " + out.size() + " bytes out");
                }
                out.write(buf, 0, k);
            }
            return out.toByteArray();
        } finally {
            inflater.end();
        }
    }
}
