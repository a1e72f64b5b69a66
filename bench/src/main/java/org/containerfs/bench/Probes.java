package org.containerfs.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.containerfs.core.ContainerFileSystems;

/**
 * Single measurements behind figures in the closing notes and the README, each one step of a bench row taken
 * apart (no verdict; bench/run judges). Run with the bench jar:
 * {@code java -cp bench/target/benchmarks.jar org.containerfs.bench.Probes <probe> <dir> <rounds>}; inputs are
 * written into {@code <dir>} on first use and kept for the next probe.
 * <ul>
 *   <li>{@code g3-first-open}: per round, one GZIPInputStream pass over a 1 GiB .g3.gz, then its first open
 *       (gzipIndex=true, indexCache=off, .zidx deleted); {@code g3-first-open-cached} the same with the
 *       default index cache instead of a .zidx (its entry deleted)</li>
 *   <li>{@code g3-reopen}: opens of that file from its .zidx (run g3-first-open first)</li>
 *   <li>{@code g3-cache-save}: the first open of a 1 GiB plain .g3 with indexCache=off, then with a fresh
 *       index cache: the difference is the cache's save</li>
 *   <li>{@code lime-list}: listings of the 10^6 names of a LIME file, one open (from the index cache)</li>
 *   <li>{@code lime-walk}: open + walk with attributes, then open + list, of that file (indexCache=off)</li>
 *   <li>{@code lime-split}: per round the raw header walk, then the open (indexCache=off), the listing of every
 *       name and the close of that file, each timed alone</li>
 *   <li>{@code gsd-list}: open + list of every name of a GSD file of 10^6 chunks in 250,000 frames, open +
 *       walk with attributes (both with the default settings), then the raw index walk they are compared with</li>
 * </ul>
 */
public final class Probes {
    private static final int FRAMES = 100_000;
    private static final int RECORDS = 1_000_000;
    private static final int GSD_FRAMES = 250_000;

