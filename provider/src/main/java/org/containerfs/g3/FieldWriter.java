package org.containerfs.g3;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/**
 * What an index is written through (a {@code .zidx}, an index cache snapshot), the counterpart of
 * {@link FieldReader}. An index is a few million fields of one to eight bytes, each a call into the stream below:
 * BufferedOutputStream and ByteArrayOutputStream take a lock for every one of them (a third of a save's time, on
 * the path of a first open). This buffer takes none, and for a file sums the CRC-32C a chunk at a time.
 */
final class FieldWriter extends OutputStream {
    private final OutputStream out;
    private final CRC32C sum;
    private final byte[] buffer = new byte[1 << 16];
    private int length;

    private FieldWriter(OutputStream out, CRC32C sum) {
        this.out = out;
        this.sum = sum;
    }

    /** Writes through to {@code out}, keeping the CRC-32C of every byte for {@link #checksum()}. */
    static FieldWriter summing(OutputStream out) {
        return new FieldWriter(out, new CRC32C());
    }

    /** Writes through to {@code out}. */
    static FieldWriter to(OutputStream out) {
        return new FieldWriter(out, null);
    }

    @Override
    public void write(int b) throws IOException {
        if (length == buffer.length) {
            drain();
        }
        buffer[length++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (len > buffer.length - length) {
            drain();
            if (len > buffer.length) {
                if (sum != null) {
                    sum.update(b, off, len);
                }
                out.write(b, off, len);
                return;
            }
        }
        System.arraycopy(b, off, buffer, length, len);
        length += len;
    }

    /** The CRC-32C of every byte written so far, the bytes still buffered included (a {@link #summing} writer). */
    int checksum() throws IOException {
        drain();
        return (int) sum.getValue();
    }

    private void drain() throws IOException {
        if (sum != null) {
            sum.update(buffer, 0, length);
        }
        out.write(buffer, 0, length);
        length = 0;
    }

    @Override
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    @Override
    public void close() throws IOException {
        try (out) {
            drain();
        }
    }
}
