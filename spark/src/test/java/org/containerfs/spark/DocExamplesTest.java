package org.containerfs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java, Scala and SQL example of docs/spark.md and of README.md's Spark section runs, on local[2] ({@code scripts/doc-examples} skips them: they need
 * Spark). A {@code java} fence is the body of a method given {@code SparkSession spark}, with Spark's SQL classes
 * and {@code functions.*} imported, compiled for Java 17 against the test class path; a {@code sql} fence is run
 * statement by statement ({@code ;} at a line's end) through {@code spark.sql(...)}, each result collected. The
 * stores the examples name are stood in for by local directories ({@link #stores}): a path an example uses that is
 * not there fails the test, so an example never reaches the network. A {@code scala} fence is the body of
 * {@code def run(spark: SparkSession)} with {@code spark.implicits._} and {@code functions._} imported (as
 * spark-shell has them), compiled by the Scala compiler Spark's Scala comes with. Python fences are not run.
 */
class DocExamplesTest {
    /** docs/spark.md, all its examples; README.md, those of its Spark section (a fence that names {@code spark.}). */
    static final List<String> DOCS = List.of("docs/spark.md", "README.md");
    static final Pattern FENCE = Pattern.compile("(?m)^```(\\w*)\\s*\\n(.*?)^```", Pattern.DOTALL);
    static final Pattern REMOTE = Pattern.compile("\\b(hdfs|s3a|abfs|gs|wasb)://[^\"'`\\s]*");

    @TempDir
    Path scratch;

    /** What the examples' paths stand for here (longest first, so a path is replaced before its prefix). */
    Map<String, String> stores(Fence fence) throws IOException {
        Map<String, String> s = new LinkedHashMap<>();
        // each example writes into a directory of its own (README.md and docs/spark.md share one)
        Path out = Files.createDirectories(scratch.resolve("out").resolve(fence.where().replaceAll("[^A-Za-z0-9]", "-")));
        s.put("hdfs://nn/ensembles/run42-checksums", out.resolve("run42-checksums").toUri().toString());
        s.put("hdfs://nn/ensembles/run42/", CorpusReadTest.corpus("lime").toUri().toString());
        s.put("/data/season/*.g3", CorpusReadTest.corpus("g3") + "/*.g3");
        // the partitioned ensemble of "SQL" and "Partition columns": beta=.../L=.../conf.N.lime
        Path ensemble = partitionedEnsemble();
        s.put("hdfs://nn/data/ensemble", ensemble.toUri().toString());
        s.put("/data/ensemble", ensemble.toString());
        s.put("s3a://telescope/2026/", CorpusReadTest.corpus("g3").toUri().toString());
        return s;
    }

    /** Two values of beta and of L, a LIME container of the corpus in each of the four directories. */
    Path partitionedEnsemble() throws IOException {
        Path root = scratch.resolve("ensemble");
        if (Files.isDirectory(root)) {
            return root;
        }
        Path lime = CorpusReadTest.corpus("lime").resolve("s03_multi_msg_pack.lime");
        int n = 1000;
        for (String beta : List.of("5.8", "6.0")) {
            for (String l : List.of("16", "32")) {
                Path dir = Files.createDirectories(root.resolve("beta=" + beta).resolve("L=" + l));
                Files.copy(lime, dir.resolve("conf." + (n += 10) + ".lime"));
            }
        }
        return root;
    }

    record Fence(String language, String doc, int line, String text) {
        String where() {
            return doc + ":" + line;
        }
    }

    static List<Fence> fences(String language) throws IOException {
        List<Fence> found = new ArrayList<>();
        for (String name : DOCS) {
            String doc = Files.readString(Path.of("..").resolve(name));
            Matcher m = FENCE.matcher(doc);
            while (m.find()) {
                boolean sparkExample = name.equals("docs/spark.md") || m.group(2).contains("spark.");
                if (m.group(1).equals(language) && sparkExample) {
                    int line = (int) doc.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 2;
                    found.add(new Fence(language, name, line, m.group(2)));
                }
            }
        }
        return found;
    }

    String local(Fence fence) throws IOException {
        String code = fence.text();
        for (Map.Entry<String, String> e : stores(fence).entrySet()) {
            code = code.replace(e.getKey(), e.getValue());
        }
        Matcher remote = REMOTE.matcher(code);
        assertThat(remote.find()).as("%s names %s, which DocExamplesTest.stores() does not stand in for",
                fence.where(), remote.find(0) ? remote.group() : "").isFalse();
        return code;
    }

    @Test
    void everyJavaExampleRuns() throws Exception {
        List<Fence> java = fences("java");
        assertThat(java).as("java fences of docs/spark.md and README.md").extracting(Fence::doc)
                .contains("docs/spark.md", "README.md");
        SparkSession spark = SparkSessions.local2();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (int i = 0; i < java.size(); i++) {
            Fence fence = java.get(i);
            String name = "SparkDocExample" + i;
            Path dir = Files.createDirectories(scratch.resolve(name));
            Path source = dir.resolve(name + ".java");
            Files.writeString(source, """
                    import static org.apache.spark.sql.functions.*;
                    import java.util.*;
                    import org.apache.spark.sql.*;
                    public class %s {
                        public static void run(SparkSession spark) throws Exception {
                    %s
                        }
                    }
                    """.formatted(name, local(fence)));
            StringWriter errors = new StringWriter();
            boolean compiled = javac.getTask(errors, null, null,
                    List.of("--release", "17", "-proc:none", "-cp", classPath, "-d", dir.toString()), null,
                    javac.getStandardFileManager(null, null, null).getJavaFileObjects(source)).call();
            assertThat(compiled).as("%s compiles:\n%s", fence.where(), errors).isTrue();
            try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                    DocExamplesTest.class.getClassLoader())) {
                loader.loadClass(name).getMethod("run", SparkSession.class).invoke(null, spark);
            } catch (InvocationTargetException e) {
                throw new AssertionError(fence.where() + " fails", e.getCause());
            }
        }
        try (Stream<Path> written = Files.walk(scratch.resolve("out"))) {
            assertThat(written.filter(p -> p.toString().endsWith(".parquet"))).as("the checksums the example writes")
                    .isNotEmpty();
        }
    }

    @Test
    void everyScalaExampleRuns() throws Exception {
        List<Fence> scalaFences = fences("scala");
        assertThat(scalaFences).as("scala fences of docs/spark.md and README.md").extracting(Fence::doc)
                .contains("docs/spark.md", "README.md");
        SparkSession spark = SparkSessions.local2();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (int i = 0; i < scalaFences.size(); i++) {
            Fence fence = scalaFences.get(i);
            String name = "SparkDocExampleScala" + i;
            Path dir = Files.createDirectories(scratch.resolve(name));
            Path source = dir.resolve(name + ".scala");
            Files.writeString(source, """
                    import org.apache.spark.sql._
                    import org.apache.spark.sql.functions._
                    object %s {
                      def run(spark: SparkSession): Unit = {
                        import spark.implicits._
                    %s
                      }
                    }
                    """.formatted(name, local(fence)));
            java.io.ByteArrayOutputStream messages = new java.io.ByteArrayOutputStream();
            boolean compiled;
            try (java.io.PrintStream to = new java.io.PrintStream(messages, true, java.nio.charset.StandardCharsets.UTF_8)) {
                compiled = scala.Console.withOut(to, () -> scala.tools.nsc.Main.process(new String[] {
                    "-classpath", classPath, "-d", dir.toString(), "-nowarn", source.toString()}));
            }
            assertThat(compiled).as("%s compiles:\n%s", fence.where(), messages).isTrue();
            try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                    DocExamplesTest.class.getClassLoader())) {
                loader.loadClass(name).getMethod("run", SparkSession.class).invoke(null, spark);
            } catch (InvocationTargetException e) {
                throw new AssertionError(fence.where() + " fails", e.getCause());
            }
        }
    }

    @Test
    void everySqlExampleRuns() throws Exception {
        SparkSession spark = SparkSessions.local2();
        for (Fence fence : fences("sql")) {
            // a "-- comment" may follow a statement's semicolon on its line
            for (String statement : local(fence).replaceAll("--[^\\n]*", "").split(";\\s*(\\n|$)")) {
                if (!statement.isBlank()) {
                    try {
                        spark.sql(statement).collectAsList();
                    } catch (RuntimeException e) {
                        throw new AssertionError(fence.where() + " fails: " + statement, e);
                    }
                }
            }
        }
    }
}
