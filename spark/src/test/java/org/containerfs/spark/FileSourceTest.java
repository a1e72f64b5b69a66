package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.input_file_name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * containerfs as a Spark file source: SQL on a path and tables with a location, partition columns from
 * {@code key=value} directories (typed, pruned before any container is opened), Spark's listing options,
 * {@code ignoreCorruptFiles}, the missing-path error at {@code load()}, {@code input_file_name()} and
 * {@code _metadata}.
 */
class FileSourceTest {
    @TempDir
    static Path dir;
    static SparkSession spark;
    /** An ensemble tree: beta=5.8|6.0 / L=16|32 / conf.N.lime, 3 containers per leaf, 4 records each. */
    static Path ensemble;
    static final double[] BETAS = {5.8, 6.0};
    static final int[] SIZES = {16, 32};

    @BeforeAll
    static void write() throws IOException {
        spark = SparkSessions.local2();
        ensemble = dir.resolve("ensemble");
        for (double beta : BETAS) {
            for (int l : SIZES) {
                Path leaf = Files.createDirectories(ensemble.resolve("beta=" + beta).resolve("L=" + l));
                for (int c = 1; c <= 3; c++) {
                    LimeFiles.write(leaf.resolve("conf." + (1000 * c) + ".lime"), 4, 32 + l);
                }
            }
        }
    }

    static DataFrameReader counted() {
        return spark.read().format("containerfs").option("fs.opencount.impl", OpenCountingFileSystem.class.getName())
                .option("fs.opencount.impl.disable.cache", "true");
    }

    @Test
    void sqlOnAPathAndATableWithALocation() {
        List<Row> byReader = spark.read().format("containerfs").load(ensemble.toString())
                .select("container", "path", "size", "beta", "L").collectAsList();
        assertThat(byReader).hasSize(2 * 2 * 3 * 4);
        List<Row> bySql = spark.sql("SELECT container, path, size, beta, L FROM containerfs.`" + ensemble + "`")
                .collectAsList();
        assertThat(bySql).containsExactlyInAnyOrderElementsOf(byReader);

        spark.sql("DROP TABLE IF EXISTS ensemble_records");
        spark.sql("CREATE TABLE ensemble_records USING containerfs LOCATION '" + ensemble.toUri() + "'");
        try {
            // as for every partitioned file-source table: the catalog learns the partitions from the directories
            assertThat(spark.sql("SELECT * FROM ensemble_records").count()).isZero();
            spark.sql("MSCK REPAIR TABLE ensemble_records");
            assertThat(spark.sql("SHOW PARTITIONS ensemble_records").count()).isEqualTo(4);
            assertThat(spark.sql("SELECT container, path, size, beta, L FROM ensemble_records").collectAsList())
                    .containsExactlyInAnyOrderElementsOf(byReader);
            assertThat(spark.sql("SELECT count(*) FROM ensemble_records WHERE beta = 6.0 AND L = 32").first().getLong(0))
                    .isEqualTo(12);
            assertThat(spark.table("ensemble_records").schema().fieldNames()).containsExactly("container", "path",
                    "format", "size", "attributes", "content", "damage", "beta", "L");
        } finally {
            spark.sql("DROP TABLE ensemble_records");
        }
        assertThat(ensemble).isDirectory();     // an external table: dropping it leaves the containers
        // a table over a directory without partitions needs nothing more
        Path flat = ensemble.resolve("beta=6.0").resolve("L=16");
        spark.sql("DROP TABLE IF EXISTS flat_records");
        spark.sql("CREATE TABLE flat_records USING containerfs LOCATION '" + flat.toUri() + "'");
        try {
            assertThat(spark.sql("SELECT count(*), count(DISTINCT container) FROM flat_records").first())
                    .isEqualTo(org.apache.spark.sql.RowFactory.create(12L, 3L));
        } finally {
            spark.sql("DROP TABLE flat_records");
        }
    }

