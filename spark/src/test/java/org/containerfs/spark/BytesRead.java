package org.containerfs.spark;

import org.apache.hadoop.fs.FileSystem;

/**
 * Bytes read through Hadoop's local file system, from its statistics (every thread's, the executor
 * threads of local[2] included): how the tests see what a query read.
 */
final class BytesRead {
    private BytesRead() {}

    static long now() {
        long bytes = 0;
        for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
            if (s.getScheme().equals("file")) {
                bytes += s.getBytesRead();
            }
        }
        return bytes;
    }

    /** Bytes read while {@code query} runs (the tests run one query at a time). */
    static long during(Runnable query) {
        long before = now();
        query.run();
        return now() - before;
    }
}
