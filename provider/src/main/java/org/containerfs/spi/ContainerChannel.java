package org.containerfs.spi;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import org.containerfs.storage.ContainerInput;

/**
 * Positional access to one physical container file on any NIO file system. Uses a
 * {@link FileChannel} where the file system offers one (default, jimfs), else a
 * {@link SeekableByteChannel} whose position is guarded by this object (zipfs entries, say), or a
 * {@link ContainerInput} (an object store, HDFS): read-only, every write and lock is refused.
 */
public final class ContainerChannel implements Closeable {
    /**
     * Crash-test hook: with {@code -Dcontainerfs.faultInjection.haltAtStep=N} the JVM halts (as a
     * SIGKILL would: no finally blocks, no flushing) when the N-th mutation (write, truncate, force)
     * of any container channel begins; with {@code ...torn=true} a write first writes half its bytes.
     * Lets tests stop a writer at every step of a commit protocol, deterministically.
     */
    private static final long HALT_AT_STEP = Long.getLong("containerfs.faultInjection.haltAtStep", -1);
    private static final boolean HALT_TORN = Boolean.getBoolean("containerfs.faultInjection.torn");
    private static final java.util.concurrent.atomic.AtomicLong STEPS = new java.util.concurrent.atomic.AtomicLong();

    private final String name;
    private final FileChannel fileChannel;
    private final SeekableByteChannel seekable;
    private final ContainerInput input;
    /** The file opened, or null for a channel over a {@link ContainerInput}. */
    private final Path path;
    private volatile boolean inputOpen = true;
    /** While set, told where each read ended (the core reports an opening scan's progress with it). */
    private volatile java.util.function.LongConsumer readObserver;

    private ContainerChannel(String name, FileChannel fileChannel, SeekableByteChannel seekable, ContainerInput input,
            Path path) {
        this.name = name;
        this.path = path;
        this.fileChannel = fileChannel;
        this.seekable = seekable;
        this.input = input;
    }

    /**
     * A read-only channel over {@code input} (which it closes when closed). Reads go straight to the
     * input, which must therefore be thread-safe, as {@link ContainerInput#read} promises.
     */
    public static ContainerChannel readOnly(ContainerInput input) {
        return new ContainerChannel(input.uri().toString(), null, null, input, null);
    }

