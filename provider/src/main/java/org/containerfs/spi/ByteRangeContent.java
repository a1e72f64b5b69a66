package org.containerfs.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A file whose bytes are one range of a container file. Bytes past the container's end raise
 * {@link TruncatedDataException} naming {@code label} and the offset. Made with {@link #stored} for
 * committed data, it also answers {@link #storedRange()} (itself); made with the constructor (staged
 * data, a window a commit may still move), it does not.
 */
public final class ByteRangeContent implements Content {
    private final ContainerChannel channel;
    private final long offset;
    private final long length;
    private final String label;
    private final boolean stored;

    public ByteRangeContent(ContainerChannel channel, long offset, long length, String label) {
        this(channel, offset, length, label, false);
    }

    private ByteRangeContent(ContainerChannel channel, long offset, long length, String label, boolean stored) {
        this.channel = channel;
        this.offset = offset;
        this.length = length;
        this.label = label;
        this.stored = stored;
    }

    /**
     * A range of committed data: bytes {@code [offset, offset + length)} of the file behind
     * {@code channel} are this file's bytes as they are, and stay so while the container is open (no
     * commit moves or rewrites them), so a reader may read them from the file directly
     * ({@link #storedRange()}). For a staged or uncommitted file use the constructor.
     */
    public static ByteRangeContent stored(ContainerChannel channel, long offset, long length, String label) {
        return new ByteRangeContent(channel, offset, length, label, true);
    }

    /** This range if it was made with {@link #stored}, else null. */
    @Override
    public ByteRangeContent storedRange() {
        return stored ? this : null;
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
