package org.containerfs.s3;

import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Containers in S3-compatible object storage as read-only file systems:
 * {@code S3Containers.open(URI.create("s3://bucket/run/conf.lime"), Map.of())}. Reads go through the
 * core's block cache as exact ranged GETs; the bucket is never written to.
 */
public final class S3Containers {
    private S3Containers() {}

    /**
     * Opens the container at {@code s3://bucket/key} read-only. env: the core's options (format,
     * strict, ...) and {@link S3Settings}' {@code s3.*} keys. {@code create} or
     * {@code accessMode=readWrite} is refused before any request is sent.
     */
    public static FileSystem open(URI s3Uri, Map<String, ?> env) throws IOException {
        if (s3Uri.getScheme() != null && s3Uri.getScheme().equalsIgnoreCase("s3x")) {
            return open(S3xAddress.parse(s3Uri), env);
        }
        refuseWrites(S3Location.parse(s3Uri).toString(), env);
        return ContainerFileSystems.open(S3ContainerInput.open(s3Uri, env), env);
    }

    /**
     * An S3 prefix ({@code s3://bucket/run/}, or {@code s3://bucket/} for a whole bucket) as one read-only tree of
     * the containers below it ({@code ContainerFileSystems.openTree}, docs/ensemble.md): its "directories" as
     * directories, every container as a directory of its own name, other objects as plain files. Listing a
     * directory sends LIST requests only; a container is opened (one GET) on the first use of a path inside it.
     * env: the tree's keys ({@code cacheContainers}, {@code cacheBytes}, {@code containerNames}), {@link S3Settings}'
     * {@code s3.*} keys and {@code s3.listCacheEntries} ({@link S3TreeSource}), and every other key for each
     * container's open. Writable opens are refused before any request.
     *
     * <p>The persisted index cache keeps every container's index here, however small ({@code indexCacheMinSize}
     * defaults to 0 instead of 1 MiB): over S3 even a small container's scan costs a GET, and with an entry made
     * for the ETag the listing shows, a container opens with no request at all (its records' bytes are fetched
     * when they are read).
     */
    public static org.containerfs.ensemble.EnsembleFileSystem openTree(URI s3Prefix, Map<String, ?> env)
            throws IOException {
        refuseWrites(s3Prefix.toString(), env);
        Map<String, Object> treeEnv = new HashMap<>(env);
        treeEnv.putIfAbsent(INDEX_CACHE_MIN_SIZE, 0);
        return ContainerFileSystems.openTree(S3TreeSource.open(s3Prefix, treeEnv), treeEnv);
    }

    /** The core's env key of the smallest container whose index is persisted. */
    private static final String INDEX_CACHE_MIN_SIZE = "indexCacheMinSize";

