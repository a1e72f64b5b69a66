package org.containerfs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.ensemble.EnsembleFileSystem;
import org.containerfs.s3.S3Containers;
import org.containerfs.s3.S3TestServer;

/**
 * Scenario 11 ({@code --only ensemble}): an ensemble of LIME containers (100 records of 1 KiB each) in 100
 * directories as one tree ({@code ContainerFileSystems.openTree}), local and as an S3 prefix (s3proxy in this
 * JVM, objects on disk, every request 20 ms late), beside one container holding the same records. Through the
 * library in this JVM (the FUSE mount of a tree is another engineer's door): the time until the top's listing
 * answers, {@code ls -lR} (a walk reading every path's attributes) first and again, the path count
 * ({@code find | wc -l}), the heap after the walk (with 1/10 of the containers walked, then all), and on S3 the
 * requests of a walk with a warm index cache. 10,000 containers; 1,000 with {@code --quick}, or
 * {@code -Dcontainerfs.bench.ensembleContainers=N} (a multiple of 100); {@code -Dcontainerfs.bench.ensembleParts=s3}
 * (or {@code local}) runs one half. The generated files are kept under
 * {@code /tmp/containerfs-bench-ensemble-N} for the next run.
 */
final class EnsembleScenarios implements FormatScenarios {
    private static final int RECORDS = 100;
    private static final int RECORD_BYTES = 1024;
    private static final int DIRS = 100;
    private static final String[] TITLES = {
        "11 ensemble local: first ls of the tree's top",
        "11 ensemble local: ls -lR of the whole tree, first / again, vs one container of the same records",
        "11 ensemble local: find | wc -l (paths)",
        "11 ensemble local: heap after the walk, 1/10 of the containers vs all",
        "11 ensemble S3 [+20 ms per request]: first ls of the prefix's top",
        "11 ensemble S3 [+20 ms per request]: ls of a directory of containers",
        "11 ensemble S3 [+20 ms per request]: ls -lR, cold index cache",
        "11 ensemble S3 [+20 ms per request]: ls -lR again, warm index cache (new tree)",
    };

    @Override
    public String name() {
        return "ensemble";
    }

    @Override
    public List<String> titles() {
        return List.of(TITLES);
    }

    private static Row info(String title, String value) {
        return new Row(title, value, "", "", "", Row.Verdict.INFO);
    }

    @Override
    public List<Row> run(Context context) throws Exception {
        int containers = Integer.getInteger("containerfs.bench.ensembleContainers",
                (int) context.size(10_000, 1_000));
        int perDir = Math.max(1, containers / DIRS);
        Path root = Path.of(System.getProperty("java.io.tmpdir"), "containerfs-bench-ensemble-" + containers);
        Path single = generate(root, perDir);
        List<Row> rows = new ArrayList<>();
        Path index = Files.createDirectories(context.workDir().resolve("ensemble-index"));
        Map<String, Object> env = Map.of("indexCache", index.toString(), "indexCacheMinSize", 0);
        // -Dcontainerfs.bench.ensembleParts=s3 (or local): one half only, for a larger count in the same time
        String parts = System.getProperty("containerfs.bench.ensembleParts", "local,s3");
        if (parts.contains("local")) {
            local(root, single, containers, env, rows);
        }
        if (parts.contains("s3")) {
            s3(context, root, containers, env, rows);
        }
        return rows;
    }

