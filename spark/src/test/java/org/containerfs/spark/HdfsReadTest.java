package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * HDFS for real: a NameNode and a DataNode in this JVM on 127.0.0.1 ({@code hadoop-client-minicluster}, the
 * Hadoop version Spark brings), the corpus copied into it, read by Spark local[2] through {@code hdfs://}. The rows
 * equal those of the same files read through {@code file:}, and {@code container} is the file's fully qualified
 * {@code hdfs://127.0.0.1:PORT/...} URI.
 */
class HdfsReadTest {
    static MiniDFSCluster cluster;
    static String root;

    @BeforeAll
    static void startHdfsAndCopyTheCorpus() throws Exception {
        Path base = Path.of("target", "hdfs-test").toAbsolutePath();
        if (Files.exists(base)) {
            try (Stream<Path> old = Files.walk(base)) {
                old.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        cluster.waitActive();
        root = "hdfs://127.0.0.1:" + cluster.getNameNodePort();
        FileSystem fs = cluster.getFileSystem();
        for (String format : StandaloneClusterTest.FORMATS) {
            try (Stream<Path> files = Files.list(CorpusReadTest.corpus(format))) {
                for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(file.toUri()),
                            new org.apache.hadoop.fs.Path("/corpus/" + format + "/" + file.getFileName()));
                }
            }
        }
    }

    @AfterAll
    static void stopHdfs() {
        if (cluster != null) {
            cluster.shutdown();
        }
    }

    /** Container file name, path, format, size, SHA-256 of the content (null where damaged), damage without URIs. */
    static List<List<Object>> rows(Dataset<Row> read) {
        return read.select(col("container"), col("path"), col("format"), col("size"), sha2(col("content"), 256),
                        col("damage"))
                .collectAsList().stream()
                .map(r -> Arrays.<Object>asList(new org.apache.hadoop.fs.Path(r.getString(0)).getName(), r.getString(1),
                        r.getString(2), r.getLong(3), r.getString(4),
                        r.isNullAt(5) ? null : r.getString(5).replaceAll("(file|hdfs):[^ ]*/", "")))
                .toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "sion", "g3"})
    void containersOnHdfsGiveTheRowsOfTheLocalFiles(String format) {
        SparkSession spark = SparkSessions.local2();
        List<List<Object>> expected = rows(spark.read().format("containerfs").load(CorpusReadTest.corpus(format).toString()));
        assertThat(expected).hasSizeGreaterThan(5);
        Dataset<Row> hdfs = spark.read().format("containerfs").load(root + "/corpus/" + format + "/");
        assertThat(rows(hdfs)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(hdfs.select(col("container")).collectAsList())
                .allMatch(r -> r.getString(0).startsWith(root + "/corpus/" + format + "/"));
        assertThat(hdfs.count()).isEqualTo(expected.size());
    }
}