    @Test
    void partitionColumnsAreTypedAndPrunedBeforeAnyContainerIsOpened() {
        String root = "opencount://" + ensemble;
        Dataset<Row> all = counted().load(root);
        StructType schema = all.schema();
        assertThat(schema.apply("beta").dataType()).isEqualTo(DataTypes.DoubleType);
        assertThat(schema.apply("L").dataType()).isEqualTo(DataTypes.IntegerType);

        List<String> everything = OpenCountingFileSystem.during(() -> assertThat(all.count()).isEqualTo(48));
        assertThat(everything).hasSize(12);
        List<Row> one = new ArrayList<>();
        List<String> opened = OpenCountingFileSystem.during(() -> one.addAll(counted().load(root)
                .where(col("beta").equalTo(6.0).and(col("L").equalTo(32))).select("container", "size", "beta", "L")
                .collectAsList()));
        assertThat(one).hasSize(12).allMatch(r -> r.getString(0).contains("/beta=6.0/L=32/") && r.getLong(1) == 64
                && r.getDouble(2) == 6.0 && r.getInt(3) == 32);
        assertThat(opened).as("only the partition's containers are opened").hasSize(3)
                .containsExactlyInAnyOrder("conf.1000.lime", "conf.2000.lime", "conf.3000.lime");
        // count() per partition goes through the index alone, and is pruned too
        Map<String, Long> counts = new TreeMap<>();
        List<String> countOpens = OpenCountingFileSystem.during(() -> counted().load(root).where(col("L").equalTo(16))
                .groupBy("beta").count().collectAsList().forEach(r -> counts.put(r.get(0).toString(), r.getLong(1))));
        assertThat(counts).isEqualTo(Map.of("5.8", 12L, "6.0", 12L));
        assertThat(countOpens).hasSize(6);

        // basePath: loading one leaf keeps the columns above it; without it the leaf has no partition columns
        Dataset<Row> leaf = spark.read().format("containerfs").option("basePath", ensemble.toString())
                .load(ensemble.resolve("beta=5.8").resolve("L=16").toString());
        assertThat(leaf.select("beta", "L").distinct().collectAsList()).hasSize(1)
                .allMatch(r -> r.getDouble(0) == 5.8 && r.getInt(1) == 16);
        assertThat(spark.read().format("containerfs").load(ensemble.resolve("beta=5.8").resolve("L=16").toString())
                .schema().fieldNames()).doesNotContain("beta", "L");
        // recursiveFileLookup reads the same files without partition columns (as for every Spark file source)
        Dataset<Row> recursive = spark.read().format("containerfs").option("recursiveFileLookup", "true")
                .load(ensemble.toString());
        assertThat(recursive.schema().fieldNames()).doesNotContain("beta", "L");
        assertThat(recursive.count()).isEqualTo(48);
    }

    @Test
    void inputFileNameAndMetadataFilePathAreTheContainer() {
        Path file = ensemble.resolve("beta=6.0").resolve("L=16").resolve("conf.2000.lime");
        for (String columnar : List.of("true", "false")) {
            spark.conf().set(ContainerfsFileFormat.COLUMNAR_CONF, columnar);
            try {
                List<Row> rows = spark.read().format("containerfs").load(ensemble.toString())
                        .where(col("container").endsWith("/beta=6.0/L=16/conf.2000.lime"))
                        .select(col("container"), input_file_name(), col("_metadata.file_path"),
                                col("_metadata.file_size"), col("beta"), col("L"), col("path")).collectAsList();
                assertThat(rows).as("columnar %s", columnar).hasSize(4).allMatch(r -> r.getString(0).equals(file.toUri().toString())
                        && r.getString(1).endsWith("/beta=6.0/L=16/conf.2000.lime")
                        && r.getString(2).endsWith("/beta=6.0/L=16/conf.2000.lime") && r.getLong(3) == fileSize(file)
                        && r.getDouble(4) == 6.0 && r.getInt(5) == 16 && r.getString(6).startsWith("/msg01/rec0"));
            } finally {
                spark.conf().unset(ContainerfsFileFormat.COLUMNAR_CONF);
            }
        }
    }

