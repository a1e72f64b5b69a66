package org.containerfs.s3;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.FileTime;
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
 * One S3 object as a container's bytes: a HEAD when opened (size and ETag), then one exact ranged GET
 * ({@code Range: bytes=a-b}) per read, each with {@code If-Match} on the ETag seen at open, so that a
 * replaced object is an error instead of a mix of two versions. Caching and coalescing are the core's
 * block cache's job ({@link #remote()} is true); this class moves exactly the bytes asked for.
 *
 * <p>Thread-safe: the SDK client is, and a read keeps no state between calls.
 */
public final class S3ContainerInput implements ContainerInput {
    private final SharedClient client;
    private final S3Location location;
    private final long size;
    private final String etag;
    private final FileTime lastModified;
    private final AtomicBoolean closed = new AtomicBoolean();

    private S3ContainerInput(SharedClient client, S3Location location, HeadObjectResponse head) {
        this.client = client;
        this.location = location;
        this.size = head.contentLength();
        this.etag = head.eTag() == null ? "" : head.eTag();
        this.lastModified = head.lastModified() == null ? FileTime.fromMillis(0) : FileTime.from(head.lastModified());
    }

    /**
     * Opens {@code s3://bucket/key} with a client built from env and the SDK's standard configuration
     * (see {@link S3Settings}); one HEAD request.
     */
    public static S3ContainerInput open(URI s3Uri, Map<String, ?> env) throws IOException {
        S3Location location = S3Location.parse(s3Uri);
        Object given = env.get("s3.client");
        if (given instanceof S3Client caller) {
            return open(caller, location);
        }
        S3Client owned = S3Settings.from(env).newClient();
        try {
            return open(new SharedClient(owned, true), location);
        } catch (IOException | RuntimeException e) {
            owned.close();
            throw e;
        }
    }

    /** Opens one object through a client that is closed with the input (and its siblings). */
    static S3ContainerInput openOwning(S3Client client, S3Location location) throws IOException {
        return open(new SharedClient(client, true), location);
    }

    /** Opens one object through a client of the caller's, which stays open after {@link #close()}. */
    public static S3ContainerInput open(S3Client client, S3Location location) throws IOException {
        return open(new SharedClient(client, false), location);
    }

    private static S3ContainerInput open(SharedClient client, S3Location location) throws IOException {
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
        return new S3ContainerInput(client, location, head);
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

    /** The object's Last-Modified as the HEAD at open saw it. */
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

    /** A GET of bytes {@code [position, last]}, only of the object the HEAD at open saw (If-Match on its ETag). */
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
        return new InputStream() {
            private long read;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

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
            return open(client, location.sibling(fileName));
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
