package org.containerfs.core;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.atomic.AtomicLong;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.InputIdentity;
import org.containerfs.storage.PathInput;

/**
 * A local file posing as a remote object: {@link #remote()} is true, and every read is counted as one
 * request (with the bytes it returned), as a ranged GET would be. Siblings share the counters.
 */
public final class CountingInput implements ContainerInput {
    /** Requests and bytes of an input and all its siblings. */
    public static final class Counters {
        public final AtomicLong reads = new AtomicLong();
        public final AtomicLong bytes = new AtomicLong();
        public final AtomicLong sizeCalls = new AtomicLong();
        public final AtomicLong readsAfterClose = new AtomicLong();
        /** Bytes read by the block cache's read-ahead threads. */
        public final AtomicLong bytesReadAhead = new AtomicLong();
        /** Every request as "position+length", for failure messages. */
        public final java.util.Queue<String> log = new java.util.concurrent.ConcurrentLinkedQueue<>();

        public void reset() {
            reads.set(0);
            bytes.set(0);
            sizeCalls.set(0);
            log.clear();
        }
    }

    private final PathInput file;
    private final Counters counters;
    private final URI uri;
    private volatile boolean closed;

    private CountingInput(PathInput file, Counters counters, URI uri) {
        this.file = file;
        this.counters = counters;
        this.uri = uri;
    }

    /** {@code path}'s bytes, under a made-up object URI {@code s3://bucket/<file name>}. */
    public static CountingInput of(Path path) throws IOException {
        return new CountingInput(PathInput.of(path), new Counters(), objectUri(path));
    }

    private static URI objectUri(Path path) {
        return URI.create("s3://bucket/" + path.getFileName());
    }

    public Counters counters() {
        return counters;
    }

    public Path path() {
        return file.path();
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public long size() throws IOException {
        counters.sizeCalls.incrementAndGet();
        return file.size();
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (closed) {
            counters.readsAfterClose.incrementAndGet();
        }
        counters.reads.incrementAndGet();
        counters.log.add(position + "+" + dst.remaining());
        int n = file.read(dst, position);
        if (n > 0) {
            counters.bytes.addAndGet(n);
            if (Thread.currentThread().getName().startsWith("containerfs-fetch")) {
                counters.bytesReadAhead.addAndGet(n);
            }
        }
        return n;
    }

    @Override
    public InputIdentity identity() throws IOException {
        return new InputIdentity(uri, file.size(), Long.toString(lastModified().toMillis()));
    }

    @Override
    public FileTime lastModified() throws IOException {
        return file.lastModified();
    }

    @Override
    public ContainerInput sibling(String fileName) throws IOException {
        Path sibling = file.path().resolveSibling(fileName);
        if (!Files.isRegularFile(sibling)) {
            throw new NoSuchFileException(uri.resolve(fileName).toString());
        }
        return new CountingInput(PathInput.of(sibling), counters, objectUri(sibling));
    }

    @Override
    public boolean remote() {
        return true;
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        file.close();
    }
}
