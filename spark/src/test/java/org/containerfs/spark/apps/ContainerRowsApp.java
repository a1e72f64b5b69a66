package org.containerfs.spark.apps;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The application the out-of-process tests submit with {@code spark-submit} ({@code SparkSubmit}): it uses only
 * Spark's public API ({@code spark.read.format("containerfs").load(path)}) and no containerfs class, so the
 * data source must come from what the submission brings ({@code --jars} the -all.jar, or {@code --packages}).
 *
 * <p>Arguments: the output file, then load paths. It writes a line {@code executors N} (the executors that
 * registered, the driver left out), then for the i-th load path (from 1) one line {@code i JSON} per row,
 * {@link #rows(Dataset)} of it.
 */
public final class ContainerRowsApp {
    private ContainerRowsApp() {}

    /**
     * The row set compared between a submitted application and the test's own local[2] read: every listed
     * column but {@code attributes} (a map, whose JSON order is not part of the result), the content as its
     * SHA-256 (read on the executors; null where damaged), as JSON lines.
     */
    public static List<String> rows(Dataset<Row> read) {
        return read.select(col("container"), col("path"), col("format"), col("size"),
                        sha2(col("content"), 256).as("sha256"), col("damage"))
                .toJSON().collectAsList();
    }

    public static void main(String[] args) throws IOException {
        SparkSession spark = SparkSession.builder().getOrCreate();
        try {
            List<String> out = new ArrayList<>();
            out.add("executors " + (spark.sparkContext().statusTracker().getExecutorInfos().length - 1));
            for (int i = 1; i < args.length; i++) {
                for (String row : rows(spark.read().format("containerfs").load(args[i]))) {
                    out.add(i + " " + row);
                }
            }
            Files.write(Path.of(args[0]), out);
        } finally {
            spark.stop();
        }
    }
}
