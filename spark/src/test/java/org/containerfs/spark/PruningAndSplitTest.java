package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Only the selected columns are read; a large container split into record ranges gives the same rows. */
class PruningAndSplitTest {
    static final int RECORDS = 40;
    static final int RECORD_BYTES = 64 << 10;
    /** What the LIME index scan reads around each header of records this far apart (its narrow window). */
    static final long INDEX_WINDOW = 4096;
    static final long RECORD_TOTAL = (long) RECORDS * RECORD_BYTES;

    @TempDir
    static Path dir;
    static Path large;
    static SparkSession spark;

    @BeforeAll
    static void write() throws Exception {
        large = LimeFiles.write(dir.resolve("large.lime"), RECORDS, RECORD_BYTES);
        spark = SparkSessions.local2();
    }

    /** A read; the queries run after it (until the next call) are split as {@code maxPartitionBytes} says. */
    Dataset<Row> read(String maxPartitionBytes) {
        SparkSessions.set("spark.sql.files.maxPartitionBytes", maxPartitionBytes);
        return spark.read().format("containerfs").load(large.toString());
    }

    @org.junit.jupiter.api.AfterEach
    void unset() {
        SparkSessions.set("spark.sql.files.maxPartitionBytes", null);
    }

    @Test
    void countAndListingReadOnlyTheIndexContentReadsTheRecords() {
        long count = BytesRead.during(() -> assertThat(read("128m").count()).isEqualTo(RECORDS));
        long listing = BytesRead.during(() -> assertThat(read("128m").select("path", "size", "format").collectAsList())
                .hasSize(RECORDS));
        long content = BytesRead.during(() -> assertThat(read("128m").select(sha2(col("content"), 256)).collectAsList())
                .hasSize(RECORDS));
        // the index of a LIME file is its 144-byte headers, read in one small window each (and the probe's 4 KiB)
        assertThat(count).isPositive().isLessThanOrEqualTo(RECORDS * INDEX_WINDOW + 4096).isLessThan(RECORD_TOTAL / 10);
        assertThat(listing).isPositive().isLessThanOrEqualTo(RECORDS * INDEX_WINDOW + 4096).isLessThan(RECORD_TOTAL / 10);
        assertThat(content).isGreaterThanOrEqualTo(RECORD_TOTAL);
    }

    @Test
    void aPushedPathFilterReadsOnlyTheMatchingRecordsContent() {
        long oneRecord = BytesRead.during(() -> assertThat(read("128m").where(col("path").equalTo("/msg01/rec07.data-1"))
                .select(col("content")).collectAsList()).hasSize(1));
        assertThat(oneRecord).isLessThanOrEqualTo(RECORDS * INDEX_WINDOW + 4096 + RECORD_BYTES);
    }

    @Test
    void aLargeContainerSplitIntoRecordRangesGivesTheRowsOfOnePartition() {
        Dataset<Row> whole = read("128m").select(col("path"), col("size"), sha2(col("content"), 256));
        assertThat(whole.rdd().getNumPartitions()).isEqualTo(1);
        List<Row> wholeRows = whole.collectAsList();
        Dataset<Row> split = read(String.valueOf(RECORD_TOTAL / 5)).select(col("path"), col("size"), sha2(col("content"), 256));
        assertThat(split.rdd().getNumPartitions()).isGreaterThanOrEqualTo(5);
        List<Row> rows = split.collectAsList();
        assertThat(rows).hasSize(RECORDS).containsExactlyInAnyOrderElementsOf(wholeRows);
        assertThat(read(String.valueOf(RECORD_TOTAL / 5)).count()).isEqualTo(RECORDS);
        // each byte range reads the records whose header lies in it: every range has some, none has them all
        List<Long> perRange = read(String.valueOf(RECORD_TOTAL / 5)).select(org.apache.spark.sql.functions.spark_partition_id().as("p"))
                .groupBy("p").count().collectAsList().stream().map(r -> r.getLong(1)).toList();
        assertThat(perRange).hasSizeGreaterThanOrEqualTo(5).allMatch(n -> n > 0 && n < RECORDS);
        assertThat(perRange.stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);
    }

    /**
     * Every format's corpus cut into 8 KiB byte ranges: each record comes exactly once, as the provider's walk lists
     * it (positions from headerOffset or offset where the format gives them, a record's share of the file where not).
     */
    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "sion", "g3"})
    void everyFormatCutIntoSmallByteRangesGivesEachRecordOnce(String format) throws Exception {
        Path corpus = CorpusReadTest.corpus(format);
        List<ProviderWalk.Row> expected = ProviderWalk.walkDirectory(corpus);
        SparkSessions.set("spark.sql.files.maxPartitionBytes", "8k");
        Dataset<Row> split = spark.read().format("containerfs").load(corpus.toString());
        assertThat(split.rdd().getNumPartitions()).isGreaterThan(10);
        assertThat(ProviderWalk.rowsOf(split)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(split.count()).isEqualTo(expected.size());
    }
}
