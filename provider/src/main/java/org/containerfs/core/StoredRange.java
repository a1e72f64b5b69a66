package org.containerfs.core;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the bytes of one file of a container file system are stored: bytes {@code [offset, offset + length)}
 * of {@code file}, a regular file on the default file system, exactly as the file shows them. Given by
 * {@link ContainerFileSystems#storedRange}.
 *
 * @param file   the storage file (the container file, or another file of a SIONlib multi-file set), absolute
 * @param offset where the bytes start in {@code file}
 * @param length how many bytes: the size of the container's file
 */
public record StoredRange(Path file, long offset, long length) {
    public StoredRange {
        Objects.requireNonNull(file, "file");
        if (offset < 0 || length < 0 || offset > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException("not a byte range of " + file + ": offset " + offset + ", length " + length);
        }
    }

    /** Where the range ends in {@code file} (exclusive). */
    public long end() {
        return offset + length;
    }
}
