package org.containerfs.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import org.containerfs.spi.Content;

/**
 * A read-only {@link FileChannel} over one file of the tree. Reads go straight to the format's
 * {@link Content} (positional reads of the container); {@link #transferTo} keeps the kernel's
 * zero-copy path for byte ranges.
 */
final class ContainerReadChannel extends FileChannel {
    private final ContainerFileSystem fs;
    private final Content content;
    private final String path;
    private long position;

    ContainerReadChannel(ContainerFileSystem fs, Content content, String path) {
        this.fs = fs;
        this.content = content;
        this.path = path;
        fs.register(this);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        synchronized (this) {
            int n = content.read(dst, position);
            if (n > 0) {
                position += n;
            }
            return n;
        }
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        ensureOpen();
        long total = 0;
        synchronized (this) {
            for (int i = offset; i < offset + length; i++) {
                if (!dsts[i].hasRemaining()) {
                    continue;
                }
                int n = read(dsts[i]);
                if (n < 0) {
                    return total == 0 ? -1 : total;
                }
                total += n;
                if (dsts[i].hasRemaining()) {
                    break;
                }
            }
        }
        return total;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        ensureOpen();
        if (position < 0) {
            throw new IllegalArgumentException("negative position");
        }
        return content.read(dst, position);
    }

    @Override
    public synchronized long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public synchronized FileChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position");
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return content.size();
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        ensureOpen();
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException("negative position or count");
        }
        return content.transferTo(position, count, target);
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
        throw new NonWritableChannelException();
    }

    @Override
    public int write(ByteBuffer src, long position) {
        throw new NonWritableChannelException();
    }

    @Override
    public FileChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) {
        throw new NonWritableChannelException();
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) {
        throw new UnsupportedOperationException("memory-mapping a record of " + path
                + " is not supported; use positional reads or transferTo");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return tryLock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        if (!shared) {
            throw new NonWritableChannelException();
        }
        // Records are immutable, so a shared lock is trivially granted and guards nothing.
        return new FileLock(this, position, size, true) {
            private volatile boolean valid = true;

            @Override
            public boolean isValid() {
                return valid && channel().isOpen();
            }

            @Override
            public void release() {
                valid = false;
            }
        };
    }

    private void ensureOpen() throws IOException {
        if (!isOpen()) {
            throw new java.nio.channels.ClosedChannelException();
        }
    }

    @Override
    protected void implCloseChannel() {
        fs.unregister(this);
    }
}