    public static ContainerChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
        String name = path.toString();
        try {
            return new ContainerChannel(name, path.getFileSystem().provider().newFileChannel(path, options), null, null,
                    path);
        } catch (UnsupportedOperationException e) {
            return new ContainerChannel(name, null, path.getFileSystem().provider().newByteChannel(path, options), null,
                    path);
        }
    }

    /**
     * The file this channel was opened on ({@link #open}), on whatever file system it lives; null for a
     * channel over a {@link ContainerInput} (an object in a store, a decompressed stream).
     */
    public Path path() {
        return path;
    }

    /** The file's name for error messages. */
    public String name() {
        return name;
    }

    public long size() throws IOException {
        if (fileChannel != null) {
            return fileChannel.size();
        }
        if (input != null) {
            ensureInputOpen();
            return input.size();
        }
        synchronized (this) {
            return seekable.size();
        }
    }

    /** Reads at {@code position}; returns the count read or -1 at end of file. */
    public int read(ByteBuffer dst, long position) throws IOException {
        int n;
        if (fileChannel != null) {
            n = fileChannel.read(dst, position);
        } else if (input != null) {
            ensureInputOpen();
            n = input.read(dst, position);
        } else {
            synchronized (this) {
                seekable.position(position);
                n = seekable.read(dst);
            }
        }
        java.util.function.LongConsumer observer = readObserver;
        if (observer != null && n > 0) {
            observer.accept(position + n);
        }
        return n;
    }

    /** Sets (or, with null, removes) what is told the end offset of every successful read from now on. */
    public void observeReads(java.util.function.LongConsumer observer) {
        this.readObserver = observer;
    }

    /** Fills {@code dst} from {@code position} or throws {@link EOFException}; returns the count read. */
    public int readFully(ByteBuffer dst, long position) throws IOException {
        int total = 0;
        while (dst.hasRemaining()) {
            int n = read(dst, position + total);
            if (n < 0) {
                throw new EOFException(name + ": end of file at byte " + (position + total));
            }
            total += n;
        }
        return total;
    }

    /** Reads as much as is there, up to {@code dst.remaining()}; returns the count (0 at end of file). */
    public int readUpTo(ByteBuffer dst, long position) throws IOException {
        int total = 0;
        while (dst.hasRemaining()) {
            int n = read(dst, position + total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    /** Writes all of {@code src} at {@code position}. */
    public void writeFully(ByteBuffer src, long position) throws IOException {
        refuseIfInput();
        if (HALT_AT_STEP >= 0 && STEPS.incrementAndGet() == HALT_AT_STEP) {
            if (HALT_TORN && src.remaining() > 1) {
                ByteBuffer half = src.duplicate();
                half.limit(half.position() + half.remaining() / 2);
                writeUnchecked(half, position);
            }
            Runtime.getRuntime().halt(137);
        }
        writeUnchecked(src, position);
    }

    private void writeUnchecked(ByteBuffer src, long position) throws IOException {
        long p = position;
        if (fileChannel != null) {
            while (src.hasRemaining()) {
                p += fileChannel.write(src, p);
            }
            return;
        }
        synchronized (this) {
            seekable.position(p);
            while (src.hasRemaining()) {
                seekable.write(src);
            }
        }
    }

    public void truncate(long size) throws IOException {
        refuseIfInput();
        haltIfInjected();
        if (fileChannel != null) {
            fileChannel.truncate(size);
        } else {
            synchronized (this) {
                seekable.truncate(size);
            }
        }
    }

    /** Makes what was written durable (fsync); a no-op where the file system has no such notion. */
    public void force(boolean metadata) throws IOException {
        haltIfInjected();
        if (fileChannel != null) {
            fileChannel.force(metadata);
        }
    }

    private static void haltIfInjected() {
        if (HALT_AT_STEP >= 0 && STEPS.incrementAndGet() == HALT_AT_STEP) {
            Runtime.getRuntime().halt(137);
        }
    }

    /** Zero-copy where possible (sendfile through {@link FileChannel#transferTo}). */
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        if (fileChannel != null) {
            return fileChannel.transferTo(position, count, target);
        }
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(count, 1 << 16));
        int n = read(buf, position);
        if (n <= 0) {
            return 0;
        }
        buf.flip();
        while (buf.hasRemaining()) {
            target.write(buf);
        }
        return n;
    }

    /**
     * Takes an exclusive lock on the whole file for a writer; null if another process holds it
     * (a holder in this JVM makes the JDK throw OverlappingFileLockException instead). File systems
     * without locks (no FileChannel) give a lock-free writer.
     */
    public FileLock tryLock() throws IOException {
        refuseIfInput();
        if (fileChannel == null) {
            return null;
        }
        return fileChannel.tryLock();
    }

    public boolean supportsLocking() {
        return fileChannel != null;
    }

    /** Whether this channel reads a {@link ContainerInput} (read-only, no locks) rather than a file. */
    public boolean readsInput() {
        return input != null;
    }

    private void refuseIfInput() {
        if (input != null) {
            // as a FileChannel opened for reading only does
            throw new java.nio.channels.NonWritableChannelException();
        }
    }

    private void ensureInputOpen() throws IOException {
        if (!inputOpen) {
            throw new java.nio.channels.ClosedChannelException();
        }
    }

    public boolean isOpen() {
        if (input != null) {
            return inputOpen;
        }
        return fileChannel != null ? fileChannel.isOpen() : seekable.isOpen();
    }

    @Override
    public void close() throws IOException {
        if (fileChannel != null) {
            fileChannel.close();
        } else if (input != null) {
            if (inputOpen) {
                inputOpen = false;
                input.close();
            }
        } else {
            seekable.close();
        }
    }
}
