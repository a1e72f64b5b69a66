package org.containerfs.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import java.util.List;

/** A file whose bytes are several ranges one after the other (a SIONlib task stream over its blocks). */
public final class ConcatenatedContent implements Content {
    private final Content[] parts;
    private final long[] starts; // starts[i] = logical offset of parts[i]; starts[n] = size

    public ConcatenatedContent(List<? extends Content> parts) {
        this.parts = parts.toArray(new Content[0]);
        this.starts = new long[this.parts.length + 1];
        for (int i = 0; i < this.parts.length; i++) {
            starts[i + 1] = starts[i] + this.parts[i].size();
        }
    }

    @Override
    public long size() {
        return starts[parts.length];
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (position >= size()) {
            return -1;
        }
        int i = Arrays.binarySearch(starts, position);
        i = i >= 0 ? i : -i - 2;
        int total = 0;
        while (dst.hasRemaining() && i < parts.length) {
            long within = position + total - starts[i];
            if (within >= parts[i].size()) {
                i++;
                continue;
            }
            int n = parts[i].read(dst, within);
            if (n < 0) {
                i++;
                continue;
            }
            total += n;
        }
        return total;
    }

    /** Part by part, so each range keeps its own zero-copy path. */
    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        long end = Math.min(size(), position + count);
        if (position >= end) {
            return 0;
        }
        int i = Arrays.binarySearch(starts, position);
        i = i >= 0 ? i : -i - 2;
        long done = 0;
        while (position + done < end && i < parts.length) {
            long within = position + done - starts[i];
            long take = Math.min(parts[i].size() - within, end - position - done);
            if (take <= 0) {
                i++;
                continue;
            }
            long n = parts[i].transferTo(within, take, target);
            if (n <= 0) {
                break;
            }
            done += n;
        }
        return done;
    }
}
