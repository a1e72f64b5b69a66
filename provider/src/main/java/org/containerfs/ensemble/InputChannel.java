package org.containerfs.ensemble;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.storage.ContainerInput;

/**
 * A plain file of a {@link TreeSource} read through its {@link ContainerInput}, behind the core's block cache
 * ({@link ContainerFileSystems#blockCached}) when the input is remote: a reader going through the file in small
 * pieces (8 KiB at a time, as {@code cp} does) gets the read-ahead a container's reads get, not one request per
 * piece. This channel only keeps the position.
 */
final class InputChannel implements SeekableByteChannel {
    private final ContainerInput input;
    private final long size;
    private long position;
    private boolean open = true;

    /** Takes {@code input} over (closes it, also when this constructor fails). */
    InputChannel(ContainerInput input, Map<String, ?> env) throws IOException {
        ContainerInput cached = input;
        try {
            cached = ContainerFileSystems.blockCached(input, env);
            this.size = cached.size();
        } catch (IOException | RuntimeException e) {
            try {
                cached.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        this.input = cached;
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
        ByteBuffer within = dst;
        if (dst.remaining() > size - position) { // the size seen at open bounds the reads, as a file's channel does
            within = dst.duplicate().limit(dst.position() + (int) (size - position));
        }
        int n = input.read(within, position);
        if (n < 0) {
            throw new IOException(input.uri() + " ended at byte " + position + " of the " + size
                    + " it had when opened: it was truncated or replaced");
        }
        if (within != dst) {
            dst.position(within.position());
        }
        position += n;
        return n;
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
        }
        input.close();
    }
}
