package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each pushed filter gives the rows Spark's own evaluation gives: the reference applies the same filter to
 * the whole read collected into a local relation, where nothing can be pushed.
 */
class PushdownTest {
    static SparkSession spark;
    static Dataset<Row> everything;
    static String largeLime;

    @BeforeAll
    static void readAll() {
        spark = SparkSessions.local2();
        largeLime = "file://" + CorpusReadTest.corpus("lime").resolve("s13_large_record.lime");
        List<Row> all = read().select(col("container"), col("path"), col("format"), col("size"),
                sha2(col("content"), 256).as("sha")).collectAsList();
        everything = spark.createDataFrame(all, read().select(col("container"), col("path"), col("format"), col("size"),
                sha2(col("content"), 256).as("sha")).schema());
        assertThat(all).hasSizeGreaterThan(100);
    }

    static Dataset<Row> read() {
        return spark.read().format("containerfs").load(CorpusReadTest.corpus("lime").toString(),
                CorpusReadTest.corpus("g3").toString(), CorpusReadTest.corpus("gsd").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "path = '/msg01/rec01.xlf-info'",
        "path IN ('/msg01/rec01.xlf-info', '/msg02/rec01.ildg-format', '/nope')",
        "path LIKE '/msg02%'",
        "path LIKE '%binary-data'",
        "path LIKE '%scidac%'",
        "format = 'g3'",
        "format IN ('lime', 'gsd')",
        "format <=> 'gsd'",
        "container = 'LARGE'",
        "container LIKE '%corpus/g3/%'",
        "size > 1000",
        "size >= 144 AND size < 4096",
        "size = 0",
        "size IN (0, 16, 241)",
        "NOT (format = 'lime') AND size <= 64",
        "path = '/msg01/rec01.xlf-info' OR size > 100000",
        "path > '/msg02' AND path <= '/msg04'",
        "length(path) > 20",
        "path LIKE '/0%' AND length(path) < 30"
    })
    void pushedFilterGivesTheRowsOfSparksOwnEvaluation(String condition) {
        String where = condition.replace("LARGE", largeLime);
        Dataset<Row> pushed = read().where(where).select(col("container"), col("path"), col("format"), col("size"),
                sha2(col("content"), 256).as("sha"));
        String plan = pushed.queryExecution().executedPlan().toString();
        List<Row> expected = everything.where(where).collectAsList();
        assertThat(pushed.collectAsList()).containsExactlyInAnyOrderElementsOf(expected);
        if (!condition.contains("length(")) {
            // a file source's scan takes the filters; Spark keeps its own Filter above it (as for every file source)
            assertThat(plan).as("the plan shows the filter pushed: %s", plan).containsPattern("PushedFilters: \\[[^\\]]");
        }
    }
}
