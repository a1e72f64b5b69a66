package org.containerfs.spark;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code opencount:}, remembering every file opened for reading (listing
 * opens nothing): how the tests see which containers a query opened. The executors of {@code local[2]} are
 * threads of the test's JVM, so one list sees them all.
 */
public class OpenCountingFileSystem extends RawLocalFileSystem {
    static final List<String> OPENED = new CopyOnWriteArrayList<>();

    @Override
    public String getScheme() {
        return "opencount";
    }

    @Override
    public URI getUri() {
        return URI.create("opencount:///");
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        OPENED.add(f.getName());
        return super.open(f, bufferSize);
    }

    /** The names of the files opened while {@code query} runs (the tests run one query at a time). */
    static List<String> during(Runnable query) {
        OPENED.clear();
        query.run();
        return List.copyOf(OPENED);
    }
}
