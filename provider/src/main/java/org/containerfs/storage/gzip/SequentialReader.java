package org.containerfs.storage.gzip;

import java.io.IOException;

/** The decompressed G3 stream read front to back once, to build the index. */
public interface SequentialReader {

    /** Offset in the logical (decompressed) stream of the next byte. */
    long position();

    /** Reads up to {@code len} bytes; fewer only at the end of the stream. */
    int read(byte[] b, int off, int len) throws IOException;

    /** Skips up to {@code n} bytes; fewer only at the end of the stream. Plain files seek, gzip inflates. */
    long skip(long n) throws IOException;

    /** Bytes left if known without reading (plain files), else -1. */
    long remaining() throws IOException;
}
