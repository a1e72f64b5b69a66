package org.containerfs.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.annotations.Mode;

import java.util.concurrent.TimeUnit;

/**
 * What a scenario needs from the harness: where to put inputs, how big to make them (quick or full),
 * how many warm-ups and measurements, and the two ways to measure containerfs and its baseline
 * interleaved (in JMH forks, or in this process).
 */
public final class Context {
    /** One point of a scaling chart: per-record time and heap at one record count. */
    public record ScalingPoint(String series, long records, double nanosPerRecord, double bytesPerRecord) {}

    private final boolean quick;
    private final Path workDir;
    private final List<ScalingPoint> scaling = new ArrayList<>();

    /**
     * One point of the cores chart: a query's records per second with {@code cores} Spark cores; cores 0 marks the
     * single-thread walk through the provider that the query is compared with.
     */
    public record CoresPoint(String query, int cores, double recordsPerSecond) {}

    private final List<CoresPoint> cores = new ArrayList<>();

    Context(boolean quick, Path workDir) {
        this.quick = quick;
        this.workDir = workDir;
    }

    public boolean quick() {
        return quick;
    }

    /** A temporary directory the harness deletes at the end (inputs live here, never in the repository). */
    public Path workDir() {
        return workDir;
    }

    /** Picks the full-run or the quick-run value. */
    public long size(long full, long quickValue) {
        return quick ? quickValue : full;
    }

    /**
     * Rounds of interleaved measurement: each round measures every variant once, in rotated order.
     * Five in a full run: with three, one slow round on this shared 2-core machine moved a 1 GiB
     * read's ratio between 0.87 and 1.15 from run to run (the median of five rounds tolerates two).
     */
    public int rounds() {
        return quick ? 2 : 5;
    }

    /** Warm-up invocations before measuring: the provider's read path must be compiled (JIT) first. */
    public int warmups() {
        return 3;
    }

    /** Measurements of each variant per round. */
    public int measurements() {
        return 3;
    }

    public void scaling(String series, long records, double nanosPerRecord, double bytesPerRecord) {
        scaling.add(new ScalingPoint(series, records, nanosPerRecord, bytesPerRecord));
    }

    List<ScalingPoint> scalingPoints() {
        return scaling;
    }

    public void cores(String query, int cores, double recordsPerSecond) {
        this.cores.add(new CoresPoint(query, cores, recordsPerSecond));
    }

    List<CoresPoint> coresPoints() {
        return cores;
    }

    public static void log(String format, Object... args) {
        System.err.printf("[bench] " + format + "%n", args);
    }

    /**
     * Runs the JMH benchmark methods {@code methods} of {@code benchmarkClass} (each a single-shot
     * operation) interleaved: in every round each method gets its own fork with {@link #warmups()}
     * warm-up and {@link #measurements()} measured invocations, the methods' order rotating from round
     * to round. Returns, per method, every measured invocation's time in seconds.
     */
    public Map<String, double[]> jmh(Class<?> benchmarkClass, List<String> methods, Map<String, String> params,
            String... jvmArgs) throws RunnerException {
        return jmh(benchmarkClass, methods, params, 1, jvmArgs);
    }

    /**
     * As {@link #jmh(Class, List, Map, String...)}, with {@code warmupBatch} invocations per warm-up
     * iteration: read scenarios whose quick inputs are k times smaller warm up k times as often, so
     * the JIT has compiled the provider's read path as in a full run (benchmarks with per-iteration
     * set-up, such as appends to a fresh file, must keep 1).
     */
    public Map<String, double[]> jmh(Class<?> benchmarkClass, List<String> methods, Map<String, String> params,
            int warmupBatch, String... jvmArgs) throws RunnerException {
        Map<String, List<Double>> times = new LinkedHashMap<>();
        for (String m : methods) {
            times.put(m, new ArrayList<>());
        }
        for (int round = 0; round < rounds(); round++) {
            for (int k = 0; k < methods.size(); k++) {
                String method = methods.get((k + round) % methods.size());
                ChainedOptionsBuilder options = new OptionsBuilder()
                        .include("^" + Pattern.quote(benchmarkClass.getName() + "." + method) + "$")
                        .mode(Mode.SingleShotTime)
                        .timeUnit(TimeUnit.NANOSECONDS)
                        .forks(1)
                        .warmupIterations(warmups())
                        .warmupBatchSize(warmupBatch)
                        .measurementIterations(measurements())
                        .measurementBatchSize(1)
                        .timeout(TimeValue.minutes(10))
                        .jvmArgsAppend(jvmArgs)
                        .shouldFailOnError(true)
                        .verbosity(VerboseMode.SILENT);
                params.forEach(options::param);
                Collection<RunResult> results = new Runner(options.build()).run();
                for (RunResult result : results) {
                    for (BenchmarkResult b : result.getBenchmarkResults()) {
                        for (IterationResult it : b.getIterationResults()) {
                            times.get(method).add(it.getPrimaryResult().getScore() / 1e9);
                        }
                    }
                }
                log("  round %d/%d %s: %s s", round + 1, rounds(), method, format(times.get(method)));
            }
        }
        Map<String, double[]> out = new LinkedHashMap<>();
        times.forEach((m, list) -> out.put(m, list.stream().mapToDouble(Double::doubleValue).toArray()));
        return out;
    }

