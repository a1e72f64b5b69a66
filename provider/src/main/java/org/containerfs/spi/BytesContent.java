package org.containerfs.spi;

import java.nio.ByteBuffer;

/** Small content held in memory: decoded headers, staged values, synthetic files. */
public final class BytesContent implements Content {
    private final byte[] bytes;

    public BytesContent(byte[] bytes) {
        this.bytes = bytes;
    }

    @Override
    public long size() {
        return bytes.length;
    }

    @Override
    public int read(ByteBuffer dst, long position) {
        if (position >= bytes.length) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), bytes.length - position);
        dst.put(bytes, (int) position, n);
        return n;
    }
}
