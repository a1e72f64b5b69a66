package org.containerfs.g3;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.storage.gzip.SequentialReader;

/**
 * Sequential reads of an uncompressed file through a window; skips seek without reading. After a
 * skip past the window (a large blob) the next window is small, so opening a file of big blobs
 * reads little more than the frame headers and keys.
 */
final class PlainReader implements SequentialReader {
    private final ContainerChannel channel;
    private final long size;
    private static final int SMALL = 4 * 1024;
    private final ByteBuffer window = ByteBuffer.allocate(64 * 1024);
    private boolean skippedFar;
    private long windowStart;
    private long position;

    PlainReader(ContainerChannel channel, long start) throws IOException {
        this.channel = channel;
        this.size = channel.size();
        this.position = start;
        this.windowStart = start;
        window.limit(0);
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int done = 0;
        while (done < len) {
            long at = position - windowStart;
            if (at < 0 || at >= window.limit()) {
                if (position >= size) {
                    break;
                }
                window.clear();
                if (skippedFar) {
                    window.limit(SMALL);
                }
                skippedFar = false;
                channel.readUpTo(window, position);
                window.flip();
                windowStart = position;
                if (window.limit() == 0) {
                    break;
                }
                at = 0;
            }
            int n = (int) Math.min(len - done, window.limit() - at);
            window.get((int) at, b, off + done, n);
            done += n;
            position += n;
        }
        return done;
    }

    @Override
    public long skip(long n) {
        long k = Math.max(0, Math.min(n, size - position));
        position += k;
        if (position - windowStart > window.limit()) {
            skippedFar = true;
        }
        return k;
    }

    /** Moves to {@code position}; the window is kept, so nearby candidates are read from memory. */
    void seek(long position) {
        this.position = position;
    }

    @Override
    public long remaining() {
        return Math.max(0, size - position);
    }
}
