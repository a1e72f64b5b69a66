package org.containerfs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.containerfs.spark.apps.ContainerRowsApp;
import org.junit.jupiter.api.Test;

/**
 * A Spark standalone cluster on 127.0.0.1: a Master and two Workers (one core each), each a JVM of its own started
 * from the test class path's jars ({@link SparkProcesses}: the containerfs modules left out), and an application
 * submitted to it through {@code SparkSubmit} with the module's -all.jar in {@code --jars}, as a user runs
 * {@code spark-submit --jars containerfs-spark_2.13-VERSION-all.jar}. The executors the Workers start have
 * Spark's jars only: the data source reaches them through {@code --jars} alone. The rows of every corpus format
 * (content read on the executors, as its SHA-256) equal those of this JVM's local[2] read.
 */
class StandaloneClusterTest {
    static final List<String> FORMATS = List.of("lime", "gsd", "scda", "sion", "g3");

    @Test
    void aMasterAndTwoWorkersGiveTheRowsOfLocalMode() throws Exception {
        Path allJar = Path.of(System.getProperty("containerfs.spark.allJar", "target/missing-all.jar"));
        assertThat(allJar).as("the -all.jar, made at process-test-classes by mvn test").isRegularFile();
        Path dir = Path.of("target", "standalone-cluster").toAbsolutePath();
        SparkPackagesTest.delete(dir);
        try (SparkProcesses spark = new SparkProcesses(dir)) {
            // the Workers start beside the Master (they retry until it is up): a port picked here, not the Master's 0
            String masterUrl = "spark://127.0.0.1:" + SparkProcesses.freePort();
            Process master = spark.start("master", SparkProcesses.java("256m",
                    List.of("-Dspark.master.rest.enabled=false"), "org.apache.spark.deploy.master.Master",
                    List.of("--host", "127.0.0.1", "--port", masterUrl.substring(masterUrl.lastIndexOf(':') + 1),
                            "--webui-port", "0")), Map.of());
            List<Process> workers = new ArrayList<>();
            for (int i = 1; i <= 2; i++) {
                Path work = Files.createDirectories(dir.resolve("work-" + i));
                workers.add(spark.start("worker-" + i, SparkProcesses.java("256m", "org.apache.spark.deploy.worker.Worker",
                        List.of("--host", "127.0.0.1", "--port", "0", "--webui-port", "0", "--cores", "1", "--memory", "1g",
                                "--work-dir", work.toString(), masterUrl)), Map.of()));
            }
            spark.await(master, Pattern.compile("Starting Spark master at " + Pattern.quote(masterUrl)), Duration.ofSeconds(120));
            // the driver starts once the Master leads (it waits for both executors itself, below), beside the Workers
            spark.await(master, Pattern.compile("New state: ALIVE"), Duration.ofSeconds(120));

            List<String> args = new ArrayList<>(List.of(
                    "--master", masterUrl, "--deploy-mode", "client", "--name", "containerfs-standalone-test",
                    "--jars", allJar.toAbsolutePath().toString(),
                    "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
                    "--conf", "spark.ui.enabled=false", "--conf", "spark.sql.shuffle.partitions=2",
                    "--conf", "spark.executor.memory=512m", "--conf", "spark.executor.cores=1", "--conf", "spark.cores.max=2",
                    // the application starts once both executors are there, so both take part
                    "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
                    "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=60s",
                    "--conf", "spark.executor.extraJavaOptions=" + String.join(" ", SparkProcesses.moduleOptions())
                            + " -Dcontainerfs.indexCache=off -XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
                    "--class", ContainerRowsApp.class.getName(),
                    SparkProcesses.appJar(dir.resolve("app.jar"), "org/containerfs/spark/apps").toString()));
            Path out = dir.resolve("rows.txt");
            args.add(out.toString());
            for (String format : FORMATS) {
                args.add(CorpusReadTest.corpus(format).toString());
            }
            Process driver = spark.start("driver", SparkProcesses.java("512m", "org.apache.spark.deploy.SparkSubmit", args),
                    Map.of());
            for (Process worker : workers) {
                spark.await(worker, Pattern.compile("Successfully registered with master"), Duration.ofSeconds(120));
            }
            assertThat(spark.waitFor(driver, Duration.ofSeconds(240))).as("the driver's exit code; its log:\n%s",
                    spark.tail(driver)).isZero();
            List<String> lines = Files.readAllLines(out);
            assertThat(lines.get(0)).isEqualTo("executors 2");
            assertThat(spark.log(master)).contains("Registered app containerfs-standalone-test");

            SparkSession local = SparkSessions.local2();
            for (int i = 0; i < FORMATS.size(); i++) {
                String prefix = (i + 1) + " ";
                List<String> expected = ContainerRowsApp.rows(local.read().format("containerfs")
                        .load(CorpusReadTest.corpus(FORMATS.get(i)).toString()));
                assertThat(expected).as(FORMATS.get(i)).hasSizeGreaterThan(5);
                assertThat(lines.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList())
                        .as("%s rows on the cluster", FORMATS.get(i)).containsExactlyInAnyOrderElementsOf(expected);
            }
        }
    }
}
