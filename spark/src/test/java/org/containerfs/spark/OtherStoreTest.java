package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that is not {@code file:}: Hadoop's view file system mounting a local directory, configured
 * through the read's options alone. Planning takes the located-listing path, the input counts as remote (the
 * core's block cache is in front), and the rows equal those of the same containers read as local files.
 */
class OtherStoreTest {
    @TempDir
    Path dir;

    @Test
    void containersOnAViewFileSystemGiveTheRowsOfTheLocalFiles() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        for (int i = 0; i < 3; i++) {
            LimeFiles.write(data.resolve("v" + i + ".lime"), 50, 3000);
        }
        SparkSession spark = SparkSessions.local2();
        List<Row> local = spark.read().format("containerfs").load(data.toString())
                .select(col("path"), col("size"), sha2(col("content"), 256)).collectAsList();
        List<Row> viewed = spark.read().format("containerfs")
                .option("fs.viewfs.mounttable.containerfs.link./data", data.toUri().toString())
                .load("viewfs://containerfs/data")
                .select(col("container"), col("path"), col("size"), sha2(col("content"), 256)).collectAsList();
        assertThat(viewed).hasSize(150).allMatch(r -> r.getString(0).startsWith("viewfs://containerfs/data/v"));
        assertThat(viewed.stream().map(r -> List.of(r.get(1), r.get(2), r.get(3))).toList())
                .containsExactlyInAnyOrderElementsOf(local.stream().map(r -> List.of(r.get(0), r.get(1), r.get(2))).toList());
    }
}
