package org.containerfs.storage;

import java.io.ByteArrayInputStream;
import java.io.InputStream;

/** For tests of code that reads streams: a stream that answers at most a few bytes per call, as a socket can. */
public final class ShortReads {
    private ShortReads() {}

    /** The bytes of {@code bytes}, at most {@code most} per read call (InputStream's own readNBytes loops). */
    public static InputStream of(byte[] bytes, int most) {
        ByteArrayInputStream all = new ByteArrayInputStream(bytes);
        return new InputStream() {
            @Override
            public int read() {
                return all.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return all.read(b, off, Math.min(len, most));
            }
        };
    }
}
