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

    Dataset<Row> read(String maxPartitionBytes) {
        return spark.read().format("containerfs").option("maxPartitionBytes", maxPartitionBytes).load(large.toString());
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
        Dataset<Row> split = read(String.valueOf(RECORD_TOTAL / 5)).select(col("path"), col("size"), sha2(col("content"), 256));
        assertThat(whole.rdd().getNumPartitions()).isEqualTo(1);
        assertThat(split.rdd().getNumPartitions()).isGreaterThanOrEqualTo(5);
        List<Row> rows = split.collectAsList();
        assertThat(rows).hasSize(RECORDS).containsExactlyInAnyOrderElementsOf(whole.collectAsList());
        assertThat(read(String.valueOf(RECORD_TOTAL / 5)).count()).isEqualTo(RECORDS);
    }
}
