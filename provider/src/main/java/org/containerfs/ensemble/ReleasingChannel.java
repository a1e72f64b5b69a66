package org.containerfs.ensemble;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;

/**
 * A read channel of the tree: the channel of a source file or of a record inside a container, which
 * on close also gives back what it held (its container's pin, or its place among the tree's open
 * source channels).
 */
final class ReleasingChannel implements SeekableByteChannel {
    private final SeekableByteChannel delegate;
    private final Closeable afterClose;
    private boolean released;

    ReleasingChannel(SeekableByteChannel delegate, Closeable afterClose) {
        this.delegate = delegate;
        this.afterClose = afterClose;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return delegate.read(dst);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        throw new java.nio.channels.NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        return delegate.position();
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        delegate.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public SeekableByteChannel truncate(long size) throws IOException {
        throw new java.nio.channels.NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return delegate.isOpen();
    }

    @Override
    public void close() throws IOException {
        try {
            delegate.close();
        } finally {
            synchronized (this) {
                if (released) {
                    return;
                }
                released = true;
            }
            afterClose.close();
        }
    }
}
