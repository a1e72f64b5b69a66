package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged containers, files that are no containers, and the read options. */
class DamageAndOptionsTest {
    @TempDir
    static Path dir;
    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkSessions.local2();
    }

    static List<String> paths(Dataset<Row> rows) {
        return rows.select("path").collectAsList().stream().map(r -> r.getString(0)).sorted().toList();
    }

    /**
     * A record the container declares but does not hold whole is listed by the provider with its declared size and
     * cannot be read; its row says the same: the declared size, content null, and in damage how many of its bytes
     * are there. The corpus's cut files (in a payload, at the end of a header, in the padding after a whole
     * payload), and a cut made here inside record 7 of 10.
     */
    @Test
    void aTruncatedRecordKeepsItsRowWithItsDeclaredSize() throws IOException {
        Path sound = LimeFiles.write(dir.resolve("sound.lime"), 10, 1000);
        // records are 144 + 1000 + 0 padding (1000 is a multiple of 8): cut inside record 7's payload
        Path cut = DamagedCopies.cut(sound, Files.createDirectories(dir.resolve("truncated")).resolve("truncated.lime"),
                6 * (144 + 1000) + 144 + 500);
        Path lime = CorpusReadTest.corpus("lime");
        Map<Path, String> damageOfTheLastRecord = Map.of(
                cut, "truncated: 500 of its 1000 bytes are present: ",
                lime.resolve("s10_truncated_in_payload.lime"), "truncated: 2608 of its 4608 bytes are present: ",
                lime.resolve("s20_header_only_at_eof.lime"), "truncated: 0 of its 64 bytes are present: ");
        for (Path file : List.of(cut, lime.resolve("s10_truncated_in_payload.lime"),
                lime.resolve("s20_header_only_at_eof.lime"), lime.resolve("s16_truncated_in_padding.lime"))) {
            List<ProviderWalk.Row> walk = ProviderWalk.walk(file);
            String name = file.getFileName().toString();
            Dataset<Row> read = spark.read().format("containerfs").load(file.toString());
            List<Row> rows = read.select(col("path"), col("size"), sha2(col("content"), 256), col("damage"))
                    .collectAsList();
            assertThat(rows.stream().map(r -> new ProviderWalk.Row(name, r.getString(0), r.getLong(1), r.getString(2))))
                    .as(name).containsExactlyInAnyOrderElementsOf(walk);
            assertThat(read.count()).as(name).isEqualTo(walk.size());
            assertThat(paths(read)).as(name).isEqualTo(walk.stream().map(ProviderWalk.Row::path).sorted().toList());
            String expected = damageOfTheLastRecord.get(file);
            Row last = rows.stream().max(java.util.Comparator.comparing(r -> r.getString(0))).orElseThrow();
            if (expected == null) {
                assertThat(rows).as("%s is sound where it is read", name).allMatch(r -> r.isNullAt(3));
            } else {
                assertThat(last.isNullAt(2)).as("%s has no content", last).isTrue();
                assertThat(last.getString(3)).startsWith(expected).contains(name).contains("declares");
                assertThat(rows).filteredOn(r -> r != last).allMatch(r -> r.isNullAt(3) && !r.isNullAt(2));
            }
        }
        assertThat(ProviderWalk.walk(cut)).hasSize(7);

        assertThatThrownBy(() -> spark.read().format("containerfs").option("strict", "true").load(cut.toString())
                .select("content").collectAsList())
                .hasStackTraceContaining("truncated.lime")
                .hasStackTraceContaining("strict=true");
    }

    @Test
    void filesThatAreNoContainersAreSkippedOrFailAStrictRead() throws IOException {
        Path mixed = Files.createDirectories(dir.resolve("mixed"));
        LimeFiles.write(mixed.resolve("a.lime"), 3, 16);
        Files.writeString(mixed.resolve("notes.txt"), "not a container");
        Files.writeString(mixed.resolve("_SUCCESS"), "");
        assertThat(spark.read().format("containerfs").load(mixed.toString()).count()).isEqualTo(3);
        assertThatThrownBy(() -> spark.read().format("containerfs").option("strict", "true").load(mixed.toString()).count())
                .hasStackTraceContaining("notes.txt")
                .hasStackTraceContaining("strict=true");
        assertThat(spark.read().format("containerfs").option("format", "lime").load(mixed.toString()).count()).isEqualTo(3);
        assertThat(spark.read().format("containerfs").option("format", "g3").load(mixed.toString()).count()).isZero();
    }

    @Test
    void recordGlobPathGlobFilterAndRecursiveLookup() throws IOException {
        Path tree = Files.createDirectories(dir.resolve("tree"));
        LimeFiles.write(tree.resolve("a.lime"), 6, 16);
        LimeFiles.write(tree.resolve("b.dat"), 6, 16);
        LimeFiles.write(Files.createDirectories(tree.resolve("sub")).resolve("c.lime"), 6, 16);
        // Spark's file index: a directory's own files (a subdirectory not named key=value is no partition of it)
        assertThat(spark.read().format("containerfs").load(tree.toString()).count()).isEqualTo(12);
        assertThat(spark.read().format("containerfs").option("recursiveFileLookup", "true").load(tree.toString()).count())
                .isEqualTo(18);
        assertThat(spark.read().format("containerfs").option("pathGlobFilter", "*.lime")
                .option("recursiveFileLookup", "true").load(tree.toString()).count()).isEqualTo(12);
        Dataset<Row> globbed = spark.read().format("containerfs").option("recordGlob", "/msg01/rec0[12].*")
                .load(tree.resolve("a.lime").toString());
        assertThat(paths(globbed)).containsExactly("/msg01/rec01.data-1", "/msg01/rec02.data-2");
        assertThat(spark.read().format("containerfs").load(tree.resolve("*.lime").toString()).count()).isEqualTo(6);
        // a missing path fails at load(), as for every Spark file source
        assertThatThrownBy(() -> spark.read().format("containerfs").load(tree.resolve("missing").toString()))
                .isInstanceOf(org.apache.spark.sql.AnalysisException.class)
                .hasMessageContaining("PATH_NOT_FOUND");
    }

    @Test
    void providerEnvKeysPassThrough() {
        Path sion = CorpusReadTest.corpus("sion").resolve("multiblock_bs512.sion");
        List<String> streams = paths(spark.read().format("containerfs").load(sion.toString()));
        List<String> chunks = paths(spark.read().format("containerfs").option("chunks", "true").load(sion.toString()));
        assertThat(streams).allMatch(p -> p.matches("/task\\d{6}"));
        assertThat(chunks).allMatch(p -> p.matches("/task\\d{6}/chunk\\d{6}")).hasSizeGreaterThan(streams.size());
    }

    @Test
    void attributesAreTheFormatsViewWithBytesAsHex() {
        Row rec = spark.read().format("containerfs").load(CorpusReadTest.corpus("lime").resolve("cl2qcd_conf.00200").toString())
                .where(col("path").equalTo("/msg01/rec01.xlf-info")).select("attributes").first();
        java.util.Map<String, String> attributes = rec.getJavaMap(0);
        assertThat(attributes).containsEntry("type", "786c662d696e666f").containsEntry("length", "241")
                .containsKey("headerOffset");
    }
}
