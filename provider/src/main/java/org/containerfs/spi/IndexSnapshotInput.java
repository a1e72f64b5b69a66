package org.containerfs.spi;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads an index snapshot written by {@link IndexSnapshotOutput}. A snapshot is untrusted input: every
 * read that would run past its end, a varint over 63 bits and a count or length larger than the
 * bytes left (or than the limit the format gives) throws {@link ContainerFormatException} naming the
 * container, the snapshot and the byte offset in it, so a crafted entry can neither size an
 * allocation nor make the reader loop.
 */
public final class IndexSnapshotInput {
    private final ByteBuffer in;
    private final String name;

    public IndexSnapshotInput(ByteBuffer snapshot, String containerName) {
        this.in = snapshot.slice();
        this.name = containerName + " (index cache snapshot)";
    }

    private ContainerFormatException bad(String expected, String found) {
        return new ContainerFormatException(name, in.position(), null, expected, found);
    }

    private void need(int n) throws ContainerFormatException {
        if (in.remaining() < n) {
            throw bad(n + " more bytes", "the snapshot ends after " + in.remaining());
        }
    }

    public int remaining() {
        return in.remaining();
    }

    public int readByte() throws ContainerFormatException {
        need(1);
        return in.get() & 0xFF;
    }

    public long readVarLong() throws ContainerFormatException {
        long v = 0;
        for (int shift = 0; shift < 63; shift += 7) {
            int b = readByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (v < 0) {
                    break;
                }
                return v;
            }
        }
        throw bad("a varint below 2^63", "a longer one");
    }

    /** A varint that must lie in [0, max]. */
    public long readVarLong(long max, String what) throws ContainerFormatException {
        long v = readVarLong();
        if (v > max) {
            throw bad(what + " of at most " + max, Long.toString(v));
        }
        return v;
    }

    /** A count of items of at least {@code minBytesEach} bytes each: bounded by what is left. */
    public int readCount(int minBytesEach, long max, String what) throws ContainerFormatException {
        long limit = Math.min(max, minBytesEach <= 0 ? max : in.remaining() / minBytesEach);
        return (int) readVarLong(Math.min(limit, Integer.MAX_VALUE - 16), what);
    }

    public long readLong() throws ContainerFormatException {
        need(8);
        return in.getLong();
    }

    public int readInt() throws ContainerFormatException {
        need(4);
        return in.getInt();
    }

    public byte[] readBytes(int max, String what) throws ContainerFormatException {
        int n = (int) readVarLong(Math.min(max, in.remaining()), what + " length");
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }

    public String readNullableString() throws ContainerFormatException {
        return readByte() == 0 ? null : new String(readBytes(Integer.MAX_VALUE, "string"), StandardCharsets.UTF_8);
    }

    /** Ends reading: the snapshot must have no bytes left. */
    public void end() throws ContainerFormatException {
        if (in.hasRemaining()) {
            throw bad("the end of the snapshot", in.remaining() + " more bytes");
        }
    }

    /** A consistency failure the format found, at the current offset. */
    public ContainerFormatException inconsistent(String expected, String found) {
        return bad(expected, found);
    }
}