    private static void local(Path root, Path single, int containers, Map<String, Object> env, List<Row> rows)
            throws IOException {
        // the JVM's first load of the installed providers (this jar has many: Hadoop's, the S3 SPI's) is a cost of
        // the process, whatever it opens: measured apart
        long tp = System.nanoTime();
        ContainerFileSystems.providers();
        double providersMs = ms(tp);
        // local
        long t0 = System.nanoTime();
        int top;
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(root.resolve("tree"), env)) {
            top = count(tree.getPath("/"));
            double firstLs = ms(t0);
            rows.add(info(TITLES[0], String.format("%.0f ms (%d entries, %d containers opened; before it, the JVM's "
                    + "first load of the installed providers: %.0f ms)", firstLs, top, tree.containersOpened(), providersMs)));
            long[] paths = new long[1];
            double first = timed(() -> paths[0] = walk(tree.getPath("/")));
            double again = timed(() -> walk(tree.getPath("/")));
            double one;
            long singlePaths;
            try (FileSystem fs = ContainerFileSystems.open(single, env)) {
                long[] sp = new long[1];
                one = timed(() -> sp[0] = walk(fs.getPath("/")));
                singlePaths = sp[0];
            }
            rows.add(new Row(TITLES[1], String.format("%.2f s / %.2f s", first, again),
                    String.format("%.2f s (single container, %d paths)", one, singlePaths),
                    String.format("%.2fx", one / again), "<= 1.5x of one container", Row.Verdict.INFO));
            rows.add(info(TITLES[2], paths[0] + " paths, " + tree.containersOpened() + " opens, peak "
                    + tree.peakContainersOpen() + " open"));
        }
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(root.resolve("tree"), env)) {
            for (int d = 0; d < DIRS / 10; d++) {
                walk(tree.getPath(String.format("/d%03d", d)));
            }
            String tenth = heap();
            walk(tree.getPath("/"));
            rows.add(info(TITLES[3], (containers / 10) + " containers: " + tenth + "; " + containers + ": " + heap()
                    + " (open now " + tree.containersOpen() + ", " + tree.containersOpenBytes() / 1024 + " KiB of index)"));
        }
    }

    private static void s3(Context context, Path root, int containers, Map<String, Object> env, List<Row> rows)
            throws Exception {
        ContainerFileSystems.providers(); // the JVM's first load of the providers: not a cost of the first ls
        Path store = Files.createDirectories(context.workDir().resolve("ensemble-s3"));
        try (S3TestServer server = new S3TestServer(store)) {
            server.bulk().createBucket(b -> b.bucket("ens")); // patient: a busy machine must not time it out
            Context.log("ensemble: uploading %d containers to s3proxy", containers);
            server.putTree("ens", "run/", root.resolve("tree"));
            Map<String, Object> s3env = new HashMap<>(env);
            s3env.put("s3.client", server.bulk());
            Path s3index = Files.createDirectories(context.workDir().resolve("ensemble-s3-index"));
            s3env.put("indexCache", s3index.toString());
            server.delayEachRequest(Duration.ofMillis(20));
            URI prefix = URI.create("s3://ens/run/");
            for (int pass = 0; pass < 2; pass++) {
                server.reset();
                long t1 = System.nanoTime();
                try (EnsembleFileSystem tree = S3Containers.openTree(prefix, s3env)) {
                    if (pass == 0) {
                        int n = count(tree.getPath("/"));
                        rows.add(info(TITLES[4], String.format("%.0f ms (%d entries), %d requests", ms(t1), n,
                                server.total())));
                        server.reset();
                        long t2 = System.nanoTime();
                        try (DirectoryStream<java.nio.file.Path> ds = Files.newDirectoryStream(tree.getPath("/d000"))) {
                            int entries = 0;
                            for (Path p : ds) {
                                Files.readAttributes(p, BasicFileAttributes.class);
                                entries++;
                            }
                            rows.add(info(TITLES[5], String.format("%.0f ms (%d containers, ls -l), %d requests, %d "
                                    + "containers opened", ms(t2), entries, server.total(), tree.containersOpened())));
                        }
                    }
                    server.reset();
                    long[] paths = new long[1];
                    double walkTime = timed(() -> paths[0] = walk(tree.getPath("/")));
                    long lists = server.requests().stream().filter(r -> r.target().contains("list-type=2")).count();
                    rows.add(info(TITLES[6 + pass], String.format("%.1f s, %d paths, %d requests: %d LIST + %d others "
                            + "(%.2f per container), %s moved", walkTime, paths[0], server.total(), lists,
                            server.total() - lists, (server.total() - lists) / (double) containers,
                            size(server.bodyBytes()))));
                }
            }
        }
    }

    private static String size(long bytes) {
        return bytes >= 1 << 20 ? String.format("%.1f MiB", bytes / 1048576.0) : String.format("%.1f KiB", bytes / 1024.0);
    }

    /** root/tree/dNNN/conf.NNNNN.lime and root/single.lime with the same records; made once, then reused. */
    static Path generate(Path root, int perDir) throws IOException {
        Path single = root.resolve("single.lime");
        Path done = root.resolve("complete");
        if (Files.exists(done)) {
            return single;
        }
        Context.log("ensemble: generating %d containers under %s", perDir * DIRS, root);
        for (int d = 0; d < DIRS; d++) {
            Path dir = Files.createDirectories(root.resolve("tree").resolve(String.format("d%03d", d)));
            for (int c = 0; c < perDir; c++) {
                LimeInputs.records(dir.resolve(String.format("conf.%05d.lime", d * perDir + c)), RECORDS, RECORD_BYTES,
                        d * perDir + c);
            }
        }
        LimeInputs.records(single, RECORDS * perDir * DIRS, RECORD_BYTES, 1);
        Files.writeString(done, "");
        return single;
    }

    interface Step {
        void run() throws IOException;
    }

    private static double timed(Step step) throws IOException {
        long t0 = System.nanoTime();
        step.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double ms(long since) {
        return (System.nanoTime() - since) / 1e6;
    }

    private static int count(Path dir) throws IOException {
        int n = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                Files.readAttributes(p, BasicFileAttributes.class);
                n++;
            }
        }
        return n;
    }

    /** ls -lR: every path's attributes; the count of paths (find | wc -l, less the top). */
    static long walk(Path top) throws IOException {
        long[] n = {0};
        Files.walkFileTree(top, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                n[0]++;
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                n[0]++;
                return FileVisitResult.CONTINUE;
            }
        });
        return n[0];
    }

    /** Heap in use after a full GC, and the process's resident set. */
    private static String heap() throws IOException {
        System.gc();
        System.gc();
        long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        String rss = "?";
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = line.substring(6).trim();
            }
        }
        return String.format("heap %.1f MiB, RSS %s", used / 1048576.0, rss);
    }
}
