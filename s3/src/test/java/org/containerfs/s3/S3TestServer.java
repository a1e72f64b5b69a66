package org.containerfs.s3;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.gaul.shaded.org.eclipse.jetty.server.Handler;
import org.gaul.shaded.org.eclipse.jetty.server.Request;
import org.gaul.shaded.org.eclipse.jetty.server.Response;
import org.gaul.shaded.org.eclipse.jetty.server.Server;
import org.gaul.shaded.org.eclipse.jetty.util.Callback;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * An S3-compatible server in this JVM (s3proxy on 127.0.0.1, objects in memory) whose Jetty handler is
 * wrapped to record every HTTP request it receives: method, target, Range header and the body bytes
 * it sent back. Request bounds are asserted on these counts, as the server saw them.
 */
public final class S3TestServer implements AutoCloseable {
    public static final String ACCESS_KEY = "containerfs-test-access";
    /** Greppable on purpose: no output of the S3 tests may contain it. */
    public static final String SECRET_KEY = "SeCrEt-9f3b2c71e6d84a05-do-not-print";

    /** One request as the server received it. */
    public record Seen(String method, String target, String range, AtomicLong sent) {
        /** Body bytes sent back (counted as written, so complete once the client has them). */
        public long bodyBytes() {
            return sent.get();
        }
    }

    private final S3Proxy proxy;
    private final List<Seen> seen = new ArrayList<>();
    private final AtomicReference<CountDownLatch> stall = new AtomicReference<>();
    private final S3Client admin;
    private final S3Client bulk;
    private volatile long delayNanos;

    /** Objects held in memory. */
    public S3TestServer() throws Exception {
        this(null);
    }

    /** Objects stored as files under {@code root} (for objects too big for the heap), or in memory if null. */
    public S3TestServer(Path root) throws Exception {
        proxy = S3Proxy.builder()
                .blobStore(root == null ? new TransientNio2BlobStore() : new FilesystemNio2BlobStore(root.toString()))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .build();
        Field serverField = S3Proxy.class.getDeclaredField("server");
        serverField.setAccessible(true);
        Server server = (Server) serverField.get(proxy);
        server.setHandler(new Counting(server.getHandler()));
        proxy.start();
        while (!proxy.getState().equals("STARTED")) {
            Thread.sleep(10);
        }
        admin = client(ACCESS_KEY, SECRET_KEY);
        bulk = client(ACCESS_KEY, SECRET_KEY, Duration.ofMinutes(10), Duration.ofMinutes(10));
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    /** The env that points containerfs at this server with the right credentials, plus {@code key, value} pairs. */
    public Map<String, Object> env(Object... pairs) {
        Map<String, Object> env = new java.util.HashMap<>();
        env.put("s3.client", admin);
        for (int i = 0; i < pairs.length; i += 2) {
            env.put((String) pairs[i], pairs[i + 1]);
        }
        return env;
    }

    /** A client of this server with the given credentials (short timeouts: tests wait for errors). */
    public S3Client client(String accessKey, String secretKey) {
        return client(accessKey, secretKey, Duration.ofSeconds(3), Duration.ofSeconds(10));
    }

    private S3Client client(String accessKey, String secretKey, Duration attempt, Duration call) {
        return S3Client.builder()
                .endpointOverride(endpoint())
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(2)).socketTimeout(attempt))
                .overrideConfiguration(o -> o.apiCallAttemptTimeout(attempt).apiCallTimeout(call))
                .build();
    }

    public S3Client admin() {
        return admin;
    }

    /** A client for big objects (uploads, whole-object reads): minutes, not seconds, per request. */
    public S3Client bulk() {
        return bulk;
    }

    public void createBucket(String bucket) {
        admin.createBucket(b -> b.bucket(bucket));
    }

    public void put(String bucket, String key, byte[] bytes) {
        // a big upload on a busy machine outlasts the admin client's 10 s (the limits are for containerfs's reads)
        (bytes.length > (8 << 20) ? bulk : admin).putObject(PutObjectRequest.builder().bucket(bucket).key(key).build(), RequestBody.fromBytes(bytes));
    }

    public void put(String bucket, String key, Path file) throws IOException {
        bulk.putObject(PutObjectRequest.builder().bucket(bucket).key(key).build(), RequestBody.fromFile(file));
    }

    /** Uploads every regular file under dir as prefix + its relative path. */
    public void putTree(String bucket, String prefix, Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                put(bucket, prefix + dir.relativize(f).toString().replace('\\', '/'), f);
            }
        }
    }

    /** Forgets the requests seen so far. */
    public synchronized void reset() {
        seen.clear();
    }

    public synchronized List<Seen> requests() {
        return List.copyOf(seen);
    }

    public long count(String method) {
        return requests().stream().filter(r -> r.method().equals(method)).count();
    }

    public long total() {
        return requests().size();
    }

    public long bodyBytes() {
        return requests().stream().mapToLong(Seen::bodyBytes).sum();
    }

    /** Requests that would change a bucket. */
    public long mutating() {
        return requests().stream().filter(r -> !r.method().equals("GET") && !r.method().equals("HEAD")).count();
    }

    /** From now on every request is answered {@code delay} later (a stand-in for network round trips). */
    public void delayEachRequest(Duration delay) {
        delayNanos = delay.toNanos();
    }

    /** From now on every request waits (no answer) until {@link #resume()}. */
    public void stall() {
        stall.set(new CountDownLatch(1));
    }

    public void resume() {
        CountDownLatch latch = stall.getAndSet(null);
        if (latch != null) {
            latch.countDown();
        }
    }

    public void stop() throws Exception {
        resume();
        proxy.stop();
    }

    @Override
    public void close() throws Exception {
        admin.close();
        bulk.close();
        stop();
    }

    private synchronized void record(Seen s) {
        seen.add(s);
    }

    /** Counts each request and the body bytes of its response, then lets s3proxy answer. */
    private final class Counting extends Handler.Wrapper {
        Counting(Handler inner) {
            super(inner);
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            CountDownLatch latch = stall.get();
            if (latch != null) {
                latch.await(10, TimeUnit.MINUTES);
            }
            long delay = delayNanos;
            if (delay > 0) {
                Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
            }
            AtomicLong sent = new AtomicLong();
            record(new Seen(request.getMethod(), request.getHttpURI().getPathQuery(),
                    request.getHeaders().get("Range"), sent));
            Response counted = new Response.Wrapper(request, response) {
                @Override
                public void write(boolean last, ByteBuffer content, Callback done) {
                    if (content != null) {
                        sent.addAndGet(content.remaining());
                    }
                    super.write(last, content, done);
                }
            };
            return super.handle(request, counted, callback);
        }
    }

    /** Per-method counts, for failure messages. */
    public Map<String, Long> byMethod() {
        Map<String, Long> m = new ConcurrentHashMap<>();
        for (Seen s : requests()) {
            m.merge(s.method(), 1L, Long::sum);
        }
        return m;
    }
}
