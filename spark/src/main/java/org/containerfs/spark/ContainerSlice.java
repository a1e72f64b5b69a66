package org.containerfs.spark;

import java.io.Serializable;

/**
 * The part of one container a task reads, as Spark's scan hands it over: the whole file, or the byte range
 * {@code [start, end)} of a large one, whose records are those whose header lies in the range (each record is in
 * exactly one range of a file, however Spark cut it). The length and modification time are those Spark's listing
 * found; the task opens the file with them (no second metadata request).
 *
 * @param path the Hadoop path, qualified
 * @param length the file's length
 */
record ContainerSlice(String path, long length, long modificationTime, long start, long end) implements Serializable {

    /** Whether the range is the whole file (no record positions need to be known). */
    boolean whole() {
        return start <= 0 && end >= length;
    }

    /** Whether a record whose header is at {@code position} (clamped into the file) belongs to this slice. */
    boolean holds(long position) {
        long p = Math.max(0, Math.min(position, Math.max(0, length - 1)));
        return p >= start && (p < end || end >= length);
    }

    @Override
    public String toString() {
        return whole() ? path : path + " (bytes " + start + " to " + end + ")";
    }
}
