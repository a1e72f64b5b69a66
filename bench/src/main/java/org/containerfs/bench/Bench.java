package org.containerfs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The benchmark harness ({@code bench/run}): runs every registered scenario, prints one table
 * (scenario, containerfs, baseline, ratio, target, result), and writes it as Markdown with a PNG chart
 * of the scaling scenarios.
 *
 * <pre>java -jar bench/target/benchmarks.jar [--quick] [--only NAME[,NAME]] [--out DIR] [--work DIR]</pre>
 */
public final class Bench {
    private Bench() {}

    public static void main(String[] args) throws Exception {
        // Opens measure the scan: the persisted index cache is off unless a row asks for it (scenario 3's reopen).
        System.setProperty("containerfs.indexCache", "off");
        boolean quick = false;
        List<String> only = new ArrayList<>();
        Path out = Path.of("bench", "results");
        Path workParent = Path.of(System.getProperty("java.io.tmpdir"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--only" -> only.addAll(List.of(args[++i].split(",")));
                case "--out" -> out = Path.of(args[++i]);
                case "--work" -> workParent = Path.of(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("usage: bench/run [--quick] [--only NAME[,NAME]] [--out DIR] [--work DIR]");
                    System.out.println("scenario sets: " + Scenarios.ALL.stream().map(FormatScenarios::name).toList());
                    return;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (try --help)");
            }
        }
        Instant start = Instant.now();
        String loadBefore = loadAverage();
        Path work = Files.createTempDirectory(Files.createDirectories(workParent), "containerfs-bench-");
        Context context = new Context(quick, work);
        List<Row> rows = new ArrayList<>();
        try {
            for (FormatScenarios set : Scenarios.ALL) {
                if (!only.isEmpty() && !only.contains(set.name())) {
                    continue;
                }
                String why = set.unavailableBecause();
                if (why != null) {
                    Context.log("%s: skipped (%s)", set.name(), why);
                    set.titles().forEach(t -> rows.add(Row.skipped(t, why)));
                    continue;
                }
                Context.log("%s: running (%s)", set.name(), quick ? "quick" : "full");
                rows.addAll(set.run(context));
            }
        } finally {
            deleteTree(work);
        }
        Duration took = Duration.between(start, Instant.now());
        String table = Table.text(rows);
        System.out.println();
        System.out.print(table);
        long fails = rows.stream().filter(r -> r.verdict() == Row.Verdict.FAIL).count();
        long passes = rows.stream().filter(r -> r.verdict() == Row.Verdict.PASS).count();
        long noisy = rows.stream().filter(r -> r.verdict() == Row.Verdict.NOISY).count();
        System.out.printf("%d targets met, %d missed, %d noisy; %s run took %d s; load average %s at the start, %s at "
                + "the end%n", passes, fails, noisy, quick ? "quick" : "full", took.toSeconds(), loadBefore, loadAverage());

        Files.createDirectories(out);
        String stem = LocalDate.now(ZoneOffset.UTC) + (quick ? "-quick" : "");
        Path chart = out.resolve(stem + "-scaling.png");
        boolean charted = !context.scalingPoints().isEmpty();
        if (charted) {
            Chart.write(context.scalingPoints(), chart);
        }
        Path coresChart = out.resolve(stem + "-spark-cores.png");
        boolean coresCharted = !context.coresPoints().isEmpty();
        if (coresCharted) {
            Chart.writeCores(context.coresPoints(), coresChart);
        }
        String markdown = Table.markdown(rows, stem, quick, only, took, loadBefore, loadAverage(),
                charted ? chart.getFileName().toString() : null,
                coresCharted ? coresChart.getFileName().toString() : null);
        Path md = out.resolve(stem + ".md");
        Files.writeString(md, markdown, StandardCharsets.UTF_8);
        System.out.println("wrote " + md + (charted ? " and " + chart : "") + (coresCharted ? " and " + coresChart : ""));
    }

    static String loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "n/a" : String.format("%.2f", load);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
