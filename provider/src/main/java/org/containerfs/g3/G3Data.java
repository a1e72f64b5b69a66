package org.containerfs.g3;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.containerfs.spi.Content;

/** Positional access to the logical G3 stream: the file itself, or the decompressed bytes of a .g3.gz. */
interface G3Data extends Closeable {

    /** Reads into {@code dst} from {@code position} until it is full or the stream ends; returns the count. */
    int read(ByteBuffer dst, long position) throws IOException;

    /** A file's bytes: {@code length} bytes from {@code offset} of the logical stream. */
    Content range(long offset, long length, String label);

    @Override
    default void close() throws IOException {}
}
