package org.containerfs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.containerfs.spark.apps.ContainerRowsApp;
import org.junit.jupiter.api.Test;

/**
 * The published coordinates: {@code spark-submit --packages org.containerfs:containerfs-spark_2.13:VERSION
 * --repositories file://REPO} resolves the data source and its two containerfs dependencies (provider, hadoop)
 * through Spark's own Ivy resolution, nothing of Spark or Hadoop (they are {@code provided}), and the submitted
 * application reads the LIME corpus with the rows of this JVM's local[2] read.
 *
 * <p>REPO is laid out as {@code mvn install} or {@code mvn deploy} lays a Maven repository: every module's
 * {@code pom.xml} as its POM (the parent's too), its jar beside it (the module's jar as {@code mvn test} leaves it:
 * spark's is made at process-test-classes, provider's and hadoop's are their class directories, jarred here, or
 * their jars when Maven resolved them as jars). The driver runs as a user without a local Maven repository or Ivy
 * cache (its own {@code user.home}), and Spark's default remote repositories (Central, spark-packages) point, through
 * Spark's {@code DEFAULT_ARTIFACT_REPOSITORY}, at a stand-in for Central: this machine's local Maven repository less
 * {@code org/containerfs}, so nothing leaves the machine and no containerfs artifact comes from elsewhere than REPO.
 */
class SparkPackagesTest {
    static final String GROUP = "org/containerfs/";

    @Test
    void thePackageResolvesFromAFileRepositoryAndReadsTheCorpus() throws Exception {
        String version = System.getProperty("containerfs.version", "0.1.0-SNAPSHOT");
        Path dir = Path.of("target", "packages-test").toAbsolutePath();
        delete(dir);
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Path project = Path.of("").toAbsolutePath().getParent();
        install(repo, "containerfs-parent", version, project.resolve("pom.xml"), null);
        install(repo, "containerfs-provider", version, project.resolve("provider/pom.xml"), moduleJar(dir, "provider"));
        install(repo, "containerfs-hadoop", version, project.resolve("hadoop/pom.xml"), moduleJar(dir, "hadoop"));
        install(repo, "containerfs-spark_2.13", version, project.resolve("spark/pom.xml"),
                Path.of("target", "containerfs-spark_2.13-" + version + ".jar").toAbsolutePath());
        Path central = centralStandIn(dir.resolve("central"));

        try (SparkProcesses spark = new SparkProcesses(dir)) {
            Path out = dir.resolve("rows.txt");
            String coordinates = "org.containerfs:containerfs-spark_2.13:" + version;
            Process driver = spark.start("driver", SparkProcesses.java("512m",
                    List.of("-Duser.home=" + Files.createDirectories(dir.resolve("home"))),
                    "org.apache.spark.deploy.SparkSubmit", List.of(
                            "--master", "local[2]", "--name", "containerfs-packages-test",
                            "--packages", coordinates, "--repositories", repo.toUri().toString(),
                            "--conf", "spark.jars.ivy=" + dir.resolve("ivy"),
                            "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
                            "--conf", "spark.ui.enabled=false", "--conf", "spark.sql.shuffle.partitions=2",
                            "--class", ContainerRowsApp.class.getName(),
                            SparkProcesses.appJar(dir.resolve("app.jar"), "org/containerfs/spark/apps").toString(),
                            out.toString(), CorpusReadTest.corpus("lime").toString())),
                    Map.of("DEFAULT_ARTIFACT_REPOSITORY", central.toUri().toString()));
            assertThat(spark.waitFor(driver, Duration.ofSeconds(180))).as("the driver's exit code; its log:\n%s",
                    spark.tail(driver)).isZero();
            String log = spark.log(driver);
            for (String module : List.of("containerfs-spark_2.13", "containerfs-provider", "containerfs-hadoop")) {
                assertThat(log).contains("found org.containerfs#" + module + ";" + version + " in repo-1");
            }
            try (Stream<Path> jars = Files.list(dir.resolve("ivy").resolve("jars"))) {
                assertThat(jars.map(p -> p.getFileName().toString())).as("what --packages put on the class path")
                        .containsExactlyInAnyOrder("org.containerfs_containerfs-spark_2.13-" + version + ".jar",
                                "org.containerfs_containerfs-provider-" + version + ".jar",
                                "org.containerfs_containerfs-hadoop-" + version + ".jar");
            }
            List<String> expected = ContainerRowsApp.rows(SparkSessions.local2().read().format("containerfs")
                    .load(CorpusReadTest.corpus("lime").toString()));
            assertThat(expected).hasSizeGreaterThan(5);
            assertThat(Files.readAllLines(out).stream().filter(l -> l.startsWith("1 ")).map(l -> l.substring(2)).toList())
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /** The pom (and the jar, unless a pom-only module) where Maven's repository layout puts them. */
    static void install(Path repo, String artifactId, String version, Path pom, Path jar) throws IOException {
        Path d = Files.createDirectories(repo.resolve(GROUP + artifactId + "/" + version));
        Files.copy(pom, d.resolve(artifactId + "-" + version + ".pom"));
        if (jar != null) {
            Files.copy(jar, d.resolve(artifactId + "-" + version + ".jar"));
        }
    }

    /** The module's jar: as Maven resolved it for this test (a jar, or the reactor's class directory, jarred here). */
    static Path moduleJar(Path dir, String module) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String entry : classPath.split(Pattern.quote(File.pathSeparator))) {
            Path p = Path.of(entry).toAbsolutePath();
            if (p.getFileName().toString().matches("containerfs-" + module + "-[^-]+(-SNAPSHOT)?\\.jar")) {
                return p;
            }
            if (p.endsWith(Path.of(module, "target", "classes")) && Files.isDirectory(p)) {
                Path jar = dir.resolve(module + ".jar");
                try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o);
                        Stream<Path> files = Files.walk(p)) {
                    for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                        j.putNextEntry(new JarEntry(p.relativize(f).toString().replace(File.separatorChar, '/')));
                        j.write(Files.readAllBytes(f));
                        j.closeEntry();
                    }
                }
                return jar;
            }
        }
        throw new AssertionError("containerfs-" + module + " is not on the test class path: " + classPath);
    }

    /** Links to everything of the local Maven repository but org/containerfs (the third-party POMs the poms import). */
    static Path centralStandIn(Path standIn) throws IOException {
        Path m2 = Path.of(System.getProperty("containerfs.m2Repository",
                System.getProperty("user.home") + "/.m2/repository"));
        Files.createDirectories(standIn.resolve("org"));
        List<Path> links = new ArrayList<>();
        try (Stream<Path> top = Files.list(m2); Stream<Path> org = Files.list(m2.resolve("org"))) {
            top.filter(p -> !p.getFileName().toString().equals("org")).forEach(links::add);
            org.filter(p -> !p.getFileName().toString().equals("containerfs")).forEach(links::add);
        }
        for (Path target : links) {
            Files.createSymbolicLink(standIn.resolve(m2.relativize(target)), target);
        }
        return standIn;
    }

    static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> old = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) old.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(p);
                }
            }
        }
    }
}
