package org.containerfs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every corpus container of every format, read by Spark, equals the provider's own walk. */
class CorpusReadTest {
    static Path corpus(String format) {
        return Path.of(System.getProperty("containerfs.corpus", "../provider/src/test/resources/corpus"), format)
                .toAbsolutePath();
    }

    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "sion", "g3"})
    void rowsPathsSizesAndContentEqualTheProvidersWalk(String format) throws Exception {
        Path dir = corpus(format);
        List<ProviderWalk.Row> expected = ProviderWalk.walkDirectory(dir);
        assertThat(expected).as("the corpus has %s records", format).hasSizeGreaterThan(5);

        SparkSession spark = SparkSessions.local2();
        assertThat(ProviderWalk.rowsOf(spark.read().format("containerfs").load(dir.toString())))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(spark.read().format("containerfs").load(dir.toString()).count()).isEqualTo(expected.size());
    }
}
