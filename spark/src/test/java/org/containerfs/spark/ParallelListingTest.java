package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.regexp_replace;
import static org.apache.spark.sql.functions.sha2;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.apache.spark.metrics.source.HiveCatalogMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's parallel listing ({@code InMemoryFileIndex} above {@code spark.sql.sources.parallelPartitionDiscovery.threshold}
 * paths lists in a Spark job on the executors) with our source: the listing really runs as a job, and the rows are
 * those of the serial listing on the driver. Two copies of one tree, so that Spark's file-status cache (kept per
 * session by path) cannot answer the second listing from the first.
 */
class ParallelListingTest {
    static final String THRESHOLD = "spark.sql.sources.parallelPartitionDiscovery.threshold";
    static final double[] BETAS = {5.8, 6.0, 6.2};
    static final int[] SIZES = {16, 32};

    @TempDir
    static Path dir;
    static SparkSession spark;
    static final List<String> JOBS = new CopyOnWriteArrayList<>();
    static final SparkListener LISTENER = new SparkListener() {
        @Override
        public void onJobStart(SparkListenerJobStart start) {
            String description = start.properties() == null ? null : start.properties().getProperty("spark.job.description");
            JOBS.add(description == null ? "job " + start.jobId() : description);
        }
    };

    @BeforeAll
    static void write() throws IOException {
        spark = SparkSessions.local2();
        spark.sparkContext().addSparkListener(LISTENER);
        for (String tree : List.of("serial", "parallel", "paths")) {
            for (double beta : BETAS) {
                for (int l : SIZES) {
                    Path leaf = Files.createDirectories(dir.resolve(tree).resolve("beta=" + beta).resolve("L=" + l));
                    for (int c = 1; c <= 2; c++) {
                        // the same bytes in each tree (a file's contents depend on its name only)
                        LimeFiles.write(leaf.resolve("conf." + (1000 * c) + ".lime"), 3, 24 + l);
                    }
                }
            }
        }
    }

    @AfterAll
    static void removeListener() {
        spark.sparkContext().removeSparkListener(LISTENER);
    }

    /** The jobs Spark started and its parallel-listing count while {@code load} ran; the loaded rows. */
    record Listed(List<String> jobs, long parallelListings, List<String> rows) {}

    static Listed listed(Supplier<Dataset<Row>> load, Path tree) {
        drain();
        JOBS.clear();
        long before = HiveCatalogMetrics.METRIC_PARALLEL_LISTING_JOB_COUNT().getCount();
        Dataset<Row> loaded = load.get();
        long parallel = HiveCatalogMetrics.METRIC_PARALLEL_LISTING_JOB_COUNT().getCount() - before;
        drain();
        List<String> jobs = new ArrayList<>(JOBS);
        // the container without its tree's root, so that the rows of the copies compare
        List<String> rows = loaded.select(regexp_replace(col("container"), "^.*/(serial|parallel|paths)/", "")
                        .as("container"), col("path"), col("size"), sha2(col("content"), 256), col("beta"), col("L"))
                .collectAsList().stream().map(r -> r.mkString("|")).sorted().toList();
        return new Listed(jobs, parallel, rows);
    }

    /** Waits for the events posted so far to reach the listener. */
    static void drain() {
        try {
            spark.sparkContext().listenerBus().waitUntilEmpty();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aListingAboveTheThresholdRunsAsASparkJobAndGivesTheSerialListingsRows() {
        Path serialTree = dir.resolve("serial");
        Listed serial = listed(() -> spark.read().format("containerfs").load(serialTree.toString()), serialTree);
        assertThat(serial.parallelListings()).as("6 leaf directories are below the default threshold of 32").isZero();
        assertThat(serial.jobs()).noneMatch(j -> j.startsWith("Listing leaf files"));
        assertThat(serial.rows()).hasSize(3 * 2 * 2 * 3)
                .allMatch(r -> r.matches("beta=\\d\\.\\d/L=\\d\\d/conf\\.\\d000\\.lime\\|/msg01/rec0\\d\\.data-\\d\\|\\d+\\|[0-9a-f]{64}\\|\\d\\.\\d\\|\\d\\d"));

        // the root's 3 beta= directories are more than 2: Spark lists them in a job
        Path parallelTree = dir.resolve("parallel");
        Listed parallel = SparkSessions.with(THRESHOLD, "2",
                () -> listed(() -> spark.read().format("containerfs").load(parallelTree.toString()), parallelTree));
        assertThat(parallel.parallelListings()).isPositive();
        assertThat(parallel.jobs()).anyMatch(j -> j.startsWith("Listing leaf files and directories for 3 paths"));
        assertThat(parallel.rows()).isEqualTo(serial.rows());

        // six leaf directories as load paths, with basePath for the partition columns: listed in a job too
        Path pathsTree = dir.resolve("paths");
        List<String> leaves = new ArrayList<>();
        for (double beta : BETAS) {
            for (int l : SIZES) {
                leaves.add(pathsTree.resolve("beta=" + beta).resolve("L=" + l).toString());
            }
        }
        Listed paths = SparkSessions.with(THRESHOLD, "2", () -> listed(() -> spark.read().format("containerfs")
                .option("basePath", pathsTree.toString()).load(leaves.toArray(String[]::new)), pathsTree));
        assertThat(paths.parallelListings()).isPositive();
        assertThat(paths.jobs()).anyMatch(j -> j.startsWith("Listing leaf files and directories for 6 paths"));
        assertThat(paths.rows()).isEqualTo(serial.rows());
    }
}
