package org.containerfs.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
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
}
