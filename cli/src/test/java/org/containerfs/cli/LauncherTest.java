package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The top-level {@code containerfs} script as a user runs it. {@code mvn test} builds the jar before the tests
 * (see cli/pom.xml), so the script finds it up to date and starts it directly.
 */
class LauncherTest {
    private static final Path ROOT = Corpus.repositoryRoot();

    @TempDir
    Path tmp;

    record Run(int status, String stdout, String stderr) {}

    private static Run launch(Path workingDirectory, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(concat(ROOT.resolve("containerfs").toString(), args))
                .directory(workingDirectory.toFile());
        pb.environment().putAll(env);
        Path out = Files.createTempFile("launcher", ".out");
        Path err = Files.createTempFile("launcher", ".err");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("the launcher did not finish");
            }
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static List<String> concat(String first, String... rest) {
        List<String> all = new java.util.ArrayList<>(List.of(first));
        all.addAll(List.of(rest));
        return all;
    }

    @Test
    void theLauncherListsASampleFromTheRepositoryRoot() throws Exception {
        Run r = launch(ROOT, Map.of(), "ls", "samples/lime/ildg.lime");

        assertThat(r.status()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("msg01/\nmsg02/\n");
    }

    @Test
    void theLauncherWorksFromAnyDirectoryAndPicksAJdkOfAtLeast22Itself() throws Exception {
        Path sample = Files.copy(ROOT.resolve("samples/lime/ildg.lime"), tmp.resolve("gauge.lime"));
        // a JAVA_HOME too old for the tool (the machine's default JDK 17, when present) must be passed over
        Path old = Path.of("/usr/lib/jvm/java-17-openjdk-amd64");
        Map<String, String> env = Files.isDirectory(old) ? Map.of("JAVA_HOME", old.toString()) : Map.of();

        Run r = launch(tmp, env, "verify", "gauge.lime");

        assertThat(r.status()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("gauge.lime: 2 directories, 8 files, 10422 bytes read, 0 failures: OK\n");
    }

    @Test
    void theFirstRunsMakeTheJvmCacheAndTheOutputStaysTheSame() throws Exception {
        Path cache = tmp.resolve("jvm-cache");
        Map<String, String> env = Map.of("CONTAINERFS_JVM_CACHE", cache.toString());
        String[] cat = {"cat", "samples/lime/ildg.lime", "msg01/rec01.scidac-private-file-xml"};
        Run plain = launch(ROOT, Map.of("CONTAINERFS_JVM_CACHE", "off"), cat);
        assertThat(plain.status()).as(plain.stderr()).isZero();
        assertThat(plain.stdout()).startsWith("<?xml");

        // JDK 24+: the first run records (the JVM's "AOTConfiguration recorded" must not reach standard output),
        // the second assembles the cache in the background; JDK 22-23: the first run writes a .jsa archive
        Run first = launch(ROOT, env, cat);
        assertThat(first).isEqualTo(plain);
        assertThat(names(cache)).anyMatch(n -> n.endsWith(".aotconf") || n.endsWith(".jsa"));
        Run second = launch(ROOT, env, cat);
        assertThat(second).isEqualTo(plain);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5); // a loaded machine: not a speed check
        while (names(cache).stream().noneMatch(n -> n.endsWith(".aot") || n.endsWith(".jsa"))
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(names(cache)).anyMatch(n -> n.endsWith(".aot") || n.endsWith(".jsa"));
        assertThat(launch(ROOT, env, cat)).isEqualTo(plain);
        assertPicocliComesFromTheAotCache(cache);
    }

    /**
     * picocli's classes, rewritten at build time (cli/src/build/ClassFileUpgrade.java), are in the AOT cache: the
     * JVM loads them from it, not from the jar; and so is a class that {@code verify} uses and the training run
     * ({@code cat}) did not (JsonReports: JvmCacheTraining loads every class of the tool as the recording run exits). Checked with this JVM when the cache was made for its version.
     */
    private static void assertPicocliComesFromTheAotCache(Path cache) throws IOException, InterruptedException {
        String version = Runtime.version().version().stream().map(String::valueOf).collect(Collectors.joining("."));
        Path aot = cache.resolve(names(cache).stream().filter(n -> n.endsWith("-cli-jdk" + version + ".aot"))
                .findFirst().orElse("none"));
        if (Runtime.version().feature() < 24 || !Files.isRegularFile(aot)) {
            return; // the launcher chose another JDK (or one without AOT caches): nothing to check with this one
        }
        String options = Files.readAllLines(Path.of(aot.toString().replace(".aot", ".options"))).get(0);
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(options.trim().split(" +")));
        command.addAll(List.of("-XX:AOTCache=" + aot, "-Xlog:class+load=info", "-Xlog:aot=off", "-Xlog:cds=off",
                "-jar", ROOT.resolve("cli/target/containerfs.jar").toString(), "verify", "samples/lime/ildg.lime"));
        Process p = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(log).isZero();
        for (String name : List.of("picocli.CommandLine", JsonReports.class.getName())) {
            assertThat(log.lines().filter(l -> l.contains(" " + name + " "))).as(log)
                    .singleElement().asString().contains("source: shared objects file");
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    @Test
    void theRunnableJarHoldsNoClassFileTheAotCacheWouldSkipWhenBuiltOnJdk24OrLater() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 24,
                "the build rewrites old class files on JDK 24+ only");
        List<String> old = new java.util.ArrayList<>();
        int picocli = 0;
        try (JarFile jar = new JarFile(ROOT.resolve("cli/target/containerfs.jar").toFile())) {
            for (var e : java.util.Collections.list(jar.entries())) {
                if (!e.getName().endsWith(".class")) {
                    continue;
                }
                picocli += e.getName().startsWith("picocli/") ? 1 : 0;
                byte[] head = jar.getInputStream(e).readNBytes(8);
                if (((head[6] & 0xff) << 8 | (head[7] & 0xff)) < 50) {
                    old.add(e.getName());
                }
            }
        }
        assertThat(picocli).as("picocli's classes in the jar").isGreaterThan(100);
        assertThat(old).as("class files before version 50 (Java 6)").isEmpty();
    }

    @Test
    void theRunnableJarRegistersEveryFormatProviderOfTheRepository() throws IOException {
        String service = "META-INF/services/java.nio.file.spi.FileSystemProvider";
        List<String> registered = Files.readAllLines(ROOT.resolve(service)).stream()
                .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();

        try (JarFile jar = new JarFile(ROOT.resolve("cli/target/containerfs.jar").toFile())) {
            String merged = new String(jar.getInputStream(jar.getEntry(service)).readAllBytes(), StandardCharsets.UTF_8);
            assertThat(merged.lines().map(String::trim)).containsAll(registered);
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo(Containerfs.class.getName());
        }
        assertThat(registered).isNotEmpty();
    }
}
