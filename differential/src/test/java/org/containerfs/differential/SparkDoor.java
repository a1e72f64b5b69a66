package org.containerfs.differential;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sha2;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Spark rows of {@code spark.read.format("containerfs").load(<the format's directory>)}: all inputs of a
 * format in one load, on local[2]. Two doors, because the set of rows must not depend on the columns
 * selected: {@link #listing} selects {@code container, path, size} (what {@code count()} and listings read),
 * {@link #content} adds {@code sha2(content, 256)} and the {@code damage} column. Spark gives rows for files
 * only, and skips a container it cannot open without a row (so a refusal looks like an empty container). A
 * row whose {@code damage} is not null is an unreadable file, whatever its {@code content}; a null
 * {@code content} without damage is reported as such (a disagreement of its own).
 */
final class SparkDoor implements Door {
    private final SparkSession spark;
    private final boolean withContent;

    private SparkDoor(SparkSession spark, boolean withContent) {
        this.spark = spark;
        this.withContent = withContent;
    }

    static SparkDoor listing(SparkSession spark) {
        return new SparkDoor(spark, false);
    }

    static SparkDoor content(SparkSession spark) {
        return new SparkDoor(spark, true);
    }

    static SparkSession localSession() {
        return SparkSession.builder().master("local[2]").appName("containerfs-differential")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
    }

    /** The read of one format's directory of inputs. */
    static Dataset<Row> load(SparkSession spark, Path directory) {
        return spark.read().format("containerfs").load(directory.toString());
    }

    @Override
    public String name() {
        return withContent ? "spark-content" : "spark-listing";
    }

    @Override
    public Set<Aspect> aspects() {
        return withContent ? EnumSet.of(Aspect.SIZES, Aspect.CONTENT) : EnumSet.of(Aspect.SIZES);
    }

    @Override
    public Answer answer(Input input) {
        throw new UnsupportedOperationException("Spark reads a format's directory at once: see answers()");
    }

    @Override
    public Map<Input, Answer> answers(List<Input> inputsOfOneFormat) {
        Map<String, Input> byName = new HashMap<>();
        for (Input input : inputsOfOneFormat) {
            byName.put(input.fileName(), input);
        }
        Dataset<Row> all = load(spark, inputsOfOneFormat.get(0).file().getParent());
        boolean damageColumn = Arrays.asList(all.columns()).contains("damage");
        List<Column> columns = new ArrayList<>(List.of(col("container"), col("path"), col("size")));
        if (withContent) {
            columns.add(sha2(col("content"), 256));
            columns.add(length(col("content")));
            columns.add(damageColumn ? col("damage") : lit(null).cast("string"));
        }
        Map<Input, Map<String, Answer.Entry>> rows = new LinkedHashMap<>();
        for (Input input : inputsOfOneFormat) {
            rows.put(input, new TreeMap<>());
        }
        for (Row row : all.select(columns.toArray(Column[]::new)).collectAsList()) {
            String container = row.getString(0);
            Input input = byName.get(container.substring(container.lastIndexOf('/') + 1));
            if (input == null) {
                throw new AssertionError("spark gave a row of a container that is no input: " + container + " " + row);
            }
            long size = row.getLong(2);
            String content = withContent ? content(row, size, damageColumn) : null;
            Answer.Entry entry = Answer.Entry.file(size, content);
            Map<String, Answer.Entry> entries = rows.get(input);
            String path = row.getString(1);
            entries.put(path, entries.containsKey(path) ? Answer.Entry.file(size, "more than one row") : entry);
        }
        Map<Input, Answer> answers = new LinkedHashMap<>();
        rows.forEach((input, entries) -> answers.put(input, Answer.of(entries)));
        return answers;
    }

    private static String content(Row row, long size, boolean damageColumn) {
        String sha = row.getString(3);
        String damage = row.getString(5);
        if (damage != null) {
            return sha == null ? Answer.UNREADABLE : "content " + sha + " and damage " + damage;
        }
        if (sha == null) {
            return damageColumn ? "null content without damage" : "null content (no damage column)";
        }
        return NioWalk.content(sha, row.getInt(4), size);
    }

    /** {@code count()} of the format's load. */
    long count(Path directory) {
        return load(spark, directory).count();
    }

    /** Every distinct (container, format) value of a load of {@code paths} (a directory, a glob). */
    List<Row> containers(String paths) {
        return spark.read().format("containerfs").load(paths).select("container", "format").distinct().collectAsList();
    }
}
