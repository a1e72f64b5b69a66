package org.containerfs.ensemble;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import org.containerfs.storage.ContainerInput;

/**
 * A plain file of a {@link TreeSource} read through its {@link ContainerInput}: reads are served from one
 * window of up to {@value #WINDOW} bytes, fetched in one read of the input when a read falls outside it, so a
 * reader going through the file in small pieces (8 KiB at a time, as {@code cp} does) costs one request per
 * window on a remote store, not one per piece.
 */
final class InputChannel implements SeekableByteChannel {
    static final int WINDOW = 1 << 20;

    private final ContainerInput input;
    private final long size;
    private long position;
    private ByteBuffer window;
    private long windowStart = -1;
    private boolean open = true;

    InputChannel(ContainerInput input) throws IOException {
        this.input = input;
        try {
            this.size = input.size();
        } catch (IOException | RuntimeException e) {
            input.close();
            throw e;
        }
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (position >= size) {
            return -1;
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (dst.remaining() >= WINDOW) { // a big read goes straight through
            int n = input.read(dst, position);
            if (n > 0) {
                position += n;
            }
            return n;
        }
        if (window == null || position < windowStart || position >= windowStart + window.limit()) {
            fill(position);
        }
        int from = (int) (position - windowStart);
        int n = Math.min(dst.remaining(), window.limit() - from);
        dst.put(window.duplicate().position(from).limit(from + n));
        position += n;
        return n;
    }

    private void fill(long at) throws IOException {
        int want = (int) Math.min(WINDOW, size - at);
        ByteBuffer b = window != null && window.capacity() >= want ? window.clear() : ByteBuffer.allocate(want);
        b.limit(want);
        while (b.hasRemaining()) {
            int n = input.read(b, at + b.position());
            if (n < 0) {
                throw new IOException(input.uri() + " ended at byte " + (at + b.position()) + " of the " + size
                        + " it had when opened: it was truncated or replaced");
            }
        }
        b.flip();
        window = b;
        windowStart = at;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public synchronized SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    @Override
    public synchronized long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized boolean isOpen() {
        return open;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (!open) {
                return;
            }
            open = false;
            window = null;
        }
        input.close();
    }
}
