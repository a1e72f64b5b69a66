package org.containerfs.hadoop;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.gaul.shaded.org.eclipse.jetty.server.Handler;
import org.gaul.shaded.org.eclipse.jetty.server.Request;
import org.gaul.shaded.org.eclipse.jetty.server.Response;
import org.gaul.shaded.org.eclipse.jetty.server.Server;
import org.gaul.shaded.org.eclipse.jetty.util.Callback;
import software.amazon.awssdk.services.s3.model.CreateBucketRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * s3proxy on 127.0.0.1 in this JVM (objects in memory), logging each HTTP request it is sent as
 * {@code "METHOD target range"}, and the Hadoop configuration that points {@code s3a://} at it: a fixed endpoint,
 * path-style, static credentials (no lookup chain, no instance metadata service), short timeouts, no retries.
 */
public final class S3aTestServer implements AutoCloseable {
    private static final String ACCESS_KEY = "containerfs-s3a-test";
    private static final String SECRET_KEY = "s3a-test-secret";

    private final TransientNio2BlobStore store = new TransientNio2BlobStore();
    private final S3Proxy proxy;
    private final List<String> requests = new ArrayList<>();

    public S3aTestServer() throws Exception {
        proxy = S3Proxy.builder()
                .blobStore(store)
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .build();
        // s3proxy has no hook for observing requests: wrap its Jetty handler before it starts
        Field serverField = S3Proxy.class.getDeclaredField("server");
        serverField.setAccessible(true);
        Server server = (Server) serverField.get(proxy);
        server.setHandler(new Handler.Wrapper(server.getHandler()) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String range = request.getHeaders().get("Range");
                log(request.getMethod() + " " + request.getHttpURI().getPathQuery() + (range == null ? "" : " " + range));
                return super.handle(request, response, callback);
            }
        });
        proxy.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                proxy.stop();
                throw new IllegalStateException("s3proxy did not start in 10 s: " + proxy.getState());
            }
            Thread.sleep(10);
        }
    }

    /**
     * The Hadoop settings reaching this server as {@code s3a://bucket/}: as a Spark read's options, or in a
     * {@link #configuration()}.
     */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("fs.s3a.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
        settings.put("fs.s3a.endpoint", "http://127.0.0.1:" + proxy.getPort());
        settings.put("fs.s3a.endpoint.region", "us-east-1");
        settings.put("fs.s3a.path.style.access", "true");
        settings.put("fs.s3a.connection.ssl.enabled", "false");
        settings.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
        settings.put("fs.s3a.access.key", ACCESS_KEY);
        settings.put("fs.s3a.secret.key", SECRET_KEY);
        settings.put("fs.s3a.connection.establish.timeout", "2s");
        settings.put("fs.s3a.connection.timeout", "10s");
        settings.put("fs.s3a.connection.request.timeout", "20s");
        settings.put("fs.s3a.attempts.maximum", "0");
        settings.put("fs.s3a.retry.limit", "0");
        return settings;
    }

    /** A configuration of {@link #settings()} alone (no Hadoop defaults files). */
    public Configuration configuration() {
        Configuration conf = new Configuration(false);
        settings().forEach(conf::set);
        return conf;
    }

    /** Creates a bucket in the store itself (no request through the server). */
    public void createBucket(String bucket) {
        store.createContainer(CreateBucketRequest.builder().bucket(bucket).build());
    }

    /** Stores the file's bytes as {@code bucket/key} (no request through the server). */
    public void put(String bucket, String key, Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            store.putBlob(PutObjectRequest.builder().bucket(bucket).key(key).contentLength(Files.size(file)).build(), in);
        }
    }

    private synchronized void log(String request) {
        requests.add(request);
    }

    /** The requests received since the last call, oldest first; the log starts again empty. */
    public synchronized List<String> takeRequests() {
        List<String> taken = List.copyOf(requests);
        requests.clear();
        return taken;
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
    }
}
