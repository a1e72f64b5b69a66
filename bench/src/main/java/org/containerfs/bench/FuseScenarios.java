package org.containerfs.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Scenario 8: the FUSE mount, measured with the tools users run on it. {@code dd} of a big LIME
 * record through a containerfs mount (the CLI's {@code mount}, a child process) vs {@code dd} of the
 * same byte range of the container through {@code bindfs} (FUSE's pass-through, the cost of FUSE
 * itself) and without FUSE; {@code ls -lR} of a mounted container of many records vs {@code ls -lR}
 * through bindfs of a directory tree of as many plain files.
 */
final class FuseScenarios implements FormatScenarios {
    private static final Pattern DD_SUMMARY = Pattern.compile("(?m)^(\\d+) bytes .*copied, ([0-9.e+-]+) s");

    @Override
    public String name() {
        return "fuse";
    }

    @Override
    public String unavailableBecause() {
        String missing = Formats.missing("lime");
        if (missing != null) {
            return missing;
        }
        if (Runtime.version().feature() < 22) {
            return "the mount needs Java 22 or newer (this is " + Runtime.version() + ")";
        }
        if (!Files.isRegularFile(cliJar())) {
            return cliJar() + " is missing (bench/run builds it)";
        }
        if (!Files.exists(Path.of("/dev/fuse"))) {
            return "no /dev/fuse on this machine";
        }
        for (String tool : List.of("fusermount3", "bindfs", "dd", "ls")) {
            if (!onPath(tool)) {
                return tool + " is not installed (scripts/lib.sh containerfs_install_test_packages installs fuse3 and bindfs)";
            }
        }
        return null;
    }

    @Override
    public List<String> titles() {
        return List.of("8 FUSE dd vs bindfs", "8 FUSE dd with 10 workers vs bindfs", "8 FUSE dd vs raw", "8 FUSE ls -lR");
    }

    @Override
    public List<Row> run(Context context) throws Exception {
        List<Row> rows = new ArrayList<>(dd(context));
        rows.add(listRecursively(context));
        return rows;
    }

    /**
     * One record read by dd through each path, rounds interleaved ({@link Context#interleaved}); the
     * time is dd's own (the copy, without process start). The container file stays in the page cache:
     * the limit is the mount, not the disk. Before every read through FUSE, that file's pages in the
     * kernel are dropped ({@code dd iflag=nocache count=0}): containerfs mounts read-only containers
     * with kernel_cache, so repeated reads would otherwise not reach the mount at all.
     */
    private List<Row> dd(Context context) throws Exception {
        long length = context.size(1L << 30, 256L << 20);
        Path data = Files.createDirectories(context.workDir().resolve("fuse-data"));
        Path container = data.resolve("record.lime");
        Context.log("scenario 8: writing a LIME file with one record of %s; mounting it and bindfs", LimeScenarios.bytes(length));
        LimeInputs.oneRecord(container, length);
        List<String> range = List.of("iflag=skip_bytes,count_bytes", "skip=" + LimeInputs.HEADER, "count=" + length);
        Map<String, double[]> t;
        // bindfs 1.14 serves requests on one thread; containerfs defaults to one libfuse worker per two
        // cores (MountSettings.defaultWorkers). The mount with libfuse's own default of 10 workers shows
        // what more workers than cores cost a sequential reader.
        try (FuseMount containerfs = mountContainerfs(context, container, "fuse-mnt");
                FuseMount tenWorkers = mountContainerfs(context, container, "fuse-mnt-10", "-o", "max_threads=10");
                FuseMount bindfs = mountBindfs(context, data, "fuse-bindfs")) {
            Path record = containerfs.mountPoint().resolve(LimeInputs.BIG_RECORD.substring(1));
            Path recordTenWorkers = tenWorkers.mountPoint().resolve(LimeInputs.BIG_RECORD.substring(1));
            Path throughBindfs = bindfs.mountPoint().resolve(container.getFileName());
            Map<String, Context.SelfTimed> reads = new LinkedHashMap<>();
            reads.put("containerfs", () -> {
                dropCachedPages(record);
                return dd(record, length, List.of());
            });
            reads.put("containerfs-10", () -> {
                dropCachedPages(recordTenWorkers);
                return dd(recordTenWorkers, length, List.of());
            });
            reads.put("bindfs", () -> {
                dropCachedPages(throughBindfs);
                return dd(throughBindfs, length, range);
            });
            reads.put("raw", () -> dd(container, length, range));
            t = context.interleaved(reads);
        }
        t.forEach((name, seconds) -> Context.log("  dd %s: %s s", name, Arrays.toString(seconds)));
        Files.delete(container);
        String size = LimeScenarios.bytes(length);
        double cfs = length / Context.median(t.get("containerfs")) / (1 << 20);
        double raw = length / Context.median(t.get("raw")) / (1 << 20);
        return List.of(
                LimeScenarios.throughputRow(context, "8 FUSE: dd bs=1M of a " + size + " LIME record through a containerfs "
                        + "mount vs dd of its byte range through bindfs over the container's directory",
                        length, t.get("containerfs"), t.get("bindfs"), 1.0),
                LimeScenarios.throughputRow(context, "8 FUSE: the same dd through a containerfs mount with libfuse's "
                        + "default of 10 worker threads (-o max_threads=10) vs bindfs", length, t.get("containerfs-10"),
                        t.get("bindfs"), Double.NaN),
                new Row("8 FUSE: the same dd through the containerfs mount vs dd of the byte range of the container "
                        + "file (no FUSE)", String.format("%,.0f MiB/s", cfs), String.format("%,.0f MiB/s", raw),
                        String.format("%.3f", Context.pairedRatio(t.get("raw"), t.get("containerfs"), context.measurements())),
                        "report", Row.Verdict.INFO));
    }

    /** dd of {@code file} to /dev/null with further operands (a byte range); the seconds dd reports. */
    private static double dd(Path file, long expected, List<String> operands) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("dd", "if=" + file, "of=/dev/null", "bs=1M"));
        command.addAll(operands);
        String out = run(command);
        Matcher m = DD_SUMMARY.matcher(out);
        if (!m.find() || Long.parseLong(m.group(1)) != expected) {
            throw new IOException(String.join(" ", command) + " did not copy " + expected + " bytes:\n" + out);
        }
        return Double.parseDouble(m.group(2));
    }

    /** posix_fadvise(DONTNEED) on a FUSE file drops the kernel's copy of its pages, not the container's. */
    private static void dropCachedPages(Path file) throws IOException, InterruptedException {
        run(List.of("dd", "if=" + file, "iflag=nocache", "count=0"));
    }

    /**
     * ls -lR of a mounted container of many small records, each round on fresh mounts: the first
     * listing (a new mount process, kernel caches empty: what a user meets) and a second one.
     * bindfs lists a directory tree of as many 16-byte files with the same shape.
     */
    private Row listRecursively(Context context) throws Exception {
        int records = (int) context.size(100_000, 10_000);
        Path container = context.workDir().resolve("fuse-many.lime");
        Path tree = context.workDir().resolve("fuse-tree");
        Context.log("scenario 8: writing a LIME file of %,d records and a tree of as many files", records);
        LimeInputs.smallRecords(container, records);
        plainTree(tree, records);
        Path listing = context.workDir().resolve("fuse-ls.out");
        List<Double> cfsFirst = new ArrayList<>();
        List<Double> cfsAgain = new ArrayList<>();
        List<Double> bindFirst = new ArrayList<>();
        List<Double> bindAgain = new ArrayList<>();
        for (int round = 0; round < context.rounds(); round++) {
            for (int k = 0; k < 2; k++) {
                boolean ours = (k + round) % 2 == 0;
                try (FuseMount mount = ours ? mountContainerfs(context, container, "fuse-ls-mnt")
                        : mountBindfs(context, tree, "fuse-ls-bindfs")) {
                    (ours ? cfsFirst : bindFirst).add(listRecursively(mount.mountPoint(), listing, records));
                    (ours ? cfsAgain : bindAgain).add(listRecursively(mount.mountPoint(), listing, records));
                }
            }
            Context.log("  round %d/%d: ls -lR containerfs %.2f s then %.2f s, bindfs %.2f s then %.2f s", round + 1,
                    context.rounds(), last(cfsFirst), last(cfsAgain), last(bindFirst), last(bindAgain));
        }
        Files.delete(container);
        Files.delete(listing);
        deleteTree(tree);
        double[] cfs = toArray(cfsFirst);
        double[] bind = toArray(bindFirst);
        return new Row(String.format("8 FUSE: ls -lR of a containerfs mount of a LIME file of %,d records, first after "
                + "mounting (then again) vs ls -lR through bindfs of a tree of as many 16-byte files", records),
                String.format("%s (again: %s)", LimeScenarios.seconds(Context.median(cfs)),
                        LimeScenarios.seconds(Context.median(toArray(cfsAgain)))),
                String.format("%s (again: %s)", LimeScenarios.seconds(Context.median(bind)),
                        LimeScenarios.seconds(Context.median(toArray(bindAgain)))),
                String.format("%.2f", Context.pairedRatio(bind, cfs, 1)), "report", Row.Verdict.INFO);
    }

    /** Seconds of {@code ls -lR dir}, having checked it listed {@code files} regular files. */
    private static double listRecursively(Path dir, Path listing, int files) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Process ls = new ProcessBuilder("ls", "-lR", dir.toString()).redirectOutput(listing.toFile())
                .redirectErrorStream(false).start();
        String errors = new String(ls.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ls.waitFor(10, TimeUnit.MINUTES) || ls.exitValue() != 0) {
            ls.destroyForcibly();
            throw new IOException("ls -lR " + dir + " failed: " + errors);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long listed;
        try (Stream<String> lines = Files.lines(listing)) {
            listed = lines.filter(l -> l.startsWith("-")).count();
        }
        if (listed != files) {
            throw new IOException("ls -lR " + dir + " listed " + listed + " files, expected " + files);
        }
        return seconds;
    }

    /** The shape of {@link LimeInputs#smallRecords}: directories of 10 files of 16 bytes. */
    private static void plainTree(Path tree, int files) throws IOException {
        byte[] payload = new byte[16];
        for (int i = 0; i < files; i++) {
            Path dir = tree.resolve(String.format("msg%02d", i / 10 + 1));
            if (i % 10 == 0) {
                Files.createDirectories(dir);
            }
            Files.write(dir.resolve(String.format("rec%02d.%s", i % 10 + 1,
                    i % 2 == 0 ? "scidac-record-xml" : LimeInputs.BIG_TYPE)), payload);
        }
    }

    private static FuseMount mountContainerfs(Context context, Path container, String at, String... options)
            throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED", "-jar",
                cliJar().toString(), "mount"));
        command.addAll(List.of(options));
        command.addAll(List.of(container.toString(), context.workDir().resolve(at).toString()));
        return FuseMount.start(command,
                context.workDir().resolve(at), context.workDir().resolve(at + ".log"));
    }

    private static FuseMount mountBindfs(Context context, Path dir, String at) throws IOException, InterruptedException {
        return FuseMount.start(List.of("bindfs", "-f", dir.toString(), context.workDir().resolve(at).toString()),
                context.workDir().resolve(at), context.workDir().resolve(at + ".log"));
    }

    /** The CLI's shaded jar; bench/run passes its absolute path. */
    private static Path cliJar() {
        return Path.of(System.getProperty("containerfs.cliJar", "cli/target/containerfs.jar"));
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** Runs a short command; its output (stdout and stderr), or an IOException if it fails. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("LC_ALL", "C"); // dd's summary with a decimal point
        Process p = pb.start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed:\n" + out);
        }
        return out;
    }

    private static double last(List<Double> values) {
        return values.get(values.size() - 1);
    }

    private static double[] toArray(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
