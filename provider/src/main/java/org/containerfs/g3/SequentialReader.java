package org.containerfs.g3;

import java.io.IOException;

/** The decompressed G3 stream read front to back once, to build the index. */
interface SequentialReader {

    /** Offset in the logical (decompressed) stream of the next byte. */
    long position();

    /** Reads up to {@code len} bytes; fewer only at the end of the stream. */
    int read(byte[] b, int off, int len) throws IOException;

    /** Skips up to {@code n} bytes; fewer only at the end of the stream. Plain files seek, gzip inflates. */
    long skip(long n) throws IOException;

    /** What {@link #skip(long, Visitor)} shows the skipped bytes to. */
    @FunctionalInterface
    interface Visitor {
        void bytes(byte[] b, int off, int len);
    }

    /**
     * Skips up to {@code n} bytes as {@link #skip(long)} does, showing each one to {@code visitor} (in order, in
     * slices it must not keep): a checksum over bytes that are only skipped needs no copy of them.
     */
    default long skip(long n, Visitor visitor) throws IOException {
        byte[] slice = new byte[(int) Math.min(n, 64 * 1024)];
        long done = 0;
        while (done < n) {
            int got = read(slice, 0, (int) Math.min(slice.length, n - done));
            if (got <= 0) {
                break;
            }
            visitor.bytes(slice, 0, got);
            done += got;
        }
        return done;
    }

    /** Bytes left if known without reading (plain files), else -1. */
    long remaining() throws IOException;

    /**
     * Whether skipping costs as much as reading (a gzip stream is inflated either way): then the scan
     * reads blobs and checks every frame's CRC at once, so no later read needs a second pass over a frame.
     */
    default boolean skipReadsData() {
        return false;
    }
}