    /** A measured action of an in-process comparison. */
    @FunctionalInterface
    public interface Action {
        void run() throws Exception;
    }

    /** A measured action that reports its own time in seconds (e.g. the copy time a tool prints). */
    @FunctionalInterface
    public interface SelfTimed {
        double seconds() throws Exception;
    }

    /**
     * Interleaves actions in this process: {@link #warmups()} warm-ups of each, then rounds in which
     * every action is timed {@link #measurements()} times, order rotating. For figures that JMH cannot
     * give (retained heap) or whose baseline runs in another program. Returns seconds per action.
     */
    public Map<String, double[]> inProcess(Map<String, Action> actions) throws Exception {
        Map<String, SelfTimed> timed = new LinkedHashMap<>();
        actions.forEach((name, action) -> timed.put(name, () -> {
            long t0 = System.nanoTime();
            action.run();
            return (System.nanoTime() - t0) / 1e9;
        }));
        return interleaved(timed);
    }

    /** {@link #inProcess}'s schedule for actions that time themselves. Returns seconds per action. */
    public Map<String, double[]> interleaved(Map<String, SelfTimed> actions) throws Exception {
        List<String> names = new ArrayList<>(actions.keySet());
        for (int w = 0; w < warmups(); w++) {
            for (String n : names) {
                actions.get(n).seconds();
            }
        }
        Map<String, List<Double>> times = new LinkedHashMap<>();
        names.forEach(n -> times.put(n, new ArrayList<>()));
        for (int round = 0; round < rounds(); round++) {
            for (int i = 0; i < measurements(); i++) {
                for (int k = 0; k < names.size(); k++) {
                    String n = names.get((k + round + i) % names.size());
                    times.get(n).add(actions.get(n).seconds());
                }
            }
        }
        Map<String, double[]> out = new LinkedHashMap<>();
        times.forEach((m, list) -> out.put(m, list.stream().mapToDouble(Double::doubleValue).toArray()));
        return out;
    }

    /**
     * The speed ratio of containerfs to its baseline from times measured in alternating rounds of
     * {@code perRound} measurements each: per round, median baseline time / median containerfs
     * time; then the median over rounds. Pairing by round cancels the machine's load drifting during
     * the run (a pooled median would not).
     */
    public static double pairedRatio(double[] baselineTimes, double[] containerfsTimes, int perRound) {
        int rounds = Math.min(baselineTimes.length, containerfsTimes.length) / perRound;
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            double base = median(Arrays.copyOfRange(baselineTimes, r * perRound, (r + 1) * perRound));
            double ours = median(Arrays.copyOfRange(containerfsTimes, r * perRound, (r + 1) * perRound));
            ratios[r] = base / ours;
        }
        return median(ratios);
    }

    /**
     * Whether the two summaries of the same measurements point different ways: the median of per-round
     * ratios ({@link #pairedRatio}) on one side of 1, the ratio of the medians of all measurements on
     * the other (e.g. 484 MiB/s vs 677 MiB/s printed with a ratio of 1.237). Such a row cannot be judged.
     */
    public static boolean directionsDisagree(double[] baselineTimes, double[] containerfsTimes, int perRound) {
        double paired = pairedRatio(baselineTimes, containerfsTimes, perRound);
        double ofMedians = median(baselineTimes) / median(containerfsTimes);
        return (paired - 1) * (ofMedians - 1) < 0;
    }

    public static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String format(List<Double> values) {
        StringBuilder sb = new StringBuilder();
        for (double v : values) {
            sb.append(sb.length() == 0 ? "" : " ").append(String.format("%.3f", v));
        }
        return sb.toString();
    }
}
