package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.containerfs.hadoop.S3aTestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bucket of containers read through {@code s3a://} (hadoop-aws with the individual AWS SDK modules, s3proxy on
 * 127.0.0.1 in this JVM) in local[2], configured through the read's options alone: the rows equal those of the
 * same files read from the local disk.
 */
class S3aReadTest {
    static S3aTestServer server;

    @BeforeAll
    static void upload() throws Exception {
        server = new S3aTestServer();
        server.createBucket("ensemble");
        for (String format : List.of("lime", "gsd", "scda", "sion", "g3")) {
            try (Stream<Path> files = Files.list(CorpusReadTest.corpus(format))) {
                for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    server.put("ensemble", "runs/" + format + "/" + file.getFileName(), file);
                }
            }
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    /** Container file name, path, size, SHA-256 of the content (null where damaged) and damage of each row. */
    static List<List<Object>> rows(Dataset<Row> read) {
        return read.select(col("container"), col("path"), col("size"), sha2(col("content"), 256), col("damage"))
                .collectAsList().stream()
                .map(r -> java.util.Arrays.<Object>asList(new org.apache.hadoop.fs.Path(r.getString(0)).getName(),
                        r.getString(1), r.getLong(2), r.getString(3), r.isNullAt(4) ? null : damageKind(r.getString(4))))
                .toList();
    }

    /** The damage without the container's URI, which differs between the two reads. */
    static String damageKind(String damage) {
        return damage.replaceAll("(file|s3a):[^ ]*/", "");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "sion", "g3"})
    void aBucketOfContainersGivesTheRowsOfTheLocalRead(String format) {
        SparkSession spark = SparkSessions.local2();
        Dataset<Row> local = spark.read().format("containerfs").load(CorpusReadTest.corpus(format).toString());
        Dataset<Row> bucket = spark.read().format("containerfs").options(server.settings())
                .load("s3a://ensemble/runs/" + format + "/");
        List<List<Object>> expected = rows(local);
        assertThat(expected).hasSizeGreaterThan(5);
        assertThat(rows(bucket)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(bucket.select(col("container")).collectAsList())
                .allMatch(r -> r.getString(0).startsWith("s3a://ensemble/runs/" + format + "/"));
        assertThat(bucket.count()).isEqualTo(expected.size());
        assertThat(server.takeRequests()).isNotEmpty()
                .allMatch(r -> r.startsWith("GET ") || r.startsWith("HEAD "), "reads only");
    }
}
