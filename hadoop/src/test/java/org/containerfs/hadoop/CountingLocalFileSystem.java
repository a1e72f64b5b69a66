package org.containerfs.hadoop;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code countfs:}, counting positioned reads: a store that is not
 * {@code file:}, so the input reports itself remote and the core's block cache is in front, as on HDFS or s3a
 * where every read is a request.
 */
public class CountingLocalFileSystem extends RawLocalFileSystem {
    static final AtomicLong PREADS = new AtomicLong();

    @Override
    public String getScheme() {
        return "countfs";
    }

    @Override
    public URI getUri() {
        return URI.create("countfs:///");
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        FSDataInputStream local = super.open(f, bufferSize);
        return new FSDataInputStream(new FSInputStream() {
            @Override
            public void seek(long pos) throws IOException {
                local.seek(pos);
            }

            @Override
            public long getPos() throws IOException {
                return local.getPos();
            }

            @Override
            public boolean seekToNewSource(long targetPos) {
                return false;
            }

            @Override
            public int read() throws IOException {
                return local.read();
            }

            @Override
            public int read(long position, byte[] buffer, int offset, int length) throws IOException {
                PREADS.incrementAndGet();
                return local.read(position, buffer, offset, length);
            }

            @Override
            public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
                PREADS.incrementAndGet();
                local.readFully(position, buffer, offset, length);
            }

            @Override
            public void close() throws IOException {
                local.close();
            }
        });
    }
}
