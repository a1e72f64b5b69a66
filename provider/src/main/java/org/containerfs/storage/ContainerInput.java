package org.containerfs.storage;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.FileTime;

/**
 * The bytes of one container, wherever they are stored: a file on any NIO file system, an object in
 * an S3-compatible store, a file on HDFS. This is the one interface through which storage reaches the
 * core: formats never see it (they read through the core's channel), and storage modules (S3, Hadoop)
 * implement nothing else.
 *
 * <p>Thread safety: {@link #read} is called from many threads at once and must not depend on a shared
 * position. An input is read-only: nothing the core does through it changes the stored bytes.
 */
public interface ContainerInput extends Closeable {

    /**
     * Where the container lives ({@code file:///data/conf.lime}, {@code s3://bucket/run/conf.lime},
     * {@code hdfs://nn/ens/conf.lime}), never with credentials in it: it appears in error messages,
     * attributes and the index cache.
     */
    URI uri();

    /** The container's length in bytes now (for a remote object: the length of the version opened). */
    long size() throws IOException;

    /**
     * Reads up to {@code dst.remaining()} bytes starting at {@code position} into {@code dst}.
     * Returns the count read, which is positive when {@code dst} has room and {@code position < size()},
     * or -1 when {@code position >= size()}. Never changes any shared state that another reader sees.
     */
    int read(ByteBuffer dst, long position) throws IOException;

    /**
     * What makes these bytes these bytes: equal identities promise equal contents, so a cached index
     * keyed by it may be reused. Version is an ETag, a generation or a modification time.
     */
    InputIdentity identity() throws IOException;

    /**
     * The input of another file beside this one (same directory, same key prefix): SIONlib multi-file
     * sets name their members by file name. Throws {@link NoSuchFileException} naming it when absent.
     * The caller closes the returned input.
     */
    ContainerInput sibling(String fileName) throws IOException;

    /**
     * When the bytes were last changed, as the store says (an object's Last-Modified, a file's mtime);
     * the epoch when the store keeps no such time. Shown as the file system's modification time.
     */
    default FileTime lastModified() throws IOException {
        return FileTime.fromMillis(0);
    }

    /**
     * Opens one request for the bytes {@code [position, end)}, to be read in order (S3: one ranged GET whose body
     * streams), or returns null where the store has no such thing (the default). The core's block cache uses it
     * for a long sequential run, such as a big record read from start to end, so that the run costs one request
     * instead of one per read-ahead range. Closing the stream before its end must stop the transfer (abort the
     * request), not read the rest.
     */
    default java.io.InputStream openRange(long position, long end) throws IOException {
        return null;
    }

    /**
     * Whether every read is a request to a remote service (true: the core puts its block cache in
     * front, coalescing small reads) or a cheap local call (false: reads go straight through).
     */
    default boolean remote() {
        return true;
    }

    /**
     * Reads {@code length} bytes of {@code in} into {@code dst} (a heap or a direct buffer), fewer only where the
     * stream ends; the count read. For inputs whose reads arrive as streams (an HTTP response's body, a stream of
     * {@link #openRange}): a heap buffer is filled in place, a direct one through a chunk of at most 64 KiB.
     */
    static int readFully(java.io.InputStream in, ByteBuffer dst, int length) throws IOException {
        if (dst.hasArray()) {
            int got = in.readNBytes(dst.array(), dst.arrayOffset() + dst.position(), length);
            dst.position(dst.position() + got);
            return got;
        }
        byte[] chunk = new byte[Math.min(length, 64 * 1024)];
        int got = 0;
        while (got < length) {
            int n = in.readNBytes(chunk, 0, Math.min(chunk.length, length - got));
            if (n <= 0) {
                break;
            }
            dst.put(chunk, 0, n);
            got += n;
        }
        return got;
    }
}
