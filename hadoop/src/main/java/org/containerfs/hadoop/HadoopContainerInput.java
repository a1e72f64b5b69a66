package org.containerfs.hadoop;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.InputIdentity;

/**
 * A container stored on any Hadoop {@link FileSystem}: HDFS, {@code s3a:}, {@code abfs:}, {@code gs:}, the
 * local file system, with the user's own Hadoop configuration and connectors.
 *
 * <p>Every read is a positioned read ({@code readFully(position, ...)}), the ByteBuffer variant where the
 * stream advertises it ({@code in:preadbytebuffer}), so reads never share a stream position. Hadoop's
 * {@code PositionedReadable} contract makes positioned reads thread-safe (HDFS and the local file system
 * read concurrently; streams without their own implementation serialise through {@code FSInputStream}'s
 * synchronized seek-read-seek), so no lock is taken here.
 *
 * <p>The stream is opened with the {@link FileStatus} the caller already holds (planning listed it), so an
 * object store is not asked for it again, and with the {@code random} read policy: the core reads an index
 * here and there and then whole records, never a stream from start to end.
 */
public final class HadoopContainerInput implements ContainerInput {
    private final FileSystem fs;
    private final FileStatus status;
    private final URI uri;
    private final FSDataInputStream in;
    private final boolean byteBufferReads;

    private HadoopContainerInput(FileSystem fs, FileStatus status) throws IOException {
        this.fs = fs;
        this.status = status;
        this.uri = uriOf(fs, status.getPath());
        this.in = openStream(readingFileSystem(fs, status.getPath()), status);
        this.byteBufferReads = in.hasCapability(StreamCapabilities.PREADBYTEBUFFER);
    }

    /** Opens the file at {@code path} with the file system {@code conf} selects for its scheme. */
    public static HadoopContainerInput open(Path path, Configuration conf) throws IOException {
        FileSystem fs = path.getFileSystem(conf);
        return open(fs, status(fs, path));
    }

    /** Opens a file whose status a listing already returned (no second metadata request). */
    public static HadoopContainerInput open(FileSystem fs, FileStatus status) throws IOException {
        if (!status.isFile()) {
            throw new java.nio.file.FileSystemException(status.getPath().toString(), null,
                    "not a regular file: a container is a file");
        }
        return new HadoopContainerInput(fs, status);
    }

