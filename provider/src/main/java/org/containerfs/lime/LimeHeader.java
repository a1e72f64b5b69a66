package org.containerfs.lime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The 144-byte record header as c-lime writes it (lime.md section 1): all numbers big-endian. */
final class LimeHeader {
    static final int MAGIC = 0x456789AB;
    static final int SIZE = 144;
    static final int TYPE_FIELD = 128;
    static final int MAX_WRITTEN_TYPE = 127;
    static final int FLAGS_OFFSET = 6;
    static final int MB = 0x80;
    static final int ME = 0x40;

    private LimeHeader() {}

    /** Zero padding after a payload of {@code length} bytes, so the next record starts 8-aligned. */
    static int padding(long length) {
        return (int) ((8 - (length & 7)) & 7);
    }

    /** Encodes a header byte-identical to c-lime's writer: version 1, zero reserved bits, NUL-filled type. */
    static ByteBuffer encode(boolean mb, boolean me, long length, byte[] type) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.BIG_ENDIAN);
        b.putInt(MAGIC);
        b.putShort((short) 1);
        b.put((byte) ((mb ? MB : 0) | (me ? ME : 0)));
        b.put((byte) 0);
        b.putLong(length);
        b.put(type);
        return b.position(SIZE).flip();
    }

    /** The type: bytes up to the first NUL, or all 128 (old writers stored 128 characters with no NUL). */
    static byte[] type(ByteBuffer header, int start) {
        int n = 0;
        while (n < TYPE_FIELD && header.get(start + 16 + n) != 0) {
            n++;
        }
        byte[] t = new byte[n];
        header.get(start + 16, t);
        return t;
    }
}
