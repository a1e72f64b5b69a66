package org.containerfs.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 10: the records of many containers as Spark rows. {@code spark.read.format("containerfs")} with
 * local[1] and local[2] against a single-thread walk of the same containers through the provider, and a
 * listing against Spark's {@code binaryFile} with content (what users read to get at records today). The
 * measuring runs in a child JVM ({@link SparkBench}) with Spark on its class path, which bench/run builds
 * and passes as {@code -Dcontainerfs.sparkClasspath}. Also: each query shape through column batches and
 * through rows (the session setting {@code spark.containerfs.columnar}), and the floors under the listing (an empty job of as
 * many tasks, every index listed with no row passing, {@code binaryFile} without content). 10h and 10i
 * ({@link SparkListingBench}): many small containers in partition directories, listed against {@code binaryFile}
 * without content, and a query pruned to one partition with the containers it opened counted.
 * {@code -Dcontainerfs.spark.only=listing} runs only those, {@code -Dcontainerfs.spark.listing=N} sets their N.
 */
final class SparkScenarios implements FormatScenarios {
    static final int RECORD_BYTES = 1024;

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public String unavailableBecause() {
        String missing = Formats.missing("lime");
        if (missing != null) {
            return missing;
        }
        return System.getProperty("containerfs.sparkClasspath") == null
                ? "no Spark class path (bench/run builds it when spark is selected)" : null;
    }

    @Override
    public List<String> titles() {
        return List.of("10a count()", "10b listing", "10c sha2(content)", "10d 1 -> 2 cores", "10e listing vs binaryFile",
                "10f batches vs rows", "10g listing floors", "10h listing of many containers vs binaryFile",
                "10i partition pruning");
    }

    @Override
    public List<Row> run(Context context) throws Exception {
        List<Row> rows = new ArrayList<>();
        // -Dcontainerfs.spark.only=listing: only 10h and 10i
        if (!"listing".equals(System.getProperty("containerfs.spark.only"))) {
            rows.addAll(records(context));
        }
        rows.addAll(listing(context));
        return rows;
    }

    /**
     * 10h and 10i: N small containers (10,000, --quick 1,000, or -Dcontainerfs.spark.listing=N) in N/10 partition
     * directories beta=…/L=…, written once and kept under the temporary directory for later runs.
     */
    private static List<Row> listing(Context context) throws Exception {
        int n = Integer.getInteger("containerfs.spark.listing", (int) context.size(10_000, 1_000));
        Path tree = Path.of(System.getProperty("java.io.tmpdir"), "containerfs-spark-listing-" + n);
        Context.log("scenario 10h: %d LIME containers of 4 records of 256 B in %d directories beta=…/L=… under %s", n,
                n / 10, tree);
        SparkListingBench.write(tree, n);
        Path link = Path.of(tree + "-link");
        if (!Files.isSymbolicLink(link)) {
            Files.createSymbolicLink(link, tree);
        }
        int d = n / 10 / 2;
        String beta = SparkListingBench.beta(d);
        String l = SparkListingBench.l(d);
        Map<String, List<Double>> opened = new LinkedHashMap<>();
        Map<String, List<Double>> times = child(SparkListingBench.class, List.of(tree.toString(), link.toString(),
                String.valueOf(context.quick() ? 3 : 5), beta, l), opened);
        List<Row> rows = new ArrayList<>();
        String what = String.format("%,d containers in %,d partition directories", n, n / 10);
        double firstOurs = median(times.get("first containerfs count"));
        double firstTheirs = median(times.get("first binaryFile listing"));
        rows.add(new Row("10h count() of " + what + " vs binaryFile without content (path, length), first (s)",
                String.format("%.2f s", firstOurs), String.format("%.2f s", firstTheirs),
                String.format("%.2f", firstOurs / firstTheirs), "<= 1.0", Row.atMost(firstOurs / firstTheirs, 1.0)));
        double againOurs = median(times.get("again containerfs count"));
        double againTheirs = median(times.get("again binaryFile listing"));
        rows.add(new Row("10h count() of " + what + " vs binaryFile without content, again (caches warm; s)",
                String.format("%.2f s", againOurs), String.format("%.2f s", againTheirs),
                String.format("%.2f", againOurs / againTheirs), "<= 1.0", Row.atMost(againOurs / againTheirs, 1.0)));
        double againListing = median(times.get("again containerfs listing"));
        rows.add(new Row("10h listing query (records' size, path, container) of " + what
                + " vs binaryFile without content, again (s)", String.format("%.2f s", againListing),
                String.format("%.2f s", againTheirs), String.format("%.2f", againListing / againTheirs), "<= 1.0",
                Row.atMost(againListing / againTheirs, 1.0)));
        double opens = median(opened.get("again pruned count"));
        rows.add(new Row("10i count() where beta and L name one partition of " + n / 10 + " (s first | again;"
                + " containers opened: first | again | listing query)",
                String.format("%.2f | %.2f s; %.0f | %.0f | %.0f opened", median(times.get("first pruned count")),
                        median(times.get("again pruned count")), median(opened.get("first pruned count")), opens,
                        median(opened.get("again pruned listing"))),
                String.format("listing again %.2f s", median(times.get("again pruned listing"))), "",
                "10 opened", opens == 10 && median(opened.get("first pruned count")) == 10 ? Row.Verdict.PASS
                : Row.Verdict.FAIL));
        return rows;
    }

