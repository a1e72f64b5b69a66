package org.containerfs.spark;

import java.io.Serializable;

/**
 * Part of one container a task reads: the whole container ({@code slices == 1}) or the {@code slice}-th of
 * {@code slices} equal record ranges (in file order) of a large one. The length and modification time are
 * those planning listed; the task opens the file with them (no second metadata request).
 *
 * @param path the Hadoop path, qualified
 * @param container the container's URI as the {@code container} column shows it
 * @param firstFileInLoad the file is named as a member of a SIONlib multi-file set ({@code x.sion.000001}) whose
 *     first file ({@code x.sion}) is read by the same load: if it opens as such a member, its tasks come through
 *     the set, and it gives no rows of its own
 */
record ContainerSlice(String path, String container, long length, long modificationTime, int slice, int slices,
        boolean firstFileInLoad) implements Serializable {

    /** The first record of this slice among {@code records}. */
    long firstRecord(long records) {
        return records * slice / slices;
    }

    /** One past the last record of this slice among {@code records}. */
    long endRecord(long records) {
        return records * (slice + 1) / slices;
    }

    @Override
    public String toString() {
        return slices == 1 ? container : container + " (part " + (slice + 1) + " of " + slices + ")";
    }
}
