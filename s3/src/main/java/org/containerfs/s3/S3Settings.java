package org.containerfs.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * How to reach S3, the AWS SDK's standard way: region and credentials from the SDK's default chains
 * (environment, system properties, {@code ~/.aws/config} and {@code credentials}, {@code AWS_PROFILE},
 * container and instance roles), the endpoint from {@code AWS_ENDPOINT_URL_S3} or {@code AWS_ENDPOINT_URL}
 * for S3-compatible stores (MinIO, Ceph RGW, s3proxy), addressed path-style whenever the endpoint is
 * overridden. Every wait has a limit, so a dead server is an error, never a hang.
 *
 * <p>Env keys (all optional): {@code s3.endpoint}, {@code s3.region}, {@code s3.pathStyle},
 * {@code s3.connectTimeout}, {@code s3.requestTimeout} (one HTTP attempt, body included),
 * {@code s3.totalTimeout} (a call with its retries); durations as {@code 30s}, {@code 500ms}, {@code 2m} (a bare
 * number is seconds) or ISO-8601.
 * {@code s3.client}: an {@link S3Client} of the caller's, used as given and left open.
 * {@code s3.openReadBytes}: what the open's one GET fetches from the object's start (default 1 MiB, the core's
 * block; 0 opens with a HEAD instead).
 */
public record S3Settings(URI endpoint, Region region, boolean pathStyle, Duration connectTimeout,
        Duration requestTimeout, Duration totalTimeout) {

    static final Duration DEFAULT_CONNECT = Duration.ofSeconds(10);
    static final Duration DEFAULT_REQUEST = Duration.ofSeconds(60);
    /** As long as one request may take: a server that accepts and never answers fails after this, not after retries. */
    static final Duration DEFAULT_TOTAL = Duration.ofSeconds(60);
    /** The open's GET: the core's default block, which every format's detection and first scan read. */
    public static final int DEFAULT_OPEN_READ = 1 << 20;
    static final int MAX_OPEN_READ = 64 << 20;

    /** Settings from env, then the JVM's system properties and the process environment. */
    public static S3Settings from(Map<String, ?> env) {
        URI endpoint = endpoint(env);
        Object pathStyle = env.get("s3.pathStyle");
        return new S3Settings(endpoint, region(env),
                pathStyle != null ? Boolean.parseBoolean(pathStyle.toString()) : endpoint != null,
                duration(env, "s3.connectTimeout", DEFAULT_CONNECT),
                duration(env, "s3.requestTimeout", DEFAULT_REQUEST),
                duration(env, "s3.totalTimeout", DEFAULT_TOTAL));
    }

    /** A client as these settings say, credentials from the SDK's default chain; the caller closes it. */
    public S3Client newClient() {
        return newClient(DefaultCredentialsProvider.builder().build());
    }

    /** A client as these settings say with the given credentials; the caller closes it. */
    public S3Client newClient(AwsCredentialsProvider credentials) {
        var builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(connectTimeout)
                        .socketTimeout(requestTimeout))
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallAttemptTimeout(requestTimeout)
                        .apiCallTimeout(totalTimeout)
                        .build())
                .credentialsProvider(credentials)
                .region(region)
                .forcePathStyle(pathStyle);
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        } else {
            // a bucket in another region than the configured one is still found (AWS only)
            builder.crossRegionAccessEnabled(true);
        }
        return builder.build();
    }

    /** {@code s3.openReadBytes} from env: 0 (open with a HEAD) to 64 MiB. */
    static int openReadBytes(Map<String, ?> env) {
        Object value = env.get("s3.openReadBytes");
        if (value == null) {
            return DEFAULT_OPEN_READ;
        }
        long bytes;
        try {
            bytes = value instanceof Number n ? n.longValue() : Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("env s3.openReadBytes=" + value + ": expected a byte count", e);
        }
        if (bytes < 0 || bytes > MAX_OPEN_READ) {
            throw new IllegalArgumentException("env s3.openReadBytes=" + value + ": expected 0 (open with a HEAD) to "
                    + MAX_OPEN_READ + " bytes");
        }
        return (int) bytes;
    }

    private static URI endpoint(Map<String, ?> env) {
        String[] sources = {
            text(env.get("s3.endpoint")),
            System.getProperty("aws.endpointUrlS3"),
            System.getenv("AWS_ENDPOINT_URL_S3"),
            System.getProperty("aws.endpointUrl"),
            System.getenv("AWS_ENDPOINT_URL"),
        };
        for (String s : sources) {
            if (s != null && !s.isBlank()) {
                return URI.create(s.trim());
            }
        }
        return null;
    }

    private static Region region(Map<String, ?> env) {
        String given = text(env.get("s3.region"));
        if (given != null && !given.isBlank()) {
            return Region.of(given.trim());
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (SdkClientException noneConfigured) {
            // S3-compatible stores ignore the region but the signature needs one; AWS redirects
            return Region.US_EAST_1;
        }
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    /** What a duration may look like, for the message that refuses another form. */
    static final String DURATION_FORMS = "a number and a unit: 500ms, 10s, 1.5s, 2m, 1h (a number alone is seconds), "
            + "or ISO-8601 such as PT1M30S";
    private static final java.util.regex.Pattern DURATION =
            java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");

    /**
     * A time limit from env: a {@link Duration}, a number of seconds, or text as {@link #DURATION_FORMS} says.
     * Units are lower case and written without a space: {@code 10M} (minutes? megabytes?) or {@code 10 sec} is
     * refused rather than guessed, as is a limit of zero or less (no limit at all is what a limit prevents).
     */
    static Duration duration(Map<String, ?> env, String key, Duration otherwise) {
        Object value = env.get(key);
        if (value == null) {
            return otherwise;
        }
        Duration d;
        try {
            d = value instanceof Duration given ? given : parseDuration(value);
        } catch (IllegalArgumentException | ArithmeticException | java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("env " + key + "=" + value + ": expected " + DURATION_FORMS, e);
        }
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("env " + key + "=" + value + ": expected a time limit above zero ("
                    + DURATION_FORMS + ")");
        }
        return d;
    }

    private static Duration parseDuration(Object value) {
        if (value instanceof Number n) {
            return Duration.ofMillis(Math.round(n.doubleValue() * 1000));
        }
        String s = value.toString().trim();
        if (s.startsWith("PT") || s.startsWith("pt")) {
            return Duration.parse(s);
        }
        java.util.regex.Matcher m = DURATION.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException(s);
        }
        double amount = Double.parseDouble(m.group(1));
        double millisPerUnit = switch (m.group(2) == null ? "s" : m.group(2)) {
            case "ms" -> 1;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> 1000;
        };
        double millis = amount * millisPerUnit;
        if (millis > Long.MAX_VALUE / 2) {
            throw new ArithmeticException("too long");
        }
        return Duration.ofMillis(Math.round(millis));
    }
}