    private static List<Row> records(Context context) throws Exception {
        int containers = (int) context.size(1000, 100);
        int records = 1000;
        Path dir = Files.createDirectories(context.workDir().resolve("spark"));
        Context.log("scenario 10: writing %d LIME containers of %d records of %d bytes", containers, records, RECORD_BYTES);
        for (int i = 0; i < containers; i++) {
            LimeInputs.records(dir.resolve(String.format("c%05d.lime", i)), records, RECORD_BYTES, i);
        }
        long total = (long) containers * records;
        Map<String, List<Double>> times = child(SparkBench.class, List.of(dir.toString(),
                String.valueOf(context.quick() ? 2 : 3), String.valueOf(total)), new LinkedHashMap<>());

        double walkCount = rate(times, "walk count", total);
        double walkList = rate(times, "walk listing", total);
        double walkSha = rate(times, "walk sha2", total);
        for (String query : List.of("count", "listing", "sha2")) {
            String title = query.equals("sha2") ? "sha2(content)" : query.equals("count") ? "count()" : "listing";
            context.cores(title, 0, rate(times, "walk " + query, total));
            for (int cores : new int[] {1, 2}) {
                context.cores(title, cores, rate(times, "local[" + cores + "] " + query, total));
            }
        }
        List<Row> rows = new ArrayList<>();
        String sizes = String.format("%d containers x %d records of %d B", containers, records, RECORD_BYTES);
        rows.add(versus("10a count() of " + sizes + ": local[2] vs a single-thread walk (records/s)",
                rate(times, "local[2] count", total), walkCount, rate(times, "local[1] count", total), 0, false));
        rows.add(versus("10b listing (path, size, container) of " + sizes + ": local[2] vs the walk (records/s)",
                rate(times, "local[2] listing", total), walkList, rate(times, "local[1] listing", total), 0, false));
        rows.add(versus("10c sha2(content) of " + sizes + ": local[2] vs the walk (records/s)",
                rate(times, "local[2] sha2", total), walkSha, rate(times, "local[1] sha2", total), 1.0, true));
        double one = rate(times, "local[1] sha2", total);
        double two = rate(times, "local[2] sha2", total);
        rows.add(new Row("10d sha2(content): local[2] vs local[1] (records/s)", String.format("%.0f", two),
                String.format("%.0f", one), String.format("%.2f", two / one), ">= 1.6",
                Row.atLeast(two / one, 1.6)));
        double listing = median(times.get("local[2] listing"));
        double binary = median(times.get("local[2] binaryFile"));
        rows.add(new Row("10e listing query vs binaryFile with content, both local[2] (s)", String.format("%.2f s", listing),
                String.format("%.2f s", binary), String.format("%.1f", binary / listing), ">= 10",
                Row.atLeast(binary / listing, 10)));
        for (String shape : List.of("count", "listing", "attributes", "sha2")) {
            rows.add(new Row("10f " + shape + ": column batches vs rows, both local[2] (s; ratio: median of each round's rows/batches)",
                    String.format("%.2f s", median(times.get("local[2] " + shape + " batches"))),
                    String.format("%.2f s", median(times.get("local[2] " + shape + " rows"))),
                    String.format("%.2f", perRound(times, "local[2] " + shape + " rows", "local[2] " + shape + " batches")),
                    "", Row.Verdict.INFO));
        }
        rows.add(new Row("10g listing floors, local[2] (s): an empty job of as many tasks | every index listed, no row"
                + " | binaryFile without content", String.format("%.3f | %.3f | %.3f s", median(times.get("local[2] empty job")),
                        median(times.get("local[2] indexes only")), median(times.get("local[2] binaryFile listing"))),
                String.format("%.2f s", listing), "", "", Row.Verdict.INFO));
        return rows;
    }

