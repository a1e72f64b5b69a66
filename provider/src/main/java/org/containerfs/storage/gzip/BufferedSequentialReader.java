package org.containerfs.storage.gzip;

import java.io.IOException;

/**
 * Read and skip of a decompressed stream, written once for the inflaters: a subclass makes the next
 * bytes available as {@code buffer[readPos, readEnd)} in {@link #refill()}.
 */
public abstract class BufferedSequentialReader implements SequentialReader {
    protected byte[] buffer;
    protected int readPos;
    protected int readEnd;
    private long consumed;

    /** Makes more bytes available after the last ones were taken; false at the end of the stream. */
    protected abstract boolean refill() throws IOException;

    @Override
    public long position() {
        return consumed;
    }

    @Override
    public long remaining() {
        return -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int done = 0;
        while (done < len) {
            if (readPos == readEnd && !refill()) {
                break;
            }
            int n = Math.min(len - done, readEnd - readPos);
            System.arraycopy(buffer, readPos, b, off + done, n);
            readPos += n;
            done += n;
        }
        consumed += done;
        return done;
    }

    @Override
    public long skip(long n) throws IOException {
        return skip(n, null);
    }

    /** What {@link #skip(long, Visitor)} shows the skipped bytes to. */
    @FunctionalInterface
    public interface Visitor {
        void bytes(byte[] b, int off, int len);
    }

    /**
     * Skips up to {@code n} bytes as {@link #skip(long)} does, showing each one to {@code visitor} (in order, in
     * slices it must not keep). Skipping costs as much as reading here (the stream is inflated either way), so the
     * scan checks every frame's CRC on its way over the bytes, without a copy and without a second pass later.
     */
    public long skip(long n, Visitor visitor) throws IOException {
        long done = 0;
        while (done < n) {
            if (readPos == readEnd && !refill()) {
                break;
            }
            int k = (int) Math.min(n - done, readEnd - readPos);
            if (visitor != null) {
                visitor.bytes(buffer, readPos, k);
            }
            readPos += k;
            done += k;
        }
        consumed += done;
        return done;
    }
}
