package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.containerfs.hadoop.CountingLocalFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rows of a read never depend on the columns selected. A G3 file whose frame 1 fails its CRC (its stored CRC
 * flipped, or a byte of a value flipped) gives its 18 keys to {@code count()}, to listings, to pushed filters and
 * to reads of {@code content} alike: frame 1's keys with {@code content} null and the CRC failure in
 * {@code damage}, the sound frames 0, 2 and 3 with their bytes, as the provider's own walk reads them; under
 * {@code strict=true} the read fails instead. In rows and in batches, from a local file and from a store the
 * input treats as remote (the core's block cache in front, as on HDFS).
 */
class SelectedColumnsTest {
    @TempDir
    static Path dir;
    static SparkSession spark;
    static List<Path> damaged;

    @BeforeAll
    static void damage() throws IOException {
        spark = SparkSessions.local2();
        Path g3 = CorpusReadTest.corpus("g3").resolve("simple-types.g3");
        long[] frames = DamagedCopies.g3FrameOffsets("simple-types.g3");
        assertThat(frames).hasSize(4);
        // frame 1 runs from frames[1] to frames[2] and ends with its stored CRC
        damaged = List.of(DamagedCopies.flipByte(g3, dir.resolve("crc-flipped.g3"), frames[2] - 1),
                DamagedCopies.flipByte(g3, dir.resolve("value-flipped.g3"), (frames[1] + frames[2]) / 2));
    }

    static DataFrameReader reader(String columnar, String store) {
        // rows or batches: a session setting, read when the queries that follow are planned
        SparkSessions.set(ContainerfsFileFormat.COLUMNAR_CONF, columnar);
        DataFrameReader reader = spark.read().format("containerfs");
        return store.equals("countfs") ? reader.option("fs.countfs.impl", CountingLocalFileSystem.class.getName())
                .option("fs.countfs.impl.disable.cache", "true") : reader;
    }

    @org.junit.jupiter.api.AfterEach
    void unset() {
        SparkSessions.set(ContainerfsFileFormat.COLUMNAR_CONF, null);
    }

    static String location(Path file, String store) {
        return store.equals("countfs") ? "countfs://" + file.toAbsolutePath() : file.toString();
    }

    static List<String> strings(Dataset<Row> rows) {
        return rows.collectAsList().stream().map(r -> r.isNullAt(0) ? null : r.getString(0)).sorted().toList();
    }

    /** Columns {@code a} and {@code b} of each row as text, sorted. */
    static List<String> pairs(List<Row> rows, int a, int b) {
        return rows.stream().map(r -> r.get(a) + " | " + r.get(b)).sorted().toList();
    }

    @ParameterizedTest
    @CsvSource({"true, file", "false, file", "true, countfs", "false, countfs"})
    void everyKeyIsARowWhateverTheColumnsSelected(String columnar, String store) throws IOException {
        for (Path file : damaged) {
            List<ProviderWalk.Row> walk = ProviderWalk.walk(file);
            assertThat(walk).as("the provider lists every key of %s", file).hasSize(18);
            assertThat(walk).filteredOn(r -> r.sha256() == null).as("frame 1's keys cannot be read")
                    .hasSize(5).allMatch(r -> r.path().startsWith("/000001."));
            List<String> paths = walk.stream().map(ProviderWalk.Row::path).sorted().toList();
            String name = file.getFileName().toString();
            DataFrameReader reader = reader(columnar, store);
            String where = location(file, store);

            assertThat(reader.load(where).count()).isEqualTo(18);
            assertThat(strings(reader.load(where).select("path"))).isEqualTo(paths);
            List<Row> full = reader.load(where).select(col("path"), col("size"), sha2(col("content"), 256),
                    col("damage")).collectAsList();
            assertThat(full.stream().map(r -> new ProviderWalk.Row(name, r.getString(0), r.getLong(1), r.getString(2))))
                    .containsExactlyInAnyOrderElementsOf(walk);
            for (Row r : full) {
                if (r.isNullAt(2)) {
                    assertThat(r.getString(3)).as("damage of %s", r.getString(0)).contains(name)
                            .contains("frame 000001.Scan").contains("CRC-32C");
                } else {
                    assertThat(r.isNullAt(3)).as("a sound key has no damage: %s", r).isTrue();
                }
            }
            // damage alone reads (checks) the bytes without keeping them: the same values
            assertThat(pairs(reader.load(where).select(col("path"), col("damage")).collectAsList(), 0, 1))
                    .isEqualTo(pairs(full, 0, 3));
            for (String prefix : List.of("/00000", "/000001", "/000002.Scan/")) {
                long expected = paths.stream().filter(p -> p.startsWith(prefix)).count();
                Dataset<Row> filtered = reader.load(where).where(col("path").startsWith(prefix));
                assertThat(filtered.count()).as("count of %s", prefix).isEqualTo(expected);
                assertThat(filtered.select("path").collectAsList()).as("listing of %s", prefix).hasSize((int) expected);
                assertThat(filtered.select("content").collectAsList()).as("content of %s", prefix).hasSize((int) expected);
            }
        }
    }

    @Test
    void strictFailsTheReadAtTheFirstKeyThatFailsItsCheck() {
        DataFrameReader strict = spark.read().format("containerfs").option("strict", "true");
        for (Path file : damaged) {
            for (String column : List.of("content", "damage")) {
                assertThatThrownBy(() -> strict.load(file.toString()).select(column).collectAsList())
                        .hasStackTraceContaining(file.getFileName().toString())
                        .hasStackTraceContaining("/000001.Scan/")
                        .hasStackTraceContaining("CRC-32C")
                        .hasStackTraceContaining("strict=true");
            }
            // nothing of the keys' bytes is read for a count: nothing there to fail
            assertThat(strict.load(file.toString()).count()).isEqualTo(18);
            // a filter on damage is Spark's to evaluate (it needs the bytes read), never pushed
            assertThat(spark.read().format("containerfs").load(file.toString()).where(col("damage").isNotNull())
                    .count()).isEqualTo(5);
            // the check is the provider's own: with it off, every key reads (the flipped bytes as they are)
            assertThat(spark.read().format("containerfs").option("verify", "false").load(file.toString())
                    .where(col("damage").isNotNull()).count()).isZero();
        }
    }

    @Test
    void aRecordDeclaringMoreThanABinaryValueButCutShortIsADamagedRowNotAFailedRead() throws IOException {
        // byte 10 is inside the record's 64-bit data length: flipped, the header declares far more than the file holds
        Path lime = DamagedCopies.flipByte(CorpusReadTest.corpus("lime").resolve("s01_single_record.lime"),
                dir.resolve("huge-length.lime"), 10);
        long declared;
        try (java.nio.file.FileSystem fs = org.containerfs.core.ContainerFileSystems.open(lime)) {
            Path record = fs.getPath("/msg01/rec01.lime-test-text");
            declared = java.nio.file.Files.size(record);
            assertThat(declared).as("the provider lists the declared size").isGreaterThan(Integer.MAX_VALUE);
            try (java.io.InputStream in = java.nio.file.Files.newInputStream(record)) {
                assertThatThrownBy(() -> in.transferTo(java.io.OutputStream.nullOutputStream()))
                        .as("and its bytes cannot all be read").isInstanceOf(IOException.class);
            }
        }

        for (String columnar : List.of("true", "false")) {
            List<Row> rows = reader(columnar, "file").load(lime.toString()).select("path", "size", "content", "damage")
                    .collectAsList();
            assertThat(rows).hasSize(1);
            assertThat(rows.get(0).getLong(1)).isEqualTo(declared);
            assertThat(rows.get(0).isNullAt(2)).as("content").isTrue();
            assertThat(rows.get(0).getString(3)).as("damage").contains("truncated");
        }
    }
}
