package org.containerfs.spark;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Spark JVMs of their own for the out-of-process tests (a standalone Master and Workers, a driver run through
 * {@code org.apache.spark.deploy.SparkSubmit}, as the {@code spark-submit} script runs it), all on 127.0.0.1.
 *
 * <p>They run from a Spark "installation" made of the test class path: {@code target/spark-home/jars} holds a
 * link to every jar of the test class path except the containerfs modules (and no class directory), the layout
 * of a Spark distribution, so the executors a Worker starts get exactly that class path ({@code SPARK_HOME/jars/*})
 * and find the data source only in what the application ships. Every process started here is ended by
 * {@link #close()} (its descendants first: a Worker's executors), and by a shutdown hook if the test JVM ends
 * first. Output goes to a log file per process, shown in a failure's message.
 */
final class SparkProcesses implements AutoCloseable {
    private static Path sparkHome;

    final Path dir;
    private final List<Process> processes = new ArrayList<>();
    private final Map<Process, Path> logs = new HashMap<>();
    private final Thread hook = new Thread(this::stopAll, "spark-processes-stop");

    SparkProcesses(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** target/spark-home: jars/ links every non-containerfs jar of the test class path (made once per JVM). */
    static synchronized Path sparkHome() throws IOException {
        if (sparkHome != null) {
            return sparkHome;
        }
        Path home = Path.of("target", "spark-home").toAbsolutePath();
        Path jars = home.resolve("jars");
        if (Files.exists(jars)) {
            try (Stream<Path> old = Files.list(jars)) {
                for (Path link : (Iterable<Path>) old::iterator) {
                    Files.delete(link);
                }
            }
        }
        Files.createDirectories(jars);
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        int n = 0;
        for (String entry : classPath.split(Pattern.quote(File.pathSeparator))) {
            Path jar = Path.of(entry);
            String name = jar.getFileName().toString();
            if (!name.endsWith(".jar") || name.startsWith("containerfs-") || !Files.isRegularFile(jar)) {
                continue;
            }
            Path link = jars.resolve(name);
            if (Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                link = jars.resolve((n++) + "-" + name);
            }
            Files.createSymbolicLink(link, jar.toAbsolutePath());
        }
        sparkHome = home;
        return home;
    }

    /** The JVM options Spark 4 needs on Java 17+ (the ones this test JVM was started with). */
    static List<String> moduleOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens") || a.equals("-XX:+IgnoreUnrecognizedVMOptions")
                        || a.startsWith("-Djdk.reflect.") || a.startsWith("-Dio.netty."))
                .toList();
    }

    /** {@code java} of this JVM's runtime, the options Spark needs, the heap, the index cache off, SPARK_HOME/jars/*. */
    static List<String> java(String heap, String mainClass, List<String> args) throws IOException {
        return java(heap, List.of(), mainClass, args);
    }

    static List<String> java(String heap, List<String> jvmOptions, String mainClass, List<String> args)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heap);
        // small short-lived JVMs on a shared machine: quick start, few threads
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-XX:+UseSerialGC");
        cmd.addAll(moduleOptions());
        cmd.add("-Dcontainerfs.indexCache=off");
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(sparkHome().resolve("jars") + File.separator + "*");
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /** Starts a process with Spark's environment (SPARK_HOME, 127.0.0.1, this JVM's Java) plus {@code env}. */
    Process start(String name, List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        Map<String, String> e = pb.environment();
        for (String inherited : List.of("SPARK_CONF_DIR", "SPARK_DIST_CLASSPATH", "HADOOP_CONF_DIR", "YARN_CONF_DIR",
                "SPARK_TESTING", "SPARK_JAVA_OPTS", "SPARK_SUBMIT_OPTS", "SPARK_PREPEND_CLASSES")) {
            e.remove(inherited);
        }
        e.put("SPARK_HOME", sparkHome().toString());
        e.put("SPARK_SCALA_VERSION", "2.13");
        e.put("SPARK_LOCAL_IP", "127.0.0.1");
        e.put("SPARK_LOCAL_HOSTNAME", "127.0.0.1");
        e.put("JAVA_HOME", System.getProperty("java.home"));
        e.putAll(env);
        Path log = dir.resolve(name + ".log");
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        Process p = pb.start();
        synchronized (this) {
            processes.add(p);
            logs.put(p, log);
        }
        return p;
    }

    /** A port free on 127.0.0.1 now (for a Master the Workers are started beside, not after). */
    static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Waits until the process's log has a line matching {@code line}; its first group. Fails if it exits first. */
    String await(Process p, Pattern line, Duration timeout) throws IOException, InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            Matcher m = line.matcher(Files.readString(logs.get(p), StandardCharsets.UTF_8));
            if (m.find()) {
                return m.groupCount() > 0 ? m.group(1) : m.group();
            }
            if (!p.isAlive()) {
                throw new AssertionError("exited (" + p.exitValue() + ") before printing " + line + ":\n" + tail(p));
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("no " + line + " within " + timeout + ":\n" + tail(p));
            }
            Thread.sleep(100);
        }
    }

    /** Waits for the process to end; its exit code (an AssertionError with its log if it runs past the timeout). */
    int waitFor(Process p, Duration timeout) throws IOException, InterruptedException {
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("still running after " + timeout + ":\n" + tail(p));
        }
        return p.exitValue();
    }

    /** The last 60 lines of the process's log. */
    String tail(Process p) throws IOException {
        List<String> lines = Files.readAllLines(logs.get(p), StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    String log(Process p) throws IOException {
        return Files.readString(logs.get(p), StandardCharsets.UTF_8);
    }

    /** A jar of the test classes in {@code packageDir} (e.g. org/containerfs/spark/apps): an application jar. */
    static Path appJar(Path jar, String packageDir) throws IOException {
        Path classes = Path.of("target", "test-classes").toAbsolutePath();
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
                Stream<Path> files = Files.list(classes.resolve(packageDir))) {
            for (Path c : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                j.putNextEntry(new JarEntry(packageDir + "/" + c.getFileName()));
                j.write(Files.readAllBytes(c));
                j.closeEntry();
            }
        }
        return jar;
    }

    private void stopAll() {
        List<Process> all;
        synchronized (this) {
            all = new ArrayList<>(processes);
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            Process p = all.get(i);
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : all) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