    /**
     * Opens a container given as a Path of the {@code aws-java-nio-spi-for-s3} provider ({@code s3://}
     * or {@code s3x://host:port/bucket/key}) read-only, reading it with this module's exact ranged GETs
     * behind the core's block cache rather than through that provider's channel (whose read-ahead
     * fetches whole fragments of 5 MiB). Any other Path is opened by {@link ContainerFileSystems#open(Path, Map)}.
     */
    public static FileSystem open(Path container, Map<String, ?> env) throws IOException {
        if (container.getFileSystem() == FileSystems.getDefault()) {
            return ContainerFileSystems.open(container, env);
        }
        URI uri = container.toUri();
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("s3") && !scheme.equals("s3x")) {
            return ContainerFileSystems.open(container, env);
        }
        // the SPI's Path URI leaves its credentials out: take them, the protocol and the region from its configuration
        SpiConfiguration spi = SpiConfiguration.of(container.getFileSystem());
        if (scheme.equals("s3")) {
            return open(uri, spi.applyTo(env));
        }
        S3xAddress address = S3xAddress.parse(uri, spi.protocol);
        return open(address.credentials() != null ? address : address.with(spi.credentials), spi.applyTo(env));
    }

    private static FileSystem open(S3xAddress address, Map<String, ?> env) throws IOException {
        refuseWrites(address.toString(), env);
        if (env.get("s3.client") instanceof S3Client given) {
            return ContainerFileSystems.open(S3ContainerInput.open(given, address.location(),
                    S3Settings.openReadBytes(env)), env);
        }
        Map<String, Object> withEndpoint = new HashMap<>(env);
        withEndpoint.put("s3.endpoint", address.endpoint());
        S3Client client = address.credentials() == null
                ? S3Settings.from(withEndpoint).newClient()
                : S3Settings.from(withEndpoint).newClient(address.credentials());
        S3ContainerInput input;
        try {
            input = S3ContainerInput.openOwning(client, address.location(), S3Settings.openReadBytes(env));
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
        return ContainerFileSystems.open(input, env);
    }

    /**
     * Refuses a writable open before any request: an object store has no locks and no in-place
     * appends, so containerfs never writes to one, nor beside one ({@code gzipIndex=true}).
     */
    public static void refuseWrites(String object, Map<String, ?> env) throws AccessDeniedException {
        Object create = env.get("create");
        Object accessMode = env.get("accessMode");
        boolean creating = create != null && Boolean.parseBoolean(create.toString());
        boolean writing = accessMode != null && !accessMode.toString().equalsIgnoreCase("readOnly");
        if (creating || writing) {
            throw new AccessDeniedException(object, null, readOnlyReason(creating ? "creating it" : "opening it for writing"));
        }
        // a .g3.gz's index file beside the object: refused here, before the open's GET, whatever the format
        // (the G3 provider refuses it too, but only once the object's first bytes have been fetched)
        Object gzipIndex = env.get("gzipIndex");
        if (gzipIndex != null && Boolean.parseBoolean(gzipIndex.toString()) && env.get("gzipIndexDir") == null) {
            throw new AccessDeniedException(object, null, "env gzipIndex=true would write an index file (.zidx) beside "
                    + "the object, in a store that is only read; nothing was sent to the bucket. Leave it out (the local "
                    + "index cache keeps the index) or give gzipIndexDir=<local directory>");
        }
    }

    /** What a refused write says: what was refused, why, what to do instead. */
    public static String readOnlyReason(String refused) {
        return refused + " refused: containers in object storage are read-only (S3 has no file locks and no "
                + "in-place appends, so a write could lose a concurrent writer's data; nothing was sent to the "
                + "bucket). To append, copy the object to a local file, append there, and upload the result";
    }

    /** An {@code s3x://[key:secret@]host[:port]/bucket/key} URI of the NIO SPI, taken apart. */
    record S3xAddress(URI endpoint, S3Location location, AwsCredentialsProvider credentials) {
        static S3xAddress parse(URI uri) {
            return parse(uri, System.getProperty("s3.spi.endpoint-protocol", "https"));
        }

        S3xAddress with(AwsCredentialsProvider other) {
            return new S3xAddress(endpoint, location, other);
        }

        static S3xAddress parse(URI uri, String protocol) {
            String path = uri.getPath();
            int slash = path == null ? -1 : path.indexOf('/', 1);
            if (uri.getHost() == null || slash < 0 || slash == path.length() - 1) {
                throw new IllegalArgumentException("an s3x container is named s3x://host[:port]/bucket/key, not "
                        + S3Location.redacted(uri));
            }
            URI endpoint = URI.create(protocol + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : ""));
            AwsCredentialsProvider credentials = null;
            String userInfo = uri.getUserInfo();
            if (userInfo != null && userInfo.contains(":")) {
                int colon = userInfo.indexOf(':');
                credentials = StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(userInfo.substring(0, colon), userInfo.substring(colon + 1)));
            }
            return new S3xAddress(endpoint, new S3Location(path.substring(1, slash), path.substring(slash + 1)),
                    credentials);
        }

        /** Shown without credentials. */
        @Override
        public String toString() {
            return "s3x://" + endpoint.getAuthority() + "/" + location.bucket() + "/" + location.key();
        }
    }

    /**
     * What the NIO SPI's file system was configured with (read by reflection: the SPI is optional,
     * and only its own configuration knows credentials given in an {@code s3x://key:secret@} URI).
     */
    private record SpiConfiguration(String protocol, AwsCredentialsProvider credentials, String region) {
        static SpiConfiguration of(FileSystem fs) {
            try {
                Object conf = fs.getClass().getMethod("configuration").invoke(fs);
                Object credentials = conf.getClass().getMethod("getCredentialsProvider").invoke(conf);
                Object protocol = conf.getClass().getMethod("getEndpointProtocol").invoke(conf);
                Object region = conf.getClass().getMethod("getRegion").invoke(conf);
                return new SpiConfiguration(protocol instanceof String p && !p.isBlank() ? p : "https",
                        credentials instanceof AwsCredentialsProvider c ? c : null,
                        region instanceof String r && !r.isBlank() ? r : null);
            } catch (ReflectiveOperationException | RuntimeException notTheSpi) {
                return new SpiConfiguration(System.getProperty("s3.spi.endpoint-protocol", "https"), null, null);
            }
        }

        Map<String, ?> applyTo(Map<String, ?> env) {
            if (region == null || env.containsKey("s3.region")) {
                return env;
            }
            Map<String, Object> withRegion = new HashMap<>(env);
            withRegion.put("s3.region", region);
            return withRegion;
        }
    }
}
