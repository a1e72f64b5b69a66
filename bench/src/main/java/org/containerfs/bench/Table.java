package org.containerfs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** The results table as aligned text (terminal) and as Markdown (bench/results). */
final class Table {
    private static final String[] HEADER = {"scenario", "containerfs", "baseline", "ratio", "target", "result"};

    private Table() {}

    static String text(List<Row> rows) {
        int[] width = new int[HEADER.length];
        for (int i = 0; i < HEADER.length; i++) {
            width[i] = HEADER[i].length();
        }
        for (Row r : rows) {
            String[] cells = cells(r);
            for (int i = 0; i < cells.length; i++) {
                width[i] = Math.max(width[i], cells[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, HEADER, width);
        StringBuilder rule = new StringBuilder();
        for (int w : width) {
            rule.append("-".repeat(w)).append("  ");
        }
        sb.append(rule.toString().strip()).append('\n');
        for (Row r : rows) {
            line(sb, cells(r), width);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String[] cells, int[] width) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            l.append(cells[i]).append(" ".repeat(width[i] - cells[i].length() + 2));
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }

    private static String[] cells(Row r) {
        return new String[] {r.scenario(), r.containerfs(), r.baseline(), r.ratio(), r.target(), r.verdict().name()};
    }

    static String markdown(List<Row> rows, String stem, boolean quick, List<String> only, Duration took,
            String loadBefore, String loadAfter, String chartFile, String coresChartFile) {
        StringBuilder sb = new StringBuilder();
        sb.append("# containerfs benchmarks, ").append(stem).append("\n\n");
        String sets = only.isEmpty() ? "" : " --only " + String.join(",", only);
        sb.append("Command: `bench/run").append(quick ? " --quick" : "").append(sets).append("` (")
                .append(quick ? "quick run: smaller inputs, fewer rounds" : "full inputs and rounds")
                .append(only.isEmpty() ? ", every scenario" : ", only these scenarios").append("), finished ")
                .append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(" in ").append(took.toSeconds())
                .append(" s.\n\n");
        sb.append("Machine: ").append(machine()).append("; load average ").append(loadBefore).append(" at the start, ")
                .append(loadAfter).append(" at the end.\n\n");
        sb.append("| ");
        sb.append(String.join(" | ", HEADER)).append(" |\n|");
        sb.append("---|".repeat(HEADER.length)).append('\n');
        for (Row r : rows) {
            sb.append("| ");
            String[] cells = cells(r);
            for (int i = 0; i < cells.length; i++) {
                sb.append(cells[i].replace("|", "\\|")).append(i + 1 < cells.length ? " | " : " |\n");
            }
        }
        sb.append("\nRatios are containerfs relative to its baseline, higher is better for containerfs. Figures are medians of ")
                .append("every measurement; containerfs and its baseline are measured in alternating rounds in the same run, ")
                .append("and a ratio is the median over rounds of each round's ratio (so load drifting during the run cancels) ")
                .append("(scenarios 1-2: a JMH fork per variant and round, single-shot invocations after warm-up; ")
                .append("scenario 3: in one JVM after warm-up, retained heap from used heap after full GCs; ")
                .append("scenario 7: in one JVM, each random read on a file system just reopened from its persisted index; ")
                .append("scenario 8: dd's own copy time and ls -lR's wall time through real FUSE mounts). ")
                .append("NOISY: the median of per-round ratios and the ratio of the medians point different ways from 1, or to ")
                .append("different sides of the target, so ")
                .append("the row is neither PASS nor FAIL.\n");
        if (chartFile != null) {
            sb.append("\n![time and retained heap per record vs record count](").append(chartFile).append(")\n");
        }
        if (coresChartFile != null) {
            sb.append("\n![scenario 10: records/s of count(), the listing and sha2(content) against Spark cores, beside the ")
                    .append("single-thread walk](").append(coresChartFile).append(")\n");
        }
        return sb.toString();
    }

    static String machine() {
        String cpu = "unknown CPU";
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (l.startsWith("model name")) {
                    cpu = l.substring(l.indexOf(':') + 1).strip();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: keep "unknown CPU"
        }
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        return String.format("%s, %d cores, %d GiB RAM, %s %s, Java %s (%s)", cpu,
                Runtime.getRuntime().availableProcessors(), Math.round(memory / (double) (1L << 30)),
                System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("java.version"), System.getProperty("java.vm.name"));
    }
}