    /** The file's status when it was opened: its length and modification time are what this input serves. */
    public FileStatus status() {
        return status;
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public long size() {
        return status.getLen();
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position + " in " + uri);
        }
        long size = status.getLen();
        if (position >= size) {
            return -1;
        }
        int count = (int) Math.min(dst.remaining(), size - position);
        if (count == 0) {
            return 0;
        }
        try {
            if (byteBufferReads) {
                ByteBuffer slice = dst.slice();
                slice.limit(count);
                in.readFully(position, slice);
            } else if (dst.hasArray()) {
                in.readFully(position, dst.array(), dst.arrayOffset() + dst.position(), count);
            } else {
                byte[] bytes = new byte[count];
                in.readFully(position, bytes, 0, count);
                dst.duplicate().put(bytes);
            }
        } catch (EOFException e) {
            // the file shrank below the length it had when opened: it was replaced or truncated
            EOFException named = new EOFException(uri + ": " + count + " bytes at offset " + position
                    + " could not be read, the file is shorter than the " + size + " bytes it had when opened");
            named.initCause(e);
            throw named;
        }
        dst.position(dst.position() + count);
        return count;
    }

    @Override
    public FileTime lastModified() {
        return FileTime.fromMillis(status.getModificationTime());
    }

    @Override
    public InputIdentity identity() {
        String version = status instanceof EtagSource e && e.getEtag() != null && !e.getEtag().isEmpty()
                ? "etag:" + e.getEtag()
                : "mtime:" + status.getModificationTime();
        return new InputIdentity(uri, status.getLen(), version);
    }

    @Override
    public ContainerInput sibling(String fileName) throws IOException {
        Path parent = status.getPath().getParent();
        if (parent == null || fileName.isEmpty() || fileName.contains("/")) {
            throw new NoSuchFileException(fileName, null, "not a file name beside " + uri);
        }
        return open(fs, status(fs, new Path(parent, fileName)));
    }

    /**
     * A second stream for one long run of reads in order (a big record read from start to end), opened with the
     * {@code sequential} read policy and the run's range as its split, so that s3a asks for the range in one
     * streaming GET, or a few large ones, where the random-policy stream above makes a request per read-ahead range
     * of the core's cache. Closing it before the end closes the stream, which for s3a aborts the GET rather than
     * reading the rest. None for {@code file:} (positioned reads there are plain local reads).
     */
    @Override
    public java.io.InputStream openRange(long position, long end) throws IOException {
        if (!remote() || position < 0 || end <= position || end > status.getLen()) {
            return null;
        }
        FSDataInputStream stream = openStream(fs, status, "sequential", position, end);
        try {
            stream.seek(position);
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e;
        }
        return new RangeStream(stream, end - position);
    }

    /** The bytes of one range of a stream; closing it closes the stream. */
    private static final class RangeStream extends java.io.InputStream {
        private final FSDataInputStream in;
        private long left;

        RangeStream(FSDataInputStream in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (left <= 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** {@code file:} reads are cheap local calls; everything else (HDFS, object stores) is a request. */
    @Override
    public boolean remote() {
        return !"file".equalsIgnoreCase(uri.getScheme());
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    @Override
    public String toString() {
        return uri.toString();
    }

    private static FileStatus status(FileSystem fs, Path path) throws IOException {
        try {
            return fs.getFileStatus(path);
        } catch (FileNotFoundException e) {
            NoSuchFileException missing = new NoSuchFileException(path.toString(), null, "no such file");
            missing.initCause(e);
            throw missing;
        }
    }

    /**
     * The local file system verifies {@code .crc} side files, and does so for a positioned read by opening
     * the file (and its .crc) anew each time. A file without a .crc (anything not written through Hadoop)
     * has nothing to verify: it is read through the raw local file system, whose positioned reads are
     * plain {@code FileChannel} reads.
     */
    private static FileSystem readingFileSystem(FileSystem fs, Path path) throws IOException {
        if (fs instanceof ChecksumFileSystem checksummed && !checksumFileExists(checksummed, path)) {
            return checksummed.getRawFileSystem();
        }
        return fs;
    }

    /**
     * Whether {@code path} has a {@code .crc} side file. On the local file system this is one stat through
     * java.nio: Hadoop's own {@code exists} builds and throws a FileNotFoundException for the usual answer, which
     * cost about a seventh of a Spark job that only lists containers' indexes.
     */
    private static boolean checksumFileExists(ChecksumFileSystem fs, Path path) throws IOException {
        Path crc = fs.makeQualified(fs.getChecksumFile(path));
        if ("file".equals(crc.toUri().getScheme())) {
            try {
                return java.nio.file.Files.exists(java.nio.file.Path.of(crc.toUri()));
            } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException notAPlainPath) {
                // fall through to Hadoop's own answer
            }
        }
        return fs.exists(crc);
    }

    private static FSDataInputStream openStream(FileSystem fs, FileStatus status) throws IOException {
        return openStream(fs, status, "random", -1, -1);
    }

    /** Opens with a read policy and, where {@code splitEnd >= 0}, the range to be read as the split. */
    private static FSDataInputStream openStream(FileSystem fs, FileStatus status, String policy, long splitStart,
            long splitEnd) throws IOException {
        try {
            var builder = fs.openFile(status.getPath())
                    .withFileStatus(status)
                    .opt("fs.option.openfile.read.policy", policy);
            if (splitEnd >= 0) {
                builder.opt("fs.option.openfile.split.start", splitStart).opt("fs.option.openfile.split.end", splitEnd);
            }
            return builder.build().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while opening " + status.getPath());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof FileNotFoundException missing) {
                NoSuchFileException named = new NoSuchFileException(status.getPath().toString(), null, "no such file");
                named.initCause(missing);
                throw named;
            }
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("cannot open " + status.getPath() + ": " + e.getCause(), e.getCause());
        }
    }

    /**
     * The URI an input of {@code path} reports, and the one form a container's URI takes wherever containerfs shows
     * it (the Spark {@code container} column, the CLI's JSON): qualified, without user info (never credentials),
     * characters outside US-ASCII percent-encoded as UTF-8. A local file is written as {@code java.nio}'s
     * {@code Path.toUri()} writes it, {@code file:///data/x.lime}, where Hadoop says {@code file:/data/x.lime}
     * (a glob) or {@code file:///data/x.lime} (a path given so): two loads of the same file must join.
     * Other file systems keep their authority: {@code hdfs://nn:8020/x.lime}, {@code s3a://bucket/x.g3}.
     */
    public static URI uriOf(FileSystem fs, Path path) {
        URI qualified = fs.makeQualified(path).toUri();
        try {
            if ("file".equalsIgnoreCase(qualified.getScheme())
                    && (qualified.getAuthority() == null || qualified.getAuthority().isEmpty())) {
                return URI.create(new URI("file", "", qualified.getPath(), null, null).toASCIIString());
            }
            return URI.create(withoutUserInfo(qualified).toASCIIString());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the local path " + qualified.getPath() + " as a file: URI", e);
        }
    }

    private static URI withoutUserInfo(URI uri) {
        if (uri.getUserInfo() == null) {
            return uri;
        }
        try {
            return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), uri.getQuery(),
                    uri.getFragment());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(uri.getScheme() + " URI of " + uri.getPath() + " without its user info", e);
        }
    }
}
