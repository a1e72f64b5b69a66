package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
     * ({@code cat}) did not (JsonReports: AotTraining loads every class of the tool as the recording run ends). Checked with this JVM when the cache was made for its version.
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

    /**
     * The first run of a kind records the classes it used and the cache of every later run is made from that record:
     * a run that did not do its command's work records too little. {@code containerfs mount --help} as the first
     * mount after a build made a mount cache of 15.7 MB instead of 22.4 MB, which left 609 of the JDK's classes to
     * be loaded from the JDK at every mount (fuse-mount/README.md, "Start-up, second pass").
     */
    @Test
    void aRunThatDidNotDoItsCommandsWorkLeavesNoRecordToMakeTheCacheFrom() throws Exception {
        assumeTrue(Runtime.version().feature() >= 24, "the AOT cache needs JDK 24+ (the launcher is given this JDK)");
        Path cache = tmp.resolve("jvm-cache");
        Map<String, String> env = Map.of("CONTAINERFS_JVM_CACHE", cache.toString(),
                "JAVA_HOME", System.getProperty("java.home"));

        Run help = launch(ROOT, env, "mount", "--help");
        assertThat(help.status()).as(help.stderr()).isZero();
        assertThat(help.stdout()).contains("Usage: containerfs mount");
        assertThat(records(cache)).as("the record of mount --help").isEmpty();

        Run failed = launch(ROOT, env, "mount", tmp.resolve("missing.lime").toString(), tmp.toString());
        assertThat(failed.status()).as(failed.stderr()).isNotZero();
        assertThat(records(cache)).as("the record of a mount that failed").isEmpty();

        // a run that did its work keeps its record (the other kind: no FUSE needed)
        Run ls = launch(ROOT, env, "ls", "samples/lime/ildg.lime");
        assertThat(ls.status()).as(ls.stderr()).isZero();
        assertThat(records(cache)).singleElement().satisfies(r -> {
            assertThat(r.getFileName().toString()).contains("-cli-");
            assertThat(Files.size(r)).isPositive();
        });
    }

    /** The other side: a mount that was made and unmounted keeps its record (the mount kind's cache is made from it). */
    @Test
    void aMountThatWasMadeKeepsItsRecord() throws Exception {
        assumeTrue(Runtime.version().feature() >= 24, "the AOT cache needs JDK 24+ (the launcher is given this JDK)");
        assumeTrue(Files.exists(Path.of("/dev/fuse")), "no FUSE on this machine");
        Path cache = tmp.resolve("jvm-cache");
        Path mountPoint = Files.createDirectories(tmp.resolve("mnt"));
        ProcessBuilder pb = new ProcessBuilder(ROOT.resolve("containerfs").toString(), "mount", "-q",
                "samples/lime/ildg.lime", mountPoint.toString()).directory(ROOT.toFile())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("mount.out").toFile());
        pb.environment().put("CONTAINERFS_JVM_CACHE", cache.toString());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5); // a loaded machine: not a speed check
            while (!mounted(mountPoint) && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(mounted(mountPoint)).as(Files.readString(tmp.resolve("mount.out"))).isTrue();
            assertThat(Files.exists(mountPoint.resolve("msg01"))).isTrue();
        } finally {
            new ProcessBuilder("fusermount3", "-u", mountPoint.toString()).start().waitFor(1, TimeUnit.MINUTES);
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                new ProcessBuilder("fusermount3", "-u", "-z", mountPoint.toString()).start().waitFor(1, TimeUnit.MINUTES);
            }
        }

        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("mount.out"))).isZero();
        assertThat(records(cache)).singleElement().satisfies(r -> {
            assertThat(r.getFileName().toString()).contains("-mount-");
            assertThat(Files.size(r)).isPositive();
        });
    }

    private static boolean mounted(Path mountPoint) throws IOException {
        String target = " " + mountPoint.toAbsolutePath().normalize() + " ";
        return Files.readAllLines(Path.of("/proc/self/mountinfo")).stream().anyMatch(l -> l.contains(target));
    }

    private static List<Path> records(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().contains(".aotconf")).toList();
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
