package org.containerfs.g3;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The frame checksum of spt3g: CRC-32C (reflected polynomial 0x82F63B78) with initial value 0 and
 * no final inversion, unlike {@link java.util.zip.CRC32C}, which starts from and ends with ~0.
 * Chained over the key bytes and blob bytes of every entry (g3.md section 2).
 */
public final class G3Crc {
    private static final int[] TABLE = new int[256];

    static {
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
            }
            TABLE[n] = c;
        }
    }

    private G3Crc() {}

    /**
     * A 32-bit checksum as users see it everywhere (attributes, info, messages): unsigned decimal with
     * its hex form, e.g. {@code 2969914470 (0xb105c2a6)}. Attributes hold the same value as a long.
     */
    static String show(long unsigned32) {
        return String.format(java.util.Locale.ROOT, "%d (0x%08x)", unsigned32 & 0xFFFFFFFFL, unsigned32 & 0xFFFFFFFFL);
    }

    /** Below this many bytes the table loop is faster than the intrinsic plus the shift. */
    private static final int INTRINSIC_FROM = 256;
    private static final int POLY = 0x82F63B78;
    /**
     * X2N[k] = x^(2^k) modulo the polynomial, reflected, for every k a shift of a 64-bit byte count
     * reaches (3 + 63). zlib's crc32_combine keeps 32 entries and wraps k at 32, which holds only because
     * x^(2^32) = x modulo its own polynomial; modulo Castagnoli's it is not, and a wrapped table gives a
     * wrong CRC for every run of 2^29 bytes or more.
     */
    private static final int[] X2N = new int[3 + 64];

    static {
        int p = 1 << 30; // x^1
        X2N[0] = p;
        for (int k = 1; k < X2N.length; k++) {
            p = multiply(p, p);
            X2N[k] = p;
        }
    }

    /**
     * Continues {@code crc} over {@code len} bytes of {@code b}; start a frame with 0. Long runs use
     * {@link CRC32C} (a CPU instruction where there is one): spt3g's register starts at {@code crc} and is
     * not inverted, the JDK's starts at ~0 and is inverted at the end, and since a CRC is linear the two
     * differ by the effect of {@code ~crc} on {@code len} zero bytes: {@code ~CRC32C(b) ^ shift(~crc, len)}.
     */
    public static int update(int crc, byte[] b, int off, int len) {
        if (len >= INTRINSIC_FROM) {
            CRC32C c = new CRC32C();
            c.update(b, off, len);
            return ~(int) c.getValue() ^ shift(~crc, len);
        }
        int c = crc;
        for (int i = off, end = off + len; i < end; i++) {
            c = TABLE[(c ^ b[i]) & 0xFF] ^ (c >>> 8);
        }
        return c;
    }

    /** Continues {@code crc} over the remaining bytes of {@code buf} (its position moves to its limit). */
    public static int update(int crc, ByteBuffer buf) {
        int n = buf.remaining();
        if (buf.hasArray()) {
            int c = update(crc, buf.array(), buf.arrayOffset() + buf.position(), n);
            buf.position(buf.limit());
            return c;
        }
        if (n >= INTRINSIC_FROM) {
            CRC32C c = new CRC32C();
            c.update(buf);
            return ~(int) c.getValue() ^ shift(~crc, n);
        }
        int c = crc;
        while (buf.hasRemaining()) {
            c = TABLE[(c ^ buf.get()) & 0xFF] ^ (c >>> 8);
        }
        return c;
    }

    /**
     * The register {@code v} after {@code len} zero bytes (len read as unsigned): v times x^(8 len),
     * computed as zlib's crc32_combine does but without its table wrap.
     */
    static int shift(int v, long len) {
        int p = 1 << 31; // x^0
        int k = 3; // 8 = 2^3 bits a byte
        for (long n = len; n != 0; n >>>= 1, k++) {
            if ((n & 1) != 0) {
                p = multiply(X2N[k], p);
            }
        }
        return multiply(p, v);
    }

    /** a times b modulo the polynomial, both reflected. */
    private static int multiply(int a, int b) {
        int m = 1 << 31;
        int p = 0;
        while (true) {
            if ((a & m) != 0) {
                p ^= b;
                if ((a & (m - 1)) == 0) {
                    break;
                }
            }
            m >>>= 1;
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1;
        }
        return p;
    }

    public static int of(byte[] b) {
        return update(0, b, 0, b.length);
    }
}
