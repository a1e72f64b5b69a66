package org.containerfs.spi;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds the bytes of an index snapshot ({@link Container#exportIndex()}): unsigned varints for
 * counts, offsets and lengths (most are small), fixed-width values where they are not.
 * {@link IndexSnapshotInput} reads them back with bounds checks.
 */
public final class IndexSnapshotOutput {
    private byte[] buf;
    private int size;

    public IndexSnapshotOutput(int expectedBytes) {
        buf = new byte[Math.max(64, expectedBytes)];
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            long cap = Math.max((long) buf.length * 2, (long) size + more);
            if (cap > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("an index snapshot over 2 GiB");
            }
            buf = Arrays.copyOf(buf, (int) cap);
        }
    }

    public IndexSnapshotOutput writeByte(int b) {
        ensure(1);
        buf[size++] = (byte) b;
        return this;
    }

    /** An unsigned LEB128 varint; {@code v} must not be negative. */
    public IndexSnapshotOutput writeVarLong(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("negative varint " + v);
        }
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
        return this;
    }

    public IndexSnapshotOutput writeLong(long v) {
        ensure(8);
        for (int i = 7; i >= 0; i--) {
            buf[size++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    public IndexSnapshotOutput writeInt(int v) {
        ensure(4);
        for (int i = 3; i >= 0; i--) {
            buf[size++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    /** A length (varint) and the bytes. */
    public IndexSnapshotOutput writeBytes(byte[] b) {
        writeVarLong(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
        return this;
    }

    /** A string that may be null (as UTF-8 bytes after a presence byte). */
    public IndexSnapshotOutput writeNullableString(String s) {
        writeByte(s == null ? 0 : 1);
        if (s != null) {
            writeBytes(s.getBytes(StandardCharsets.UTF_8));
        }
        return this;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }
}
