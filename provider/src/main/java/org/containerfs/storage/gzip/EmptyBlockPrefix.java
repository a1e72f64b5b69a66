package org.containerfs.storage.gzip;

/**
 * Deflate bits that decode to nothing and leave the inflater at a chosen bit position within a
 * byte: how a read starts at a restart point that is not on a byte boundary without zlib's
 * inflatePrime, which java.util.zip does not expose.
 *
 * <p>The bits are one non-final dynamic-Huffman block holding only an end-of-block symbol: literal
 * and distance codes where symbol 256 alone has a length (zlib accepts a single one-bit code), and a
 * complete code-length code {18: 1 bit, 0 and 1: 2 bits}. Its length is {@code 38 + 3e + 2k} bits for
 * e code-length code lengths sent (18 or 19) and k zeros sent singly instead of in a run, which
 * reaches every residue mod 8. It writes nothing to the window, so a preset dictionary stays intact.
 */
public final class EmptyBlockPrefix {
    /** Bytes of the longest prefix. */
    public static final int MAX_BYTES = 16;
    /** Order in which code-length code lengths are sent (RFC 1951 3.2.7). */
    private static final int[] CODE_LENGTH_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    private static final byte[][] BY_SHIFT = new byte[8][];

    static {
        for (int shift = 1; shift < 8; shift++) {
            BY_SHIFT[shift] = build(shift);
        }
    }

    private EmptyBlockPrefix() {}

    /**
     * The prefix whose bits end {@code shift} bits (1-7) into its last byte: the caller keeps those
     * low bits of the last byte and puts the first compressed byte's high {@code 8 - shift} bits above them.
     */
    public static byte[] endingAtBit(int shift) {
        if (shift < 1 || shift > 7) {
            throw new IllegalArgumentException("shift " + shift);
        }
        return BY_SHIFT[shift];
    }

    /**
     * Writes to {@code dst} (at least {@code n + MAX_BYTES} long) the input that starts a raw inflater
     * {@code shift} bits (1-7) into {@code raw[0]}: the prefix, whose last byte takes the high bits of
     * {@code raw[0]}, then {@code raw[1..n)}. Returns the length written.
     */
    public static int primed(int shift, byte[] raw, int n, byte[] dst) {
        byte[] prefix = endingAtBit(shift);
        System.arraycopy(prefix, 0, dst, 0, prefix.length);
        int at = prefix.length - 1;
        int mask = (1 << shift) - 1;
        dst[at] = (byte) ((prefix[at] & mask) | (raw[0] & ~mask));
        System.arraycopy(raw, 1, dst, at + 1, n - 1);
        return at + n;
    }

    private static byte[] build(int shift) {
        int sent = 18 + (shift % 2 == 1 ? 1 : 0); // 38 + 3*18 = 92 = 4 mod 8; 19 lengths make it 7 mod 8
        int base = (38 + 3 * sent) % 8;
        int singles = Math.floorMod(shift - base, 8) / 2;
        Bits bits = new Bits();
        bits.put(0, 1); // BFINAL = 0: the real blocks follow
        bits.put(2, 2); // BTYPE = 2, dynamic Huffman
        bits.put(0, 5); // HLIT: 257 literal/length codes
        bits.put(0, 5); // HDIST: 1 distance code
        bits.put(sent - 4, 4); // HCLEN
        for (int i = 0; i < sent; i++) {
            int symbol = CODE_LENGTH_ORDER[i];
            bits.put(symbol == 18 ? 1 : symbol == 0 || symbol == 1 ? 2 : 0, 3);
        }
        // code lengths of literals 0-255 (all 0), of 256 (1), of distance 0 (0)
        bits.code(0b0, 1).put(138 - 11, 7); // 18: a run of 138 zeros
        bits.code(0b0, 1).put(118 - singles - 11, 7); // 18: the rest of the 256, less the single ones
        for (int i = 0; i < singles; i++) {
            bits.code(0b10, 2); // 0
        }
        bits.code(0b11, 2); // 1: end-of-block gets the one-bit code
        bits.code(0b10, 2); // 0: no distance codes
        bits.code(0b0, 1); // end of block
        if (bits.length % 8 != shift) {
            throw new AssertionError("empty block of " + bits.length + " bits for shift " + shift);
        }
        return java.util.Arrays.copyOf(bits.bytes, (bits.length + 7) / 8);
    }

    /** Deflate's bit order: fields least significant bit first, Huffman codes most significant bit first. */
    private static final class Bits {
        final byte[] bytes = new byte[MAX_BYTES];
        int length;

        Bits put(int value, int count) {
            for (int i = 0; i < count; i++) {
                bit((value >>> i) & 1);
            }
            return this;
        }

        Bits code(int code, int count) {
            for (int i = count - 1; i >= 0; i--) {
                bit((code >>> i) & 1);
            }
            return this;
        }

        private void bit(int b) {
            bytes[length >>> 3] |= (byte) (b << (length & 7));
            length++;
        }
    }
}
