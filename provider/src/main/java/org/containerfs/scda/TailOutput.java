package org.containerfs.scda;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.containerfs.spi.ContainerChannel;

/** Sequential buffered writes at increasing offsets of the container, remembering the last byte. */
final class TailOutput {
    private final ContainerChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(256 * 1024);
    private long flushed;
    private long written;
    private int last = -1;

    TailOutput(ContainerChannel channel, long position) {
        this.channel = channel;
        this.flushed = position;
    }

    /** Offset the next byte goes to. */
    long position() {
        return flushed + buffer.position();
    }

    /** Bytes written through this output. */
    long written() {
        return written;
    }

    /** The last byte written, or -1. */
    int last() {
        return last;
    }

    void write(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return;
        }
        last = b[off + len - 1] & 0xFF;
        written += len;
        while (len > 0) {
            if (!buffer.hasRemaining()) {
                flush();
            }
            int n = Math.min(len, buffer.remaining());
            buffer.put(b, off, n);
            off += n;
            len -= n;
        }
    }

    void write(ByteBuffer src) throws IOException {
        int n = src.remaining();
        if (n == 0) {
            return;
        }
        last = src.get(src.limit() - 1) & 0xFF;
        written += n;
        if (n >= buffer.capacity() / 2) {
            // large writes go straight to the file
            flush();
            channel.writeFully(src, flushed);
            flushed += n;
            return;
        }
        while (src.hasRemaining()) {
            if (!buffer.hasRemaining()) {
                flush();
            }
            int take = Math.min(src.remaining(), buffer.remaining());
            ByteBuffer slice = src.duplicate();
            slice.limit(slice.position() + take);
            buffer.put(slice);
            src.position(src.position() + take);
        }
    }

    /** Forgets everything after {@code toWritten} bytes (the caller truncated the file there). */
    void rewind(long toWritten, int lastByte) throws IOException {
        flush();
        flushed -= written - toWritten;
        written = toWritten;
        last = lastByte;
    }

    void flush() throws IOException {
        buffer.flip();
        int n = buffer.remaining();
        channel.writeFully(buffer, flushed);
        flushed += n;
        buffer.clear();
    }
}
