package org.containerfs.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The options of one read. Ours: {@code format}, {@code strict}, {@code recordGlob}, {@code pathGlobFilter},
 * {@code recursiveFileLookup}, {@code maxPartitionBytes}, {@code openCostInBytes}, {@code columnar},
 * {@code columnarBatchSize}. Every option also goes
 * into the Hadoop configuration of the read (as Spark's file sources do: {@code fs.s3a.endpoint}, ...), and
 * every option that is not Spark's or Hadoop's goes to the provider as an env key (G3 {@code verify}, scda
 * {@code lenient}, SIONlib {@code chunks}, ...): opening is always read-only.
 */
final class ReadOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    static final long DEFAULT_MAX_PARTITION_BYTES = 128L << 20;
    static final long DEFAULT_OPEN_COST_BYTES = 4L << 20;

    /** Options that are ours or Spark's and mean nothing to the provider. */
    private static final Set<String> NOT_ENV = Set.of("path", "paths", "recordglob", "pathglobfilter",
            "recursivefilelookup", "maxpartitionbytes", "opencostinbytes", "accessmode", "create", "columnar",
            "columnarbatchsize");

    static final int DEFAULT_COLUMNAR_BATCH_SIZE = 4096;

    final List<String> paths;
    /** Forced format, or null to detect each file's. */
    final String format;
    final boolean strict;
    final String recordGlob;
    final String pathGlobFilter;
    final boolean recursiveFileLookup;
    final long maxPartitionBytes;
    final long openCostInBytes;
    /** Column batches (the default) or rows ({@code false}). */
    final boolean columnar;
    /** Records per column batch, at most. */
    final int columnarBatchSize;
    /** The env every container is opened with. */
    final Map<String, String> env;
    /** All options as given (case kept), for the Hadoop configuration. */
    final Map<String, String> all;

    private ReadOptions(List<String> paths, String format, boolean strict, String recordGlob, String pathGlobFilter,
            boolean recursiveFileLookup, long maxPartitionBytes, long openCostInBytes, boolean columnar,
            int columnarBatchSize, Map<String, String> env, Map<String, String> all) {
        this.paths = paths;
        this.format = format;
        this.strict = strict;
        this.recordGlob = recordGlob;
        this.pathGlobFilter = pathGlobFilter;
        this.recursiveFileLookup = recursiveFileLookup;
        this.maxPartitionBytes = maxPartitionBytes;
        this.openCostInBytes = openCostInBytes;
        this.columnar = columnar;
        this.columnarBatchSize = columnarBatchSize;
        this.env = env;
        this.all = all;
    }

    static ReadOptions parse(CaseInsensitiveStringMap options) {
        List<String> paths = new ArrayList<>();
        String path = options.get("path");
        if (path != null) {
            paths.add(path);
        }
        String many = options.get("paths");
        if (many != null) {
            try {
                for (String p : new ObjectMapper().readValue(many, String[].class)) {
                    paths.add(p);
                }
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("option paths must be a JSON array of strings, got " + many, e);
            }
        }
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("containerfs needs at least one path: spark.read.format(\"containerfs\").load(path)");
        }
        String format = options.get("format");
        if (format != null) {
            format = format.toLowerCase(Locale.ROOT);
        }
        boolean strict = options.getBoolean("strict", false);
        long maxPartitionBytes = bytesOption(options, "maxPartitionBytes", "spark.sql.files.maxPartitionBytes",
                DEFAULT_MAX_PARTITION_BYTES);
        long openCost = bytesOption(options, "openCostInBytes", "spark.sql.files.openCostInBytes",
                DEFAULT_OPEN_COST_BYTES);
        Map<String, String> all = new LinkedHashMap<>(options.asCaseSensitiveMap());
        Map<String, String> env = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : all.entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            if (!NOT_ENV.contains(key) && !key.startsWith("fs.") && !key.startsWith("spark.")
                    && !key.startsWith("hadoop.") && !key.startsWith("dfs.")) {
                env.put(e.getKey(), e.getValue());
            }
        }
        env.put("accessMode", "readOnly");
        // a read of files that do not change: no need to check for growth before each listing
        env.putIfAbsent("refresh", "false");
        return new ReadOptions(Collections.unmodifiableList(paths), format, strict, options.get("recordGlob"),
                options.get("pathGlobFilter"), options.getBoolean("recursiveFileLookup", false), maxPartitionBytes,
                openCost, columnar(options.get("columnar")), batchSize(options.get("columnarBatchSize")),
                Collections.unmodifiableMap(env), Collections.unmodifiableMap(all));
    }

    private static boolean columnar(String value) {
        if (value == null || value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("option columnar must be true or false, got " + value);
    }

    private static int batchSize(String value) {
        if (value == null) {
            return DEFAULT_COLUMNAR_BATCH_SIZE;
        }
        try {
            int size = Integer.parseInt(value.trim());
            if (size > 0) {
                return size;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException("option columnarBatchSize must be a positive number of records, got " + value);
    }

    private static long bytesOption(CaseInsensitiveStringMap options, String key, String sessionKey, long fallback) {
        String value = options.get(key);
        if (value == null) {
            SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
            if (session != null && session.conf().contains(sessionKey)) {
                value = session.conf().get(sessionKey);
            }
        }
        if (value == null) {
            return fallback;
        }
        long bytes;
        try {
            bytes = org.apache.spark.network.util.JavaUtils.byteStringAsBytes(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + key + " must be a byte count (134217728, 128m, 1g), got " + value, e);
        }
        if (bytes <= 0) {
            throw new IllegalArgumentException("option " + key + " must be positive, got " + value);
        }
        return bytes;
    }
}
