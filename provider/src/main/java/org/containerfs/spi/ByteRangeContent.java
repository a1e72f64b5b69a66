package org.containerfs.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A file whose bytes are one range of a container file. Bytes past the container's end raise
 * {@link TruncatedDataException} naming {@code label} and the offset.
 */
public final class ByteRangeContent implements Content {
    private final ContainerChannel channel;
    private final long offset;
    private final long length;
    private final String label;

    public ByteRangeContent(ContainerChannel channel, long offset, long length, String label) {
        this.channel = channel;
        this.offset = offset;
        this.length = length;
        this.label = label;
    }

    public ContainerChannel channel() {
        return channel;
    }

    public long offset() {
        return offset;
    }

    @Override
    public long size() {
        return length;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (position >= length) {
            return -1;
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (position > Long.MAX_VALUE - offset) {
            long fileSize = channel.size(); // a hostile length: no file reaches this far
            throw truncated(Math.max(0, fileSize - offset), fileSize);
        }
        int want = (int) Math.min(dst.remaining(), length - position);
        int oldLimit = dst.limit();
        dst.limit(dst.position() + want);
        try {
            int total = 0;
            while (dst.hasRemaining()) {
                int n = channel.read(dst, offset + position + total);
                if (n < 0) {
                    throw truncated(position + total, channel.size());
                }
                total += n;
            }
            return total;
        } finally {
            dst.limit(oldLimit);
        }
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        if (position >= length) {
            return 0;
        }
        long want = Math.min(count, length - position);
        long fileSize = channel.size();
        if (want > fileSize - offset - position) {
            throw truncated(Math.max(position, fileSize - offset), fileSize);
        }
        return channel.transferTo(offset + position, want, target);
    }

    /**
     * {@code position}: the first missing byte asked for, relative to the range; {@code fileSize}: where
     * the file ends (not where the read failed: a read that starts past the end fails at its start).
     */
    private TruncatedDataException truncated(long position, long fileSize) {
        return new TruncatedDataException(channel.name(), offset + position, label,
                "the " + length + " bytes it declares from byte " + offset, "the file ends at byte " + fileSize);
    }
}