    static long fileSize(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aMissingPathFailsAtLoad() {
        Path missing = dir.resolve("no-such-ensemble");
        assertThatThrownBy(() -> spark.read().format("containerfs").load(missing.toString()))
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("PATH_NOT_FOUND")
                .hasMessageContaining("no-such-ensemble");
        assertThatThrownBy(() -> spark.sql("SELECT * FROM containerfs.`" + missing + "`"))
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("PATH_NOT_FOUND");
    }

    @Test
    void ignoreCorruptFilesSkipsADamagedContainerAndANonContainer() throws IOException {
        Path mixed = Files.createDirectories(dir.resolve("corrupt"));
        LimeFiles.write(mixed.resolve("good.lime"), 5, 40);
        Files.writeString(mixed.resolve("notes.txt"), "not a container");
        // a LIME file whose first header is cut short: no container opens from it
        Path source = LimeFiles.write(dir.resolve("whole.lime"), 3, 40);
        DamagedCopies.cut(source, mixed.resolve("damaged.lime"), 100);
        DataFrameReader strict = spark.read().format("containerfs").option("strict", "true");
        assertThatThrownBy(() -> strict.load(mixed.toString()).count()).hasStackTraceContaining("strict=true");
        assertThat(strict.option("ignoreCorruptFiles", "true").load(mixed.toString()).select("container")
                .collectAsList()).hasSize(5).allMatch(r -> r.getString(0).endsWith("/good.lime"));
        spark.conf().set("spark.sql.files.ignoreCorruptFiles", "true");
        try {
            assertThat(spark.read().format("containerfs").option("strict", "true").load(mixed.toString()).count())
                    .isEqualTo(5);
        } finally {
            spark.conf().unset("spark.sql.files.ignoreCorruptFiles");
        }
        // without strict such files are skipped anyway (with a warning), as before
        assertThat(spark.read().format("containerfs").load(mixed.toString()).count()).isEqualTo(5);
    }

    @Test
    void ignoreMissingFilesSkipsAContainerDeletedAfterTheListing() throws IOException {
        Path gone = Files.createDirectories(dir.resolve("gone"));
        LimeFiles.write(gone.resolve("stays.lime"), 2, 16);
        Path deleted = LimeFiles.write(gone.resolve("deleted.lime"), 3, 16);
        Dataset<Row> listed = spark.read().format("containerfs").option("ignoreMissingFiles", "true").load(gone.toString());
        Dataset<Row> failing = spark.read().format("containerfs").load(gone.toString());
        Files.delete(deleted);
        assertThat(listed.count()).isEqualTo(2);
        assertThatThrownBy(() -> failing.count()).hasStackTraceContaining("deleted.lime");
    }

    @Test
    void modifiedBeforeAndAfterAndPathGlobFilter() throws IOException {
        Path times = Files.createDirectories(dir.resolve("times"));
        Path old = LimeFiles.write(times.resolve("old.lime"), 2, 16);
        LimeFiles.write(times.resolve("new.lime"), 3, 16);
        LimeFiles.write(times.resolve("new.dat"), 4, 16);
        Files.setLastModifiedTime(old, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        assertThat(spark.read().format("containerfs").option("modifiedBefore", "2021-01-01T00:00:00")
                .load(times.toString()).count()).isEqualTo(2);
        assertThat(spark.read().format("containerfs").option("modifiedAfter", "2021-01-01T00:00:00")
                .load(times.toString()).count()).isEqualTo(7);
        assertThat(spark.read().format("containerfs").option("modifiedAfter", "2021-01-01T00:00:00")
                .option("pathGlobFilter", "*.lime").load(times.toString()).count()).isEqualTo(3);
    }

    @Test
    void aReadOnlySource() {
        assertThatThrownBy(() -> spark.read().format("containerfs").load(ensemble.toString()).limit(1).write()
                .format("containerfs").save(dir.resolve("out").toString()))
                .hasStackTraceContaining("read-only");
    }
}
