package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a load path selects, and how the rows name their container: a SIONlib multi-file set gives each task once
 * (its member files are read through the set), and {@code container} is one URI per file whatever the load path
 * looked like (a directory, a glob, the file itself), so that two loads join.
 */
class LoadPathsTest {
    @TempDir
    static Path dir;

    @Test
    void aSionSetInALoadedDirectoryGivesEachTaskOnce() throws IOException {
        SparkSession spark = SparkSessions.local2();
        Path data = Files.createDirectories(dir.resolve("sets"));
        Path samples = Path.of("../samples/sion").toAbsolutePath();
        Path first = Files.copy(samples.resolve("spikes.sion"), data.resolve("spikes.sion"));
        Path member = Files.copy(samples.resolve("spikes.sion.000001"), data.resolve("spikes.sion.000001"));
        Files.copy(CorpusReadTest.corpus("sion").resolve("tasks4_varsizes_bs512.sion"), data.resolve("single.sion"));
        // named like a member beside a file of the same name, but a LIME file: a container of its own
        LimeFiles.write(data.resolve("notes.lime"), 2, 16);
        LimeFiles.write(data.resolve("notes.lime.000001"), 3, 16);
        try (FileSystem opened = ContainerFileSystems.open(member)) {
            assertThat(Files.readAttributes(opened.getPath("/"), "sion:*")).as("the member says what it is")
                    .containsEntry("files", 2).containsEntry("fileNumber", 1);
        }

        List<ProviderWalk.Row> expected = new ArrayList<>();
        for (String name : List.of("spikes.sion", "single.sion", "notes.lime", "notes.lime.000001")) {
            expected.addAll(ProviderWalk.walk(data.resolve(name)));
        }
        assertThat(ProviderWalk.walk(first)).as("the set's tasks, those of both files").hasSize(4);
        for (String[] load : List.of(new String[] {data.toString()}, new String[] {data.resolve("*").toString()},
                new String[] {first.toString(), member.toString(), data.resolve("single.sion").toString(),
                    data.resolve("notes.lime*").toString()})) {
            Dataset<Row> read = spark.read().format("containerfs").load(load);
            assertThat(ProviderWalk.rowsOf(read)).as("load %s", List.of(load)).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(read.count()).isEqualTo(expected.size());
            assertThat(read.where(col("container").equalTo(member.toUri().toString())).count()).isZero();
        }
        // a member read without its set's first file is what the provider shows when it is opened alone: its own tasks
        assertThat(ProviderWalk.rowsOf(spark.read().format("containerfs").load(member.toString())))
                .containsExactlyInAnyOrderElementsOf(ProviderWalk.walk(member)).hasSize(2);
        assertThat(ProviderWalk.rowsOf(spark.read().format("containerfs").option("pathGlobFilter", "*.000001").load(data.toString())))
                .containsExactlyInAnyOrderElementsOf(concat(ProviderWalk.walk(member),
                        ProviderWalk.walk(data.resolve("notes.lime.000001"))));
    }

    @Test
    void containerIsOneUriWhateverTheLoadPathLooksLike() throws IOException {
        SparkSession spark = SparkSessions.local2();
        Path data = Files.createDirectories(dir.resolve("uri test ü"));
        Path a = LimeFiles.write(data.resolve("a b.lime"), 3, 16);
        Path c = LimeFiles.write(data.resolve("c#1.lime"), 2, 16);
        List<String> expected = List.of(a.toUri().toString(), c.toUri().toString());
        assertThat(expected.get(0)).startsWith("file:///").contains("a%20b.lime");
        String[] loads = {data.toString(), data.resolve("*.lime").toString(), "file:" + data, "file://" + data,
            "file://" + data.resolve("*")};
        for (String load : loads) {
            assertThat(containers(spark.read().format("containerfs").load(load))).as(load).isEqualTo(expected);
        }
        assertThat(containers(spark.read().format("containerfs").load(a.toString(), c.toString()))).isEqualTo(expected);
        // two loads of the same files join on the container
        Dataset<Row> byDirectory = spark.read().format("containerfs").load(data.toString()).select("container", "path");
        Dataset<Row> byGlob = spark.read().format("containerfs").load("file:" + data.resolve("*.lime")).select("container", "path");
        assertThat(byDirectory.join(byGlob, scala.jdk.javaapi.CollectionConverters.asScala(List.of("container", "path"))
                .toSeq()).count()).isEqualTo(5);
        // and a pushed filter on the URI finds the file whichever way it was loaded
        for (String load : loads) {
            assertThat(spark.read().format("containerfs").load(load).where(col("container").equalTo(a.toUri().toString()))
                    .count()).as(load).isEqualTo(3);
        }
    }

    static List<String> containers(Dataset<Row> read) {
        return read.select("container").collectAsList().stream().map(r -> r.getString(0)).distinct().sorted().toList();
    }

    static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
