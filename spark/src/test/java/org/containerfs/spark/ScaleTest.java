package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A thousand small containers: packed into a few partitions, every record read once. */
class ScaleTest {
    @TempDir
    Path dir;

    @Test
    void aThousandSmallContainers() throws Exception {
        for (int i = 0; i < 1000; i++) {
            LimeFiles.write(dir.resolve(String.format("c%04d.lime", i)), 4, 64);
        }
        SparkSession spark = SparkSessions.local2();
        Dataset<Row> rows = spark.read().format("containerfs").load(dir.toString());
        assertThat(rows.rdd().getNumPartitions()).isBetween(2, 200);
        assertThat(rows.count()).isEqualTo(4000);
        Row totals = rows.agg(sum(col("size")), org.apache.spark.sql.functions.countDistinct(col("container"))).first();
        assertThat(totals.getLong(0)).isEqualTo(4000L * 64);
        assertThat(totals.getLong(1)).isEqualTo(1000);
        assertThat(rows.where(col("container").endsWith("c0999.lime")).count()).isEqualTo(4);
    }
}
