package org.containerfs.spark;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageStatistics;

/**
 * Bytes read through Hadoop's local file system, from its statistics (every thread's, the executor
 * threads of local[2] included): how the tests see what a query read.
 */
final class BytesRead {
    private BytesRead() {}

    static long now() {
        StorageStatistics local = FileSystem.getGlobalStorageStatistics().get("file");
        Long bytes = local == null ? null : local.getLong("bytesRead");
        return bytes == null ? 0 : bytes;
    }

    /** Bytes read while {@code query} runs (the tests run one query at a time). */
    static long during(Runnable query) {
        long before = now();
        query.run();
        return now() - before;
    }
}
