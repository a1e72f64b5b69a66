package org.containerfs.g3;

import java.nio.ByteBuffer;

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

    /** Continues {@code crc} over {@code len} bytes of {@code b}; start a frame with 0. */
    public static int update(int crc, byte[] b, int off, int len) {
        int c = crc;
        for (int i = off, end = off + len; i < end; i++) {
            c = TABLE[(c ^ b[i]) & 0xFF] ^ (c >>> 8);
        }
        return c;
    }

    /** Continues {@code crc} over the remaining bytes of {@code buf} (its position moves to its limit). */
    public static int update(int crc, ByteBuffer buf) {
        int c = crc;
        if (buf.hasArray()) {
            int n = buf.remaining();
            c = update(c, buf.array(), buf.arrayOffset() + buf.position(), n);
            buf.position(buf.limit());
            return c;
        }
        while (buf.hasRemaining()) {
            c = TABLE[(c ^ buf.get()) & 0xFF] ^ (c >>> 8);
        }
        return c;
    }

    public static int of(byte[] b) {
        return update(0, b, 0, b.length);
    }
}
