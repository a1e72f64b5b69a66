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
     * Whether the last scan stopped before the end of the file at bytes it could not use yet (an
     * append in progress or torn). While true, the core calls {@link #refresh()} even if the file
     * size did not change, since a writer may complete such a tail in place, as a LIME writer does
     * by writing a record's header last. Called under the read lock.
     */
    default boolean hasIncompleteTail() {
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

    /**
     * What the format needs to list and locate this container's units, as bytes for the persisted
     * index cache, or null (the default) when the format keeps no snapshot. A later open of the same
     * container (or of it grown by appends) hands them back to
     * {@link ContainerFormat#openFromIndex}. Called by the core right after a read-only open, before
     * any reader sees the container. The bytes must not hold credentials or record data beyond what
     * the index needs.
     */
    default byte[] exportIndex() throws IOException {
        return null;
    }

    /** What {@link #indexMemoryBytes()} says for a format that does not estimate its own: an index of a few thousand units. */
    long DEFAULT_INDEX_MEMORY = 64 << 10;

    /**
     * An estimate of the heap this open container's index holds (its arrays of offsets and lengths, names,
     * per-unit objects), in bytes; caches of many open containers (a tree of them) are bounded by the sum.
     * Cheap: called once per open. The default, {@link #DEFAULT_INDEX_MEMORY}, is a guess; a format whose index
     * grows with its units should count them.
     */
    default long indexMemoryBytes() {
        return DEFAULT_INDEX_MEMORY;
    }

    /** Releases what the format holds besides the container channel (sibling files, caches). */
    @Override
    default void close() throws IOException {}
}