    private Probes() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: Probes <probe> <dir> <rounds>");
        }
        Path dir = Files.createDirectories(Path.of(args[1]));
        int rounds = Integer.parseInt(args[2]);
        switch (args[0]) {
            case "g3-first-open" -> g3FirstOpen(dir, rounds, false);
            case "g3-first-open-cached" -> g3FirstOpen(dir, rounds, true);
            case "g3-reopen" -> {
                Path gz = g3gz(dir);
                print("reopen from .zidx", time(rounds, () -> open(gz, Map.of("gzipIndex", true, "indexCache", "off"))));
            }
            case "g3-cache-save" -> {
                Path plain = dir.resolve("probe.g3");
                if (!Files.exists(plain)) {
                    G3Inputs.write(plain, FRAMES, OutputStream.nullOutputStream());
                }
                Path cache = dir.resolve("cache-save");
                double[] off = time(rounds, () -> open(plain, Map.of("indexCache", "off")));
                double[] saved = time(rounds, () -> {
                    empty(cache);
                    open(plain, Map.of("indexCache", cache.toString()));
                });
                print("open, indexCache=off", off);
                print("open with a fresh index cache (its save included)", saved);
            }
            case "lime-list" -> {
                Path lime = lime(dir);
                Map<String, Object> cache = Map.of("indexCache", dir.resolve("cache-lime").toString());
                try (FileSystem fs = ContainerFileSystems.open(lime, cache)) {
                    print("list of every name", time(rounds, () -> list(fs)));
                }
            }
            case "lime-walk" -> {
                Path lime = lime(dir);
                Map<String, Object> off = Map.of("indexCache", "off");
                double[] walk = new double[rounds];
                double[] list = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    walk[r] = time(1, () -> LimeScenarios.openAndWalk(lime, RECORDS, off))[0];
                    list[r] = time(1, () -> LimeScenarios.openAndList(lime, RECORDS, off))[0];
                }
                print("open + walk with attributes", walk);
                print("open + list", list);
            }
            case "lime-split" -> {
                Path lime = lime(dir);
                double[][] ms = new double[4][rounds];
                for (int r = 0; r < rounds; r++) {
                    long t0 = System.nanoTime();
                    LimeScenarios.rawHeaderWalk(lime, RECORDS);
                    long t1 = System.nanoTime();
                    FileSystem fs = ContainerFileSystems.open(lime, Map.of("indexCache", "off"));
                    long t2 = System.nanoTime();
                    list(fs);
                    long t3 = System.nanoTime();
                    fs.close();
                    long t4 = System.nanoTime();
                    ms[0][r] = (t1 - t0) / 1e6;
                    ms[1][r] = (t2 - t1) / 1e6;
                    ms[2][r] = (t3 - t2) / 1e6;
                    ms[3][r] = (t4 - t3) / 1e6;
                }
                print("raw header walk", ms[0]);
                print("open (the header scan)", ms[1]);
                print("list of every name", ms[2]);
                print("close", ms[3]);
            }
            case "gsd-list" -> {
                Path gsd = dir.resolve("probe.gsd");
                if (!Files.exists(gsd)) {
                    GsdScenarios.generate(gsd, GSD_FRAMES);
                }
                print("open + list", time(rounds, () -> GsdScenarios.listNames(gsd, GSD_FRAMES * 4)));
                print("open + walk with attributes", time(rounds, () -> LimeScenarios.openAndWalk(gsd, GSD_FRAMES * 4)));
                print("raw index walk", time(rounds, () -> GsdScenarios.rawIndexWalk(gsd, GSD_FRAMES * 4)));
            }
            default -> throw new IllegalArgumentException("no probe " + args[0]);
        }
    }

    private static void g3FirstOpen(Path dir, int rounds, boolean viaCache) throws Exception {
        Path gz = g3gz(dir);
        Path zidx = gz.resolveSibling(gz.getFileName() + ".zidx");
        Path cache = dir.resolve("cache-g3");
        double[] gunzip = new double[rounds];
        double[] open = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            gunzip[r] = time(1, () -> {
                byte[] discard = new byte[1 << 16];
                try (InputStream in = new GZIPInputStream(Files.newInputStream(gz), 1 << 16)) {
                    while (in.read(discard) >= 0) {
                        // inflate only
                    }
                }
            })[0];
            if (viaCache) {
                empty(cache);
            } else {
                Files.deleteIfExists(zidx);
            }
            open[r] = time(1, () -> open(gz, viaCache ? Map.of("indexCache", cache.toString())
                    : Map.of("gzipIndex", true, "indexCache", "off")))[0];
            System.out.printf("round %d: GZIPInputStream %.3f s, first open %.3f s, ratio %.3f%n", r + 1,
                    gunzip[r] / 1e3, open[r] / 1e3, gunzip[r] / open[r]);
        }
        System.out.printf("median ratio of rounds %.3f%n", Context.pairedRatio(gunzip, open, 1));
    }

    private static Path g3gz(Path dir) throws Exception {
        Path gz = dir.resolve("probe.g3.gz");
        if (!Files.exists(gz)) {
            Process gzip = new ProcessBuilder("gzip", "-1", "-n", "-c").redirectOutput(gz.toFile()).start();
            Path plain = dir.resolve("probe-for-gzip.g3");
            try (OutputStream pipe = gzip.getOutputStream()) {
                G3Inputs.write(plain, FRAMES, pipe);
            }
            if (gzip.waitFor() != 0) {
                throw new IOException("gzip -1 failed");
            }
            Files.delete(plain);
        }
        return gz;
    }

    private static Path lime(Path dir) throws IOException {
        Path lime = dir.resolve("probe.lime");
        if (!Files.exists(lime)) {
            LimeInputs.smallRecords(lime, RECORDS);
        }
        return lime;
    }

    private static void open(Path container, Map<String, ?> env) throws IOException {
        try (FileSystem fs = ContainerFileSystems.open(container, env)) {
            if (!Files.isDirectory(fs.getPath("/"))) {
                throw new IllegalStateException(container + " has no root");
            }
        }
    }

    private static void list(FileSystem fs) throws IOException {
        long files = 0;
        try (DirectoryStream<Path> messages = Files.newDirectoryStream(fs.getPath("/"))) {
            for (Path message : messages) {
                try (DirectoryStream<Path> records = Files.newDirectoryStream(message)) {
                    for (Path record : records) {
                        files += record.getFileName().toString().isEmpty() ? 0 : 1;
                    }
                }
            }
        }
        if (files != RECORDS) {
            throw new IllegalStateException("listed " + files + " names, expected " + RECORDS);
        }
    }

    private static void empty(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                for (Path p : (Iterable<Path>) entries::iterator) {
                    Files.delete(p);
                }
            }
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** Milliseconds of each of {@code rounds} runs. */
    private static double[] time(int rounds, Step step) throws Exception {
        double[] ms = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            step.run();
            ms[r] = (System.nanoTime() - t0) / 1e6;
        }
        return ms;
    }

    private static void print(String what, double[] ms) {
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        System.out.printf("%s: median %.1f ms, 25th percentile %.1f ms (%d runs)%n", what, Context.median(ms),
                sorted[sorted.length / 4], ms.length);
    }
}
