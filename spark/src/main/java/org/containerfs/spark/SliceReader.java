package org.containerfs.spark;

import java.io.Closeable;
import java.io.IOException;

/** Reads the records of one container slice: rows ({@link ContainerRowReader}) or batches ({@link ContainerBatchReader}). */
interface SliceReader<T> extends Closeable {
    /** Moves to the next row or batch; false at the end. */
    boolean next() throws IOException;

    /** The current row or batch (reused by the next call of {@link #next()}). */
    T get();
}
