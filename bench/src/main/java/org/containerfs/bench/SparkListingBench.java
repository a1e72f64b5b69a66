package org.containerfs.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sum;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Scenario 10's listing of many small containers in partition directories ({@code beta=…/L=…}), run by
 * {@link SparkScenarios} in its own JVM like {@link SparkBench}: containerfs {@code count()} and a listing query
 * against Spark's {@code binaryFile} without content, each first (a cold listing and, for containerfs, a cold
 * index cache) and again (Spark's file-status cache and our index cache warm); and a query touching one partition,
 * with the containers it opened counted by a Hadoop file system under the scheme {@code opencount:} (the local file
 * system counting {@code open} calls; the executors of local[2] are threads of this JVM). binaryFile reads through
 * another path to the same tree (a symbolic link), so that Spark's file-status cache, kept by path, does not let
 * one format list for the other. Every query runs twice on a separate tree of 100 containers first (what a JVM's first
 * queries cost more, class loading and compiling, is not the first listing's). Prints {@code TIME variant|seconds|rows|cpu seconds} and
 * {@code OPENED variant|containers}.
 *
 * <pre>SparkListingBench TREE LINK ROUNDS BETA L</pre>
 */
public final class SparkListingBench {
    private SparkListingBench() {}

    /** The local file system, counting the files opened for reading. */
    public static final class OpenCountingFs extends RawLocalFileSystem {
        static final AtomicLong OPENED = new AtomicLong();

        @Override
        public String getScheme() {
            return "opencount";
        }

        @Override
        public URI getUri() {
            return URI.create("opencount:///");
        }

        @Override
        public FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException {
            OPENED.incrementAndGet();
            return super.open(f, bufferSize);
        }
    }

    public static void main(String[] args) throws Exception {
        Path tree = Path.of(args[0]);
        Path link = Path.of(args[1]);
        int rounds = Integer.parseInt(args[2]);
        String beta = args[3];
        String l = args[4];
        SparkSession spark = SparkSession.builder().master("local[2]").appName("containerfs-bench-listing")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.hadoop.fs.opencount.impl", OpenCountingFs.class.getName())
                .config("spark.hadoop.fs.opencount.impl.disable.cache", "true")
                .getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        // class loading, code generation and compilation of every query below, on a tree of 100 other containers in
        // 10 directories (the queries' first run in a JVM costs seconds more than the next, whatever the format)
        Path warm = Path.of(tree + "-warm");
        write(warm, 100);
        for (int i = 0; i < 2; i++) {
            spark.read().format("containerfs").load(warm.toString()).count();
            containerfsListing(spark.read().format("containerfs").load(warm.toString()));
            binaryListing(spark.read().format("binaryFile").load(warm.toString()));
            pruned(spark, "opencount://" + warm, beta(0), l(0)).count();
            containerfsListing(pruned(spark, "opencount://" + warm, beta(0), l(0)));
        }

        String ours = tree.toString();
        String theirs = link.toString();
        // first: each format's listing of the tree has never been done in this JVM
        // (-Dcontainerfs.spark.binaryFirst=true: binaryFile's first listing before ours, to see what the order costs)
        if (Boolean.getBoolean("containerfs.spark.binaryFirst")) {
            time("first binaryFile listing", () -> binaryListing(spark.read().format("binaryFile").load(theirs)));
        }
        time("first containerfs count", () -> spark.read().format("containerfs").load(ours).count());
        if (!Boolean.getBoolean("containerfs.spark.binaryFirst")) {
            time("first binaryFile listing", () -> binaryListing(spark.read().format("binaryFile").load(theirs)));
        }
        String pruned = "opencount://" + tree;
        opened("first pruned count", () -> time("first pruned count", () -> pruned(spark, pruned, beta, l).count()));
        for (int r = 0; r < rounds; r++) {
            time("again containerfs count", () -> spark.read().format("containerfs").load(ours).count());
            time("again containerfs listing", () -> containerfsListing(spark.read().format("containerfs").load(ours)));
            time("again binaryFile listing", () -> binaryListing(spark.read().format("binaryFile").load(theirs)));
            opened("again pruned count", () -> time("again pruned count", () -> pruned(spark, pruned, beta, l).count()));
            opened("again pruned listing", () -> time("again pruned listing",
                    () -> containerfsListing(pruned(spark, pruned, beta, l))));
        }
        spark.stop();
    }

    static Dataset<Row> pruned(SparkSession spark, String root, String beta, String l) {
        DataFrameReader reader = spark.read().format("containerfs");
        return reader.load(root).where(col("beta").equalTo(Double.parseDouble(beta)).and(col("L").equalTo(Integer.parseInt(l))));
    }

    /** The listing query of scenario 10 on records; returns the records. */
    static long containerfsListing(Dataset<Row> rows) {
        return rows.agg(sum(col("size")), max(col("path")), max(col("container")), org.apache.spark.sql.functions.count("*"))
                .first().getLong(3);
    }

    /** binaryFile without content: path and length of every file; returns the files. */
    static long binaryListing(Dataset<Row> files) {
        return files.select("path", "length").agg(sum(col("length")), max(col("path")), org.apache.spark.sql.functions.count("*"))
                .first().getLong(2);
    }

    /** Load and action together: Spark lists the files at load(). */
    static long time(String variant, SparkBench.Variant run) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        long rows = run.run();
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("TIME %s|%.6f|%d|%.3f%n", variant, s, rows, (os.getProcessCpuTime() - cpu0) / 1e9);
        System.out.flush();
        return rows;
    }

    static void opened(String variant, SparkBench.Variant run) throws Exception {
        OpenCountingFs.OPENED.set(0);
        run.run();
        System.out.printf("OPENED %s|%d%n", variant, OpenCountingFs.OPENED.get());
        System.out.flush();
    }

    /** Writes the tree once: {@code containers} LIME containers of 4 records of 256 B in containers/10 directories. */
    static void write(Path tree, int containers) throws IOException {
        Path done = tree.resolve("_COMPLETE");
        if (Files.exists(done)) {
            return;
        }
        int dirs = containers / 10;
        for (int d = 0; d < dirs; d++) {
            Path dir = Files.createDirectories(tree.resolve("beta=" + beta(d)).resolve("L=" + l(d)));
            for (int c = 0; c < 10; c++) {
                LimeInputs.records(dir.resolve(String.format("conf.%05d.lime", d * 10 + c)), 4, 256, d * 10L + c);
            }
        }
        Files.writeString(done, containers + " containers\n");
    }

    /** Directory {@code d}'s beta: 10 L values per beta. */
    static String beta(int d) {
        return String.format(java.util.Locale.ROOT, "%.2f", 5.0 + (d / 10) * 0.01);
    }

    static String l(int d) {
        return String.valueOf(4 * (d % 10 + 1));
    }
}
