package org.containerfs.spi;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.ReadOnlyFileSystemException;

/**
 * An opened container: the tree a format derived from the container's index.
 *
 * <p>Thread safety: the core calls {@link #root()}, node methods and {@link #refresh()} under its
 * own read/write lock (tree reads shared, refresh and writes exclusive). {@link Content#read} is
 * called without that lock, from many threads at once.
 */
public interface Container extends Closeable {

    /** The root directory. Its {@link Node#attributes()} describe the container as a whole. */
    Node root();

    /**
     * Live growth: looks at the container's current size and, if it grew, scans only the new tail
     * (never the whole file again), exposing newly committed units. Returns whether the tree changed.
     */
    default boolean refresh() throws IOException {
        return false;
    }

    /**
     * Live growth: true while the container ends with bytes that may still become a unit without the
     * file growing (an append in progress whose commit rewrites bytes in place, e.g. a header written
     * last). The core then refreshes on the next listing or lookup miss even if the size is unchanged.
     */
    default boolean growthPending() {
        return false;
    }

    /**
     * The format's append logic, called once when the file system is opened writable. Formats that
     * cannot append throw {@link ReadOnlyFileSystemException} or an {@link java.nio.file.AccessDeniedException}
     * saying why.
     */
    default ContainerWriter openWriter() throws IOException {
        throw new ReadOnlyFileSystemException();
    }

    /** Releases what the format holds besides the container channel (sibling files, caches). */
    @Override
    default void close() throws IOException {}
}
