package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Column batches and rows give the same rows, in the same order: every column of every corpus format, with
 * pushed filters, a container split into record ranges, a damaged container, and batches smaller than a
 * container (so batch boundaries fall inside containers and at their ends). And queries do go through
 * batches by default. Rows or batches is the session setting {@code spark.containerfs.columnar}, which Spark reads
 * when it plans a query: {@link #read} sets it for the queries that follow.
 */
class ColumnarReadTest {
    @TempDir
    static Path dir;
    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkSessions.local2();
    }

    @AfterEach
    void unset() {
        SparkSessions.set(ContainerfsFileFormat.COLUMNAR_CONF, null);
        SparkSessions.set("spark.sql.files.maxPartitionBytes", null);
    }

    /** A read; the queries run after it (until the next call) read batches or rows as {@code columnar} says. */
    static Dataset<Row> read(String columnar, String batchSize, String... paths) {
        SparkSessions.set(ContainerfsFileFormat.COLUMNAR_CONF, columnar);
        return spark.read().format("containerfs").option("columnarBatchSize", batchSize).load(paths);
    }

    static final Column[] EVERY_COLUMN = {col("container"), col("path"), col("format"), col("size"), col("attributes"),
        sha2(col("content"), 256), col("damage")};
    static final Column[] LISTING = {col("container"), col("path"), col("format"), col("size")};

    /** Both ways, the rows of {@code query}: equal, in the same order; returns them. */
    static List<Row> sameRowsBothWays(java.util.function.Function<Dataset<Row>, Dataset<Row>> query, String batchSize,
            String... paths) {
        List<Row> rows = query.apply(read("false", batchSize, paths)).collectAsList();
        List<Row> batches = query.apply(read("true", batchSize, paths)).collectAsList();
        assertThat(batches).containsExactlyElementsOf(rows);
        assertThat(read("true", batchSize, paths).count()).isEqualTo(read("false", batchSize, paths).count());
        return rows;
    }

    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "sion", "g3"})
    void batchesAndRowsGiveTheSameRowsForEveryFormat(String format) {
        String corpus = CorpusReadTest.corpus(format).toString();
        for (String batchSize : new String[] {"4096", "3"}) {
            List<Row> every = sameRowsBothWays(d -> d.select(EVERY_COLUMN), batchSize, corpus);
            assertThat(every).hasSizeGreaterThan(5);
            assertThat(sameRowsBothWays(d -> d.select(LISTING), batchSize, corpus)).hasSameSizeAs(every);
            // only the columns the default choice reads in batches, in another order
            assertThat(sameRowsBothWays(d -> d.select(col("size"), col("path")), batchSize, corpus)).hasSameSizeAs(every);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "path LIKE '/msg01%' AND size > 100",
        "format IN ('lime', 'gsd')",
        "container LIKE '%s08_ildg%' OR size = 0",
        "NOT (format = 'lime') AND size <= 64",
        "path > '/msg02' AND path <= '/msg04'",
    })
    void pushedFiltersGiveTheSameRowsBothWays(String condition) {
        List<Row> rows = sameRowsBothWays(d -> d.where(condition).select(EVERY_COLUMN), "5",
                CorpusReadTest.corpus("lime").toString(), CorpusReadTest.corpus("gsd").toString(),
                CorpusReadTest.corpus("g3").toString());
        assertThat(rows).isNotEmpty();
        sameRowsBothWays(d -> d.where(condition).select(LISTING), "5", CorpusReadTest.corpus("lime").toString(),
                CorpusReadTest.corpus("gsd").toString(), CorpusReadTest.corpus("g3").toString());
    }

    @Test
    void aSplitContainerGivesTheRowsOfOnePartitionInBatches() throws IOException {
        Path large = LimeFiles.write(dir.resolve("large.lime"), 40, 4096);
        String split = String.valueOf(Files.size(large) / 6);
        for (Column[] columns : List.of(EVERY_COLUMN, LISTING)) {
            List<Row> whole = read("false", "4096", large.toString()).select(columns).collectAsList();
            SparkSessions.set("spark.sql.files.maxPartitionBytes", split);
            Dataset<Row> batches = read("true", "4", large.toString()).select(columns);
            assertThat(batches.rdd().getNumPartitions()).isGreaterThanOrEqualTo(6);
            assertThat(batches.collectAsList()).hasSize(40).containsExactlyElementsOf(whole);
            SparkSessions.set("spark.sql.files.maxPartitionBytes", null);
        }
    }

    @Test
    void aDamagedContainerGivesTheSameRowsBothWays() throws IOException {
        Path sound = LimeFiles.write(dir.resolve("sound.lime"), 10, 1000);
        Path damaged = DamagedCopies.cut(sound, Files.createDirectories(dir.resolve("damaged")).resolve("truncated.lime"),
                6 * (144 + 1000) + 144 + 500);     // inside record 7's payload
        List<Row> every = sameRowsBothWays(d -> d.select(EVERY_COLUMN), "4", damaged.toString());
        assertThat(every).hasSize(7);
        assertThat(every.get(6).isNullAt(5)).as("no content for the cut record: %s", every.get(6)).isTrue();
        assertThat(every.get(6).getString(6)).startsWith("truncated: 500 of its 1000 bytes");
        assertThat(sameRowsBothWays(d -> d.select(LISTING), "4", damaged.toString())).hasSize(7);
        // the corpus's own damaged files (truncated in a payload, in a header), beside sound ones, and a G3 file
        // whose frame 1 fails its CRC (sound keys after damaged ones in the same batch)
        long[] frames = DamagedCopies.g3FrameOffsets("simple-types.g3");
        Path crc = DamagedCopies.flipByte(CorpusReadTest.corpus("g3").resolve("simple-types.g3"),
                dir.resolve("damaged").resolve("crc.g3"), frames[2] - 1);
        sameRowsBothWays(d -> d.select(EVERY_COLUMN), "2", CorpusReadTest.corpus("lime").resolve("s10_truncated_in_payload.lime")
                .toString(), CorpusReadTest.corpus("lime").resolve("s11_truncated_in_header.lime").toString(),
                sound.toString());
        List<Row> g3 = sameRowsBothWays(d -> d.select(EVERY_COLUMN), "7", crc.toString());
        assertThat(g3).hasSize(18).filteredOn(r -> !r.isNullAt(6)).hasSize(5);
        assertThat(sameRowsBothWays(d -> d.select(col("path"), col("damage")), "7", crc.toString()))
                .filteredOn(r -> !r.isNullAt(1)).hasSize(5);
    }

    @Test
    void queriesReadBatchesUnlessRowsAreAskedFor() {
        String corpus = CorpusReadTest.corpus("lime").toString();
        Dataset<Row> listing = spark.read().format("containerfs").load(corpus).select("path", "size", "container");
        assertThat(listing.collectAsList()).hasSizeGreaterThan(50);
        SparkPlan plan = listing.queryExecution().executedPlan();
        assertThat(find(plan, FileSourceScanExec.class).supportsColumnar()).as("the listing reads batches: %s", plan).isTrue();
        ColumnarToRowExec toRows = find(plan, ColumnarToRowExec.class);
        assertThat(toRows.metrics().apply("numInputBatches").value()).as("batches the listing went through").isPositive();

        Dataset<Row> content = spark.read().format("containerfs").load(corpus).select(sha2(col("content"), 256));
        assertThat(content.collectAsList()).hasSizeGreaterThan(50);
        assertThat(find(content.queryExecution().executedPlan(), FileSourceScanExec.class).supportsColumnar()).isTrue();

        Dataset<Row> rows = read("false", "4096", corpus).select("path", "size", "container");
        assertThat(rows.collectAsList()).hasSizeGreaterThan(50);
        assertThat(find(rows.queryExecution().executedPlan(), FileSourceScanExec.class).supportsColumnar()).isFalse();
    }

    @Test
    void badColumnarOptionsAreRefusedByName() {
        String lime = CorpusReadTest.corpus("lime").toString();
        assertThatThrownBy(() -> read("sometimes", "4096", lime).count()).hasStackTraceContaining("spark.containerfs.columnar");
        assertThatThrownBy(() -> read("true", "0", lime).count()).hasStackTraceContaining("option columnarBatchSize");
        // the options that are Spark's settings now are refused with their new name
        for (String moved : List.of("columnar", "maxPartitionBytes", "openCostInBytes")) {
            assertThatThrownBy(() -> spark.read().format("containerfs").option(moved, "true").load(lime).count())
                    .as(moved).hasStackTraceContaining("the option " + moved.toLowerCase(java.util.Locale.ROOT) + " is now");
        }
    }

    /** The one node of {@code type} in a plan without exchanges (so not adaptive). */
    static <T extends SparkPlan> T find(SparkPlan plan, Class<T> type) {
        List<T> found = new ArrayList<>();
        List<SparkPlan> todo = new ArrayList<>(List.of(plan));
        while (!todo.isEmpty()) {
            SparkPlan p = todo.remove(todo.size() - 1);
            if (type.isInstance(p)) {
                found.add(type.cast(p));
            }
            todo.addAll(scala.jdk.javaapi.CollectionConverters.asJava(p.children()));
        }
        assertThat(found).as("%s in %s", type.getSimpleName(), plan).hasSize(1);
        return found.get(0);
    }
}
