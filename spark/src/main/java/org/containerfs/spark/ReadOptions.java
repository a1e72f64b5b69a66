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
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The options of one read. Ours: {@code format}, {@code strict}, {@code recordGlob}, {@code columnarBatchSize};
 * Spark's file-source options ({@code pathGlobFilter}, {@code recursiveFileLookup}, {@code basePath},
 * {@code modifiedBefore}, {@code modifiedAfter}, {@code ignoreCorruptFiles}, {@code ignoreMissingFiles}) are
 * applied by Spark's listing and scan; the load paths are kept to tell whether a SIONlib member's first file
 * is read too. Every option also goes into the Hadoop configuration of the read (Spark does that: {@code
 * fs.s3a.endpoint}, ...), and every option that is not Spark's or Hadoop's goes to the provider as an env key
 * (G3 {@code verify}, scda {@code lenient}, SIONlib {@code chunks}, ...): opening is always read-only.
 */
final class ReadOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Options that are ours or Spark's and mean nothing to the provider. */
    private static final Set<String> NOT_ENV = Set.of("path", "paths", "recordglob", "pathglobfilter",
            "recursivefilelookup", "basepath", "modifiedbefore", "modifiedafter", "ignorecorruptfiles",
            "ignoremissingfiles", "returning_batch", "accessmode", "create", "columnarbatchsize");

    /** Options this source had before it was a Spark file source, now Spark's settings: refused with the new name. */
    private static final Map<String, String> MOVED = Map.of(
            "columnar", ContainerfsFileFormat.COLUMNAR_CONF + " (a session setting: Spark decides rows or batches per query plan)",
            "maxpartitionbytes", "spark.sql.files.maxPartitionBytes (a session setting, as for every Spark file source)",
            "opencostinbytes", "spark.sql.files.openCostInBytes (a session setting, as for every Spark file source)");

    static final int DEFAULT_COLUMNAR_BATCH_SIZE = 4096;

    /** The load paths when Spark passes them as options (one path, or a table's location); empty when unknown. */
    final List<String> paths;
    /** Forced format, or null to detect each file's. */
    final String format;
    final boolean strict;
    final String recordGlob;
    final String pathGlobFilter;
    final boolean recursiveFileLookup;
    /** Records per column batch, at most. */
    final int columnarBatchSize;
    /** The env every container is opened with. */
    final Map<String, String> env;

    private ReadOptions(List<String> paths, String format, boolean strict, String recordGlob, String pathGlobFilter,
            boolean recursiveFileLookup, int columnarBatchSize, Map<String, String> env) {
        this.paths = paths;
        this.format = format;
        this.strict = strict;
        this.recordGlob = recordGlob;
        this.pathGlobFilter = pathGlobFilter;
        this.recursiveFileLookup = recursiveFileLookup;
        this.columnarBatchSize = columnarBatchSize;
        this.env = env;
    }

    static ReadOptions parse(CaseInsensitiveStringMap options) {
        for (Map.Entry<String, String> moved : MOVED.entrySet()) {
            if (options.containsKey(moved.getKey())) {
                throw new IllegalArgumentException("containerfs: the option " + moved.getKey() + " is now "
                        + moved.getValue() + " (docs/spark.md, Options)");
            }
        }
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
        String format = options.get("format");
        if (format != null) {
            format = format.toLowerCase(Locale.ROOT);
        }
        boolean strict = options.getBoolean("strict", false);
        Map<String, String> env = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.asCaseSensitiveMap().entrySet()) {
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
                options.get("pathGlobFilter"), options.getBoolean("recursiveFileLookup", false),
                batchSize(options.get("columnarBatchSize")), Collections.unmodifiableMap(env));
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
}
