package org.containerfs.g3;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The fields of a persisted index ({@code .zidx}, an index cache snapshot) as DataOutputStream wrote them, big-endian,
 * read from a buffer: the whole snapshot, or 64 KiB at a time of a file with its CRC-32C summed a buffer at a time.
 * An index is a few million fields; through DataInputStream each was a call into the stream below and, for the
 * file, a checksum update of its 4 or 8 bytes, which dominated the reopen of a large .g3.gz's index.
 */
final class FieldReader implements DataInput {
    private final InputStream in; // null: the buffer holds everything
    private final CRC32C sum;
    private final ByteBuffer buffer;
    private int summed; // buffer[summed, position) is read and not yet in the sum

    private FieldReader(InputStream in, ByteBuffer buffer, CRC32C sum) {
        this.in = in;
        this.buffer = buffer;
        this.sum = sum;
        this.summed = buffer.position();
    }

    /** The fields of {@code snapshot}'s remaining bytes (read in place, not copied). */
    static FieldReader of(ByteBuffer snapshot) {
        return new FieldReader(null, snapshot.slice(), null);
    }

    /** The fields of a stream, with the CRC-32C of what was read kept for {@link #checksum()}. */
    static FieldReader summing(InputStream in) {
        return new FieldReader(in, ByteBuffer.allocate(1 << 16).flip(), new CRC32C());
    }

    /** The CRC-32C of every byte read so far (a {@link #summing} reader only). */
    int checksum() {
        addToSum();
        return (int) sum.getValue();
    }

    /** Whether every byte has been read. */
    boolean atEnd() throws IOException {
        return !buffer.hasRemaining() && !fill(1);
    }

    /** Bytes read since the start (of the snapshot; of the buffer for a stream, for messages only). */
    int position() {
        return buffer.position();
    }

    private void addToSum() {
        if (sum != null && buffer.position() > summed) {
            sum.update(buffer.array(), buffer.arrayOffset() + summed, buffer.position() - summed);
        }
        summed = buffer.position();
    }

    /** Makes {@code n} bytes available, or false at the end of the stream. */
    private boolean fill(int n) throws IOException {
        if (in == null) {
            return buffer.remaining() >= n;
        }
        addToSum();
        buffer.compact();
        try {
            while (buffer.position() < n) {
                int r = in.read(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
                if (r < 0) {
                    break;
                }
                buffer.position(buffer.position() + r);
            }
        } finally {
            buffer.flip();
            summed = 0;
        }
        return buffer.remaining() >= n;
    }

    private ByteBuffer need(int n) throws IOException {
        if (buffer.remaining() < n && !fill(n)) {
            throw new EOFException("the index ends inside a field of " + n + " bytes");
        }
        return buffer;
    }

    @Override
    public long readLong() throws IOException {
        return need(8).getLong();
    }

    @Override
    public int readInt() throws IOException {
        return need(4).getInt();
    }

    @Override
    public short readShort() throws IOException {
        return need(2).getShort();
    }

    @Override
    public int readUnsignedShort() throws IOException {
        return need(2).getShort() & 0xFFFF;
    }

    @Override
    public char readChar() throws IOException {
        return need(2).getChar();
    }

    @Override
    public byte readByte() throws IOException {
        return need(1).get();
    }

    @Override
    public int readUnsignedByte() throws IOException {
        return need(1).get() & 0xFF;
    }

    @Override
    public boolean readBoolean() throws IOException {
        return need(1).get() != 0;
    }

    @Override
    public float readFloat() throws IOException {
        return need(4).getFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return need(8).getDouble();
    }

    @Override
    public void readFully(byte[] b) throws IOException {
        readFully(b, 0, b.length);
    }

    @Override
    public void readFully(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (!buffer.hasRemaining() && !fill(1)) {
                throw new EOFException("the index ends inside a field of " + len + " more bytes");
            }
            int n = Math.min(len, buffer.remaining());
            buffer.get(b, off, n);
            off += n;
            len -= n;
        }
    }

    @Override
    public int skipBytes(int n) throws IOException {
        int skipped = 0;
        while (skipped < n && (buffer.hasRemaining() || fill(1))) {
            int k = Math.min(n - skipped, buffer.remaining());
            buffer.position(buffer.position() + k);
            skipped += k;
        }
        return skipped;
    }

    @Override
    public String readUTF() throws IOException {
        return DataInputStream.readUTF(this);
    }

    /** Not in any index: lines are no field DataOutputStream writes. */
    @Override
    public String readLine() {
        throw new UnsupportedOperationException("readLine");
    }
}
