package org.containerfs.g3;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The polymorphic header every blob starts with (g3.md section 3): endian flag, polymorphic id,
 * class name, shared-pointer id, class version of the concrete class, then (for G3FrameObject
 * subclasses) the base class version. Parsing it is cheap and needs no knowledge of the class.
 */
record BlobHeader(ByteOrder order, String typeName, long classVersion, int fieldsStart) {
    static final int POLY_NAMED = 0x80000000;
    static final int POLY_BASE = 0x40000000;
    /** Bytes read to find a header: enough for any realistic class name. */
    static final int MAX_HEADER = 1024;

    /** Parses the start of a blob, or returns null if it is not a cereal polymorphic pointer header. */
    static BlobHeader parse(ByteBuffer head) {
        ByteBuffer b = head.duplicate();
        if (b.remaining() < 5) {
            return null;
        }
        int flag = b.get() & 0xFF;
        if (flag > 1) {
            return null;
        }
        b.order(flag == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        int id = b.getInt();
        String name;
        if (id == POLY_BASE) {
            name = "G3FrameObject";
        } else if ((id & POLY_NAMED) != 0) {
            if (b.remaining() < 8) {
                return null;
            }
            long len = b.getLong();
            if (len < 0 || len > b.remaining()) {
                return null;
            }
            byte[] n = new byte[(int) len];
            b.get(n);
            name = new String(n, StandardCharsets.UTF_8);
        } else {
            return null;
        }
        if (b.remaining() < 8) {
            return null;
        }
        b.getInt(); // shared-pointer id
        long version = b.getInt() & 0xFFFFFFFFL;
        return new BlobHeader(b.order(), name, version, b.position() - head.position());
    }
}
