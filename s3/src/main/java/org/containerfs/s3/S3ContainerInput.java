package org.containerfs.s3;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.InputIdentity;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * One S3 object as a container's bytes. Opening is one ranged GET of the object's first bytes (1 MiB by
 * default, {@code s3.openReadBytes}): its answer carries the size (in {@code Content-Range}), the ETag and
 * Last-Modified that a HEAD would, and the bytes every format's detection and index scan read first, so the
 * open costs one round trip instead of a HEAD and then that GET. Those bytes are served from memory until a
 * read has taken the last of them (the core's block cache keeps what it needs); {@code s3.openReadBytes=0}
 * opens with a HEAD instead. After that, one exact ranged GET ({@code Range: bytes=a-b}) per read, each with
 * {@code If-Match} on the ETag seen at open, so that a replaced object is an error instead of a mix of two
 * versions. An object a tree's listing described ({@code S3TreeSource}) is opened without a request, from the
 * listing's size and ETag: its first read is its first GET. Caching and coalescing are the core's block cache's job ({@link #remote()} is true); this class
 * moves exactly the bytes asked for.
 *
 * <p>Thread-safe: the SDK client is, and a read keeps no state between calls but dropping the open's bytes.
 */
public final class S3ContainerInput implements ContainerInput {
    private final SharedClient client;
    private final S3Location location;
    private final long size;
    private final String etag;
    private final FileTime lastModified;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The object's first bytes as the open's GET brought them; null once a read has taken the last of them. */
    private volatile byte[] first;
    /** What an open's GET fetches, for siblings too. */
    private final int openRead;

    private S3ContainerInput(SharedClient client, S3Location location, int openRead, long size, String etag,
            Instant lastModified, byte[] first) {
        this.client = client;
        this.openRead = openRead;
        this.location = location;
        this.size = size;
        this.etag = etag == null ? "" : etag;
        this.lastModified = lastModified == null ? FileTime.fromMillis(0) : FileTime.from(lastModified);
        this.first = first == null || first.length == 0 ? null : first;
    }

    /**
     * Opens {@code s3://bucket/key} with a client built from env and the SDK's standard configuration
     * (see {@link S3Settings}); one request: the GET of its first {@code s3.openReadBytes}, or a HEAD when that is 0.
     */
    public static S3ContainerInput open(URI s3Uri, Map<String, ?> env) throws IOException {
        S3Location location = S3Location.parse(s3Uri);
        int openRead = S3Settings.openReadBytes(env);
        Object given = env.get("s3.client");
        if (given instanceof S3Client caller) {
            return open(new SharedClient(caller, false), location, openRead);
        }
        S3Client owned = S3Settings.from(env).newClient();
        try {
            return open(new SharedClient(owned, true), location, openRead);
        } catch (IOException | RuntimeException e) {
            owned.close();
            throw e;
        }
    }

    /** Opens one object through a client that is closed with the input (and its siblings). */
    static S3ContainerInput openOwning(S3Client client, S3Location location, int openRead) throws IOException {
        return open(new SharedClient(client, true), location, openRead);
    }

    /**
     * Opens one object through a client of the caller's, which stays open after {@link #close()}; one GET of its
     * first {@value S3Settings#DEFAULT_OPEN_READ} bytes.
     */
    public static S3ContainerInput open(S3Client client, S3Location location) throws IOException {
        return open(client, location, S3Settings.DEFAULT_OPEN_READ);
    }

    /** As {@link #open(S3Client, S3Location)}, the open's GET taking {@code openRead} bytes (0: a HEAD instead). */
    public static S3ContainerInput open(S3Client client, S3Location location, int openRead) throws IOException {
        return open(new SharedClient(client, false), location, openRead);
    }

    private static S3ContainerInput open(SharedClient client, S3Location location, int openRead) throws IOException {
        if (openRead > 0) {
            S3ContainerInput opened = openWithFirstBytes(client, location, openRead);
            if (opened != null) {
                return opened;
            }
        }
        return openWithHead(client, location, openRead);
    }

    /**
     * An object a listing showed to be empty, without a request: it has no byte to read, and its identity (no
     * ETag) is its size alone. Its siblings open through {@code client}, which stays open.
     */
    static S3ContainerInput empty(S3Client client, S3Location location, int openRead, FileTime lastModified) {
        return new S3ContainerInput(new SharedClient(client, false), location, openRead, 0, null,
                lastModified == null ? null : lastModified.toInstant(), null);
    }

    /**
     * An object as a listing described it (size, ETag, Last-Modified), without a request. Its identity is the
     * listing's, so that a persisted index made for that ETag serves the open with nothing fetched; its first read
     * is a ranged GET like any other, with {@code If-Match} on the listed ETag, so that an object replaced since it
     * was listed fails (412, "replaced since it was opened") instead of being read against another version's index.
     * Its siblings open through {@code client}, which stays open.
     */
    static S3ContainerInput listed(S3Client client, S3Location location, int openRead, long size, String etag,
            FileTime lastModified) {
        if (size <= 0 || etag == null || etag.isEmpty()) {
            throw new IllegalArgumentException("a listed object needs a size and an ETag: " + location);
        }
        return new S3ContainerInput(new SharedClient(client, false), location, openRead, size, etag,
                lastModified == null ? null : lastModified.toInstant(), null);
    }

    /**
     * The open as one ranged GET of bytes {@code [0, openRead)}; null where its answer cannot say the object's size
     * (an empty object has no byte 0 to serve, a store may answer {@code Content-Range: bytes 0-9/*}): a HEAD then.
     */
    private static S3ContainerInput openWithFirstBytes(SharedClient client, S3Location location, int openRead)
            throws IOException {
        GetObjectRequest request = GetObjectRequest.builder().bucket(location.bucket()).key(location.key())
                .range("bytes=0-" + (openRead - 1)).build();
        String doing = "reading bytes 0-" + (openRead - 1) + " (size and ETag)";
        try {
            return client.client.getObject(request, (ResponseTransformer<GetObjectResponse, S3ContainerInput>)
                    (response, body) -> {
                        long size = objectSize(response);
                        if (size < 0) {
                            body.abort();
                            return null;
                        }
                        int want = (int) Math.min(openRead, size);
                        byte[] first = body.readNBytes(want);
                        if (first.length < want) {
                            body.abort();
                            throw new UncheckedIOException(new IOException(location + " ended at byte " + first.length
                                    + " of the " + size + " its answer to " + doing + " announced"));
                        }
                        if (response.contentLength() != null && response.contentLength() > want) {
                            body.abort(); // a store that ignored the Range: never drain the rest
                        }
                        return new S3ContainerInput(client, location, openRead, size, response.eTag(),
                                response.lastModified(), first);
                    });
        } catch (S3Exception e) {
            if (e.statusCode() == 416) {
                return null;
            }
            throw S3Errors.translate(e, location, doing);
        } catch (SdkException e) {
            throw S3Errors.translate(e, location, doing);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * The whole object's length as the answer to a GET from byte 0 gives it: after the slash of {@code Content-Range}
     * ({@code bytes 0-1048575/7340032}), or the body's length where the store sent the whole object; -1 when unknown.
     */
    static long objectSize(GetObjectResponse response) {
        String range = response.contentRange();
        if (range == null) {
            return response.contentLength() == null ? -1 : response.contentLength();
        }
        int slash = range.lastIndexOf('/');
        try {
            return slash < 0 ? -1 : Long.parseLong(range.substring(slash + 1).trim());
        } catch (NumberFormatException unknown) {
            return -1;
        }
    }

    private static S3ContainerInput openWithHead(SharedClient client, S3Location location, int openRead)
            throws IOException {
        HeadObjectResponse head;
        try {
            head = client.client.headObject(HeadObjectRequest.builder()
                    .bucket(location.bucket()).key(location.key()).build());
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw missing(client.client, location, e);
            }
            throw S3Errors.translate(e, location, "HEAD (size and ETag)");
        } catch (SdkException e) {
            throw S3Errors.translate(e, location, "HEAD (size and ETag)");
        }
        return new S3ContainerInput(client, location, openRead, head.contentLength(), head.eTag(), head.lastModified(), null);
    }

    /** A 404 on HEAD has no body: one more request tells a missing bucket from a missing key. */
    private static IOException missing(S3Client client, S3Location location, S3Exception notFound) {
        String what;
        try {
            client.headBucket(HeadBucketRequest.builder().bucket(location.bucket()).build());
            what = "no such key in bucket " + location.bucket();
        } catch (S3Exception bucket) {
            what = bucket.statusCode() == 404 ? "no bucket named " + location.bucket()
                    : "no such key (or no access to bucket " + location.bucket() + ")";
        } catch (SdkException unknown) {
            what = "no such key in bucket " + location.bucket();
        }
        NoSuchFileException e = new NoSuchFileException(location.toString(), null, what);
        e.initCause(notFound);
        return e;
    }

    public S3Location location() {
        return location;
    }

    /** The ETag the object had when opened; every read requires it still to be so. */
    public String etag() {
        return etag;
    }

    @Override
    public URI uri() {
        return location.uri();
    }

    @Override
    public long size() {
        return size;
    }

    /** The object's Last-Modified as the open saw it. */
    public FileTime lastModified() {
        return lastModified;
    }

    @Override
    public InputIdentity identity() {
        return new InputIdentity(uri(), size, etag);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (closed.get()) {
            throw new ClosedChannelException();
        }
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position + " in " + location);
        }
        if (position >= size) {
            return -1;
        }
        int want = (int) Math.min(dst.remaining(), size - position);
        if (want == 0) {
            return 0;
        }
        byte[] head = first;
        if (head != null && position < head.length) {
            int n = (int) Math.min(want, head.length - position);
            dst.put(head, (int) position, n);
            if (position + n == head.length) {
                first = null; // its last byte is read: whatever needs these bytes again has them cached by now
            }
            return n == want ? n : n + get(dst, position + n, want - n);
        }
        return get(dst, position, want);
    }

    /** One ranged GET of exactly {@code want} bytes from {@code position} into {@code dst}. */
    private int get(ByteBuffer dst, long position, int want) throws IOException {
        long last = position + want - 1;
        String range = "bytes " + position + "-" + last;
        int got;
        try {
            got = client.client.getObject(rangeRequest(position, last),
                    (ResponseTransformer<GetObjectResponse, Integer>) (response, body) -> fill(dst, body, want, response,
                            position));
        } catch (SdkException e) {
            throw S3Errors.translate(e, location, "reading " + range);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (got < want) {
            throw truncated(position + got, range);
        }
        return got;
    }

    /** A GET of bytes {@code [position, last]}, only of the object the open saw (If-Match on its ETag). */
    private GetObjectRequest rangeRequest(long position, long last) {
        return GetObjectRequest.builder()
                .bucket(location.bucket()).key(location.key())
                .range("bytes=" + position + "-" + last)
                .ifMatch(etag.isEmpty() ? null : etag)
                .build();
    }

    /** Null when the answer is the range asked for from {@code position}; else why this store cannot serve. */
    private IOException rangeIgnored(GetObjectResponse response, long position) {
        String contentRange = response.contentRange();
        if (position > 0 && (contentRange == null || !contentRange.startsWith("bytes " + position + "-"))) {
            return new IOException(location + ": the S3 service ignored the Range header (answered " + contentRange
                    + " for bytes " + position + "-); it cannot serve containers");
        }
        return null;
    }

    private IOException truncated(long at, String range) {
        return new IOException(location + " ended at byte " + at + " while reading " + range + " of the " + size
                + " bytes it had when opened: it was truncated or replaced; reopen it");
    }

    /**
     * One ranged GET for {@code [position, end)} whose body the caller reads in order; closing it before the end
     * aborts the request (the connection is dropped, nothing more is read).
     */
    @Override
    public InputStream openRange(long position, long end) throws IOException {
        if (closed.get()) {
            throw new ClosedChannelException();
        }
        long stop = Math.min(end, size);
        if (position < 0 || position >= stop) {
            throw new IllegalArgumentException("no bytes in [" + position + ", " + end + ") of " + location);
        }
        byte[] head = first;
        if (head != null && position < head.length) {
            return new FirstThenRest(head, (int) position, stop);
        }
        return stream(position, stop);
    }

    /** One ranged GET of {@code [position, stop)} as a stream; closing it before the end aborts the request. */
    private InputStream stream(long position, long stop) throws IOException {
        String range = "bytes " + position + "-" + (stop - 1);
        software.amazon.awssdk.core.ResponseInputStream<GetObjectResponse> body;
        try {
            body = client.client.getObject(rangeRequest(position, stop - 1));
        } catch (SdkException e) {
            throw S3Errors.translate(e, location, "reading " + range);
        }
        IOException ignored = rangeIgnored(body.response(), position);
        if (ignored != null) {
            body.abort();
            throw ignored;
        }
        long length = stop - position;
        return new BlockStream() {
            private long read;

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    int n = body.read(b, off, len);
                    if (n > 0) {
                        read += n;
                    } else if (n < 0 && read < length) {
                        throw truncated(position + read, range);
                    }
                    return n;
                } catch (SdkException e) {
                    throw S3Errors.translate(e, location, "reading " + range);
                }
            }

            @Override
            public void close() throws IOException {
                if (read < length) {
                    body.abort(); // never drain bytes nobody asked for
                }
                body.close();
            }
        };
    }

    private int fill(ByteBuffer dst, AbortableInputStream body, int want, GetObjectResponse response,
            long position) throws IOException {
        IOException ignored = rangeIgnored(response, position);
        if (ignored != null) {
            body.abort();
            throw new UncheckedIOException(ignored);
        }
        int got = ContainerInput.readFully(body, dst, want);
        Long length = response.contentLength();
        if (length != null && length > got) {
            body.abort(); // never drain bytes nobody asked for
        }
        return got;
    }

    @Override
    public ContainerInput sibling(String fileName) throws IOException {
        if (fileName.isEmpty() || fileName.contains("/")) {
            throw new NoSuchFileException(location.sibling("_").toString().replaceFirst("_$", fileName), null,
                    "not a file name beside " + location);
        }
        client.retain();
        try {
            return open(client, location.sibling(fileName), openRead);
        } catch (NoSuchFileException e) {
            client.release();
            NoSuchFileException named = new NoSuchFileException(location.sibling(fileName).toString(), null,
                    "member file of " + location + " not found (" + e.getReason() + ")");
            named.initCause(e);
            throw named;
        } catch (IOException | RuntimeException e) {
            client.release();
            throw e;
        }
    }

    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            client.release();
        }
    }

    @Override
    public String toString() {
        return location.toString();
    }

    /**
     * A run that starts in the open's first bytes: those from memory, then (only if the reader gets that far) one
     * ranged GET for the rest.
     */
    private final class FirstThenRest extends BlockStream {
        private final byte[] head;
        private int at;
        private final long stop;
        private InputStream rest;

        FirstThenRest(byte[] head, int from, long stop) {
            this.head = head;
            this.at = from;
            this.stop = stop;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int inHead = (int) Math.min(head.length, stop) - at;
            if (inHead > 0) {
                int n = Math.min(len, inHead);
                System.arraycopy(head, at, b, off, n);
                at += n;
                return n;
            }
            if (head.length >= stop) {
                return -1;
            }
            if (rest == null) {
                rest = stream(head.length, stop);
            }
            return rest.read(b, off, len);
        }

        @Override
        public void close() throws IOException {
            if (rest != null) {
                rest.close();
            }
        }
    }

    /** A stream read in blocks; a single byte is a block of one (nobody reads these a byte at a time). */
    private abstract static class BlockStream extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }
    }

    /** The checked exception a response transformer may not throw directly. */
    private static final class UncheckedIOException extends RuntimeException {
        UncheckedIOException(IOException cause) {
            super(cause);
        }

        @Override
        public synchronized IOException getCause() {
            return (IOException) super.getCause();
        }
    }

    /** One client shared by an input and its siblings; closed with the last of them if it is ours. */
    private static final class SharedClient {
        final S3Client client;
        private final boolean owned;
        private final AtomicInteger users = new AtomicInteger(1);

        SharedClient(S3Client client, boolean owned) {
            this.client = client;
            this.owned = owned;
        }

        void retain() {
            users.incrementAndGet();
        }

        void release() {
            if (users.decrementAndGet() == 0 && owned) {
                client.close();
            }
        }
    }
}