    /** The median over rounds of {@code numerator}'s time divided by {@code denominator}'s in the same round. */
    private static double perRound(Map<String, List<Double>> times, String numerator, String denominator) {
        List<Double> a = times.get(numerator);
        List<Double> b = times.get(denominator);
        double[] ratios = new double[Math.min(a.size(), b.size())];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = a.get(i) / b.get(i);
        }
        return Context.median(ratios);
    }

    private static Row versus(String title, double ours, double walk, double oneCore, double target, boolean judged) {
        double ratio = ours / walk;
        return new Row(title, String.format("%.0f (local[1] %.0f)", ours, oneCore), String.format("%.0f", walk),
                String.format("%.2f", ratio), judged ? ">= " + target : "", judged ? Row.atLeast(ratio, target)
                : Row.Verdict.INFO);
    }

    private static double rate(Map<String, List<Double>> times, String variant, long records) {
        return records / median(times.get(variant));
    }

    private static double median(List<Double> values) {
        if (values == null || values.isEmpty()) {
            throw new IllegalStateException("no measurement in the Spark run");
        }
        return Context.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * Runs {@code main} ({@link SparkBench}, {@link SparkListingBench}) in a child JVM; returns its times per variant
     * and puts its counts of opened containers into {@code opened}.
     */
    private static Map<String, List<Double>> child(Class<?> main, List<String> args, Map<String, List<Double>> opened)
            throws Exception {
        String classPath = System.getProperty("containerfs.sparkClasspath") + java.io.File.pathSeparator
                + Path.of(SparkScenarios.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx3g", "-XX:+UseG1GC"));
        command.addAll(List.of(SPARK_JVM_FLAGS.split(" ")));
        command.addAll(List.of("-cp", classPath, main.getName()));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Map<String, List<Double>> times = new LinkedHashMap<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("TIME ")) {
                    String[] f = line.substring(5).split("\\|");
                    times.computeIfAbsent(f[0], k -> new ArrayList<>()).add(Double.parseDouble(f[1]));
                    Context.log("  %s: %s s (%s rows, %s s CPU)", f[0], f[1], f[2], f[3]);
                } else if (line.startsWith("OPENED ")) {
                    String[] f = line.substring(7).split("\\|");
                    opened.computeIfAbsent(f[0], k -> new ArrayList<>()).add(Double.parseDouble(f[1]));
                    Context.log("  %s: %s containers opened", f[0], f[1]);
                }
            }
        }
        if (p.waitFor() != 0) {
            throw new IllegalStateException("the Spark bench JVM failed (exit " + p.exitValue() + ")");
        }
        return times;
    }

    /** What Spark 4 needs opened on Java 17+ (the flags its launcher passes). */
    static final String SPARK_JVM_FLAGS = "--add-opens=java.base/java.lang=ALL-UNNAMED "
            + "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED "
            + "--add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED "
            + "--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED "
            + "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED "
            + "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED "
            + "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED "
            + "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED --add-opens=java.base/sun.security.action=ALL-UNNAMED "
            + "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED -Djdk.reflect.useDirectMethodHandle=false "
            + "-Dio.netty.tryReflectionSetAccessible=true --sun-misc-unsafe-memory-access=allow";
}
