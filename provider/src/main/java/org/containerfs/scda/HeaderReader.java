package org.containerfs.scda;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.containerfs.spi.ContainerChannel;

/**
 * Small positional reads through one window: consecutive headers of small sections cost one
 * read per window, a large section costs one read for its header and one for its padding.
 */
final class HeaderReader {
    static final int WINDOW = 64 * 1024;

    private final ContainerChannel channel;
    private final long size;
    private final byte[] buf = new byte[WINDOW];
    private long start = -1;
    private int length;

    HeaderReader(ContainerChannel channel, long size) {
        this.channel = channel;
        this.size = size;
    }

    long size() {
        return size;
    }

    byte[] buffer() {
        return buf;
    }

    /**
     * Makes {@code [pos, pos+n)} available (n at most {@link #WINDOW}) and returns its index in
     * {@link #buffer()}; the caller has checked that the range lies within the file.
     */
    int at(long pos, int n) throws IOException {
        if (start >= 0 && pos >= start && pos + n <= start + length) {
            return (int) (pos - start);
        }
        int want = (int) Math.min(WINDOW, size - pos);
        ByteBuffer bb = ByteBuffer.wrap(buf, 0, want);
        int got = channel.readUpTo(bb, pos);
        start = pos;
        length = got;
        if (got < n) {
            start = -1;
            throw new java.io.EOFException(channel.name() + ": end of file at byte " + (pos + got));
        }
        return 0;
    }
}
