package org.containerfs.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sha2;
import static org.apache.spark.sql.functions.sum;

import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.containerfs.core.ContainerFileSystems;

/**
 * Scenario 10's measuring program, run by {@link SparkScenarios} in its own JVM with Spark on the class path
 * (the harness jar carries no Spark): the containers of one directory read by a single-thread walk through
 * the provider, by {@code spark.read.format("containerfs")} with local[1] and local[2], and by Spark's
 * {@code binaryFile} with content. Prints one line per measurement: {@code TIME variant|seconds|rows|cpu seconds}
 * (the process's CPU time: what the run cost, however loaded the machine was).
 *
 * <pre>SparkBench DIR ROUNDS RECORDS [VARIANT-REGEX]</pre>
 */
public final class SparkBench {
    private SparkBench() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        long records = Long.parseLong(args[2]);
        only = args.length > 3 ? java.util.regex.Pattern.compile(args[3]) : null;
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            ds.forEach(files::add);
        }
        files.sort(null);

        Map<String, Variant> walk = new LinkedHashMap<>();
        walk.put("walk count", () -> walk(files, false, false));
        walk.put("walk listing", () -> walk(files, true, false));
        walk.put("walk sha2", () -> walk(files, true, true));
        measure(walk, rounds);

        for (int cores : new int[] {1, 2}) {
            SparkSession spark = SparkSession.builder().master("local[" + cores + "]").appName("containerfs-bench")
                    .config("spark.ui.enabled", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", String.valueOf(cores))
                    .getOrCreate();
            spark.sparkContext().setLogLevel("ERROR");
            String p = dir.toString();
            Map<String, Variant> queries = new LinkedHashMap<>();
            queries.put("local[" + cores + "] count", () -> containerfs(spark, p).count());
            queries.put("local[" + cores + "] listing", () -> {
                listing(containerfs(spark, p));
                return records;
            });
            queries.put("local[" + cores + "] sha2", () -> {
                containerfs(spark, p).agg(max(sha2(col("content"), 256))).first();
                return records;
            });
            if (cores == 2) {
                queries.put("local[2] binaryFile", () -> {
                    spark.read().format("binaryFile").load(p).agg(max(sha2(col("content"), 256))).first();
                    return files.size();
                });
                // the same queries forced through rows and through column batches (the default picks per query)
                for (String columnar : new String[] {"false", "true"}) {
                    String way = columnar.equals("true") ? "batches" : "rows";
                    queries.put("local[2] count " + way, () -> containerfs(spark, p, columnar).count());
                    queries.put("local[2] listing " + way, () -> {
                        listing(containerfs(spark, p, columnar));
                        return records;
                    });
                    queries.put("local[2] attributes " + way, () -> {
                        containerfs(spark, p, columnar).agg(sum(functions.size(col("attributes")))).first();
                        return records;
                    });
                    queries.put("local[2] sha2 " + way, () -> {
                        containerfs(spark, p, columnar).agg(max(sha2(col("content"), 256))).first();
                        return records;
                    });
                }
                // where the listing's time goes: the floors under it
                int partitions = containerfs(spark, p).rdd().getNumPartitions();
                queries.put("local[2] empty job", () -> {
                    // Spark's own cost of as many tasks as the listing has, doing nothing
                    new org.apache.spark.api.java.JavaSparkContext(spark.sparkContext())
                            .parallelize(java.util.Collections.nCopies(partitions, 0), partitions).foreach(x -> { });
                    return 0;
                });
                queries.put("local[2] indexes only", () -> {
                    // every container opened and its tree listed, no record passing a pushed filter on the listed
                    // size: the listing without rows
                    containerfs(spark, p).where(col("size").lt(0)).count();
                    return 0;
                });
                queries.put("local[2] binaryFile listing", () -> {
                    listing(spark.read().format("binaryFile").load(p).select(col("path"), col("length").as("size"),
                            col("path").as("container")));
                    return files.size();
                });
            }
            measure(queries, rounds);
            spark.stop();
        }
    }

    /** A read; the query run right after it on it is planned with the default (batches). */
    static Dataset<Row> containerfs(SparkSession spark, String path) {
        spark.conf().unset("spark.containerfs.columnar");
        return spark.read().format("containerfs").load(path);
    }

    /**
     * A read; the query run right after it on it reads batches or rows as {@code columnar} says (a session
     * setting, which Spark reads when it plans the query).
     */
    static Dataset<Row> containerfs(SparkSession spark, String path, String columnar) {
        spark.conf().set("spark.containerfs.columnar", columnar);
        return spark.read().format("containerfs").load(path);
    }

    /** The listing query: path, size and container of every record, aggregated on the executors. */
    static void listing(Dataset<Row> rows) {
        rows.agg(sum(col("size")), max(col("path")), max(col("container"))).first();
    }

    /** A measured action; returns the rows (records) it went through. */
    @FunctionalInterface
    interface Variant {
        long run() throws Exception;
    }

    private static java.util.regex.Pattern only;

    /** One warm-up of each, then {@code rounds} rounds of every variant in rotated order. */
    static void measure(Map<String, Variant> variants, int rounds) throws Exception {
        List<String> names = new ArrayList<>(variants.keySet());
        names.removeIf(n -> only != null && !only.matcher(n).find());
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        for (String n : names) {
            variants.get(n).run();
        }
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < names.size(); k++) {
                String n = names.get((k + r) % names.size());
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                long rows = variants.get(n).run();
                double s = (System.nanoTime() - t0) / 1e9;
                System.out.printf("TIME %s|%.6f|%d|%.3f%n", n, s, rows, (os.getProcessCpuTime() - cpu0) / 1e9);
                System.out.flush();
            }
        }
    }

    /**
     * The single-thread baseline: every container opened through the provider and walked; with
     * {@code listing} each record's path and size taken, with {@code content} its bytes read and hashed.
     */
    static long walk(List<Path> files, boolean listing, boolean content) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        long[] rows = {0};
        long[] bytes = {0};
        String[] maxHex = {""};
        for (Path file : files) {
            try (FileSystem fs = ContainerFileSystems.open(file)) {
                Files.walkFileTree(fs.getPath("/"), new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path p, BasicFileAttributes attrs) throws java.io.IOException {
                        rows[0]++;
                        if (listing) {
                            bytes[0] += attrs.size() + p.toString().length();
                        }
                        if (content) {
                            String hex = HexFormat.of().formatHex(sha.digest(Files.readAllBytes(p)));
                            if (hex.compareTo(maxHex[0]) > 0) {
                                maxHex[0] = hex;
                            }
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
            }
        }
        return rows[0];
    }
}
