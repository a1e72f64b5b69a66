package org.containerfs.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * The bytes of one file of the tree: a byte range of the container ({@link ByteRangeContent}),
 * a concatenation of ranges ({@link ConcatenatedContent}), or anything a format decodes itself.
 * Implementations are safe for concurrent positional reads and never load the whole content.
 */
public interface Content {

    long size();

    /**
     * Reads bytes starting at {@code position} into {@code dst}. Returns the count read, or -1 if
     * {@code position >= size()}. Bytes that the content declares but the container does not hold
     * (a truncated record) raise {@link TruncatedDataException}: never short or invented data.
     */
    int read(ByteBuffer dst, long position) throws IOException;

    /**
     * The range of a container file that holds exactly these bytes as they are, if the format vouches
     * for it: committed data (never a staged or uncommitted file, which a commit may still move or
     * rewrite), stored verbatim (not decoded) and in one piece (not assembled from several ranges).
     * Readers that can read the file themselves (a FUSE mount splicing the bytes to the kernel) use it;
     * whether the file really holds the whole range is checked by the core, not here. The default:
     * null, the bytes are only to be had through {@link #read}. Formats opt in with
     * {@link ByteRangeContent#stored}.
     */
    default ByteRangeContent storedRange() throws IOException {
        return null;
    }

    /** Copies {@code count} bytes from {@code position} to {@code target}; ranges override this with a zero-copy path. */
    default long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        long end = Math.min(size(), position + count);
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(1 << 16, Math.max(1, end - position)));
        long done = 0;
        while (position + done < end) {
            buf.clear().limit((int) Math.min(buf.capacity(), end - position - done));
            int n = read(buf, position + done);
            if (n <= 0) {
                break;
            }
            buf.flip();
            while (buf.hasRemaining()) {
                target.write(buf);
            }
            done += n;
        }
        return done;
    }
}
