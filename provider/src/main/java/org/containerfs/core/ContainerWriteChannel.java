package org.containerfs.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.ClosedFileSystemException;

/**
 * The channel of a new file: bytes stream sequentially into the format's sink; closing commits the
 * unit (under the file system's exclusive lock, because committing changes the tree).
 */
final class ContainerWriteChannel implements SeekableByteChannel {
    private final ContainerFileSystem fs;
    private final WritableByteChannel sink;
    private final String path;
    private long size;
    private boolean open = true;

    ContainerWriteChannel(ContainerFileSystem fs, WritableByteChannel sink, String path) {
        this.fs = fs;
        this.sink = sink;
        this.path = path;
        fs.register(this);
    }

    @Override
    public synchronized int write(ByteBuffer src) throws IOException {
        ensureOpen();
        int total = 0;
        while (src.hasRemaining()) {
            total += sink.write(src);
        }
        size += total;
        return total;
    }

    @Override
    public int read(ByteBuffer dst) {
        throw new NonReadableChannelException();
    }

    @Override
    public synchronized long position() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public synchronized SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition != size) {
            throw new AccessDeniedException(path, null, "new records are written sequentially: position "
                    + newPosition + " requested, " + size + " bytes written so far");
        }
        return this;
    }

    @Override
    public synchronized long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public synchronized SeekableByteChannel truncate(long newSize) throws IOException {
        ensureOpen();
        if (newSize < size) {
            throw new AccessDeniedException(path, null, "a record being written cannot be truncated");
        }
        return this;
    }

    @Override
    public synchronized boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        // Not holding this channel's monitor while waiting for the tree lock: the file system's
        // close takes them in the other order (tree lock, then each open channel's close).
        synchronized (this) {
            if (!open) {
                return;
            }
            open = false;
        }
        fs.unregister(this);
        try {
            fs.write(() -> {
                sink.close();
                fs.afterWrite();
                return null;
            });
        } catch (ClosedFileSystemException e) {
            // The file system closed first, and its close committed this record through the writer.
        }
    }

    private void ensureOpen() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
