package org.containerfs.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.ensemble.EnsembleFileSystem;

/**
 * A profiling aid, not a scenario: {@code ls -lR} of the ensemble scenario 11 generates
 * ({@code /tmp/containerfs-bench-ensemble-N}: {@code tree/} and {@code single.lime}), walked {@code rounds}
 * times in one tree, then the single container twice; for each walk the wall time and this thread's CPU time
 * (on a loaded machine the CPU time is the steadier figure). Run under JFR to see where a walk goes:
 * {@code java -cp provider/target/classes:<this class> -XX:StartFlightRecording=filename=walk.jfr
 * org.containerfs.bench.EnsembleWalkProfile /tmp/containerfs-bench-ensemble-1000 6 /tmp/index [cacheContainers]}
 * (a bound above the container count leaves out the reopens: what remains is the cost per listed entry).
 */
public final class EnsembleWalkProfile {
    private EnsembleWalkProfile() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        if (args.length > 4 && args[4].equals("generate")) { // makes root as scenario 11 does (N containers: N / 100 a directory)
            EnsembleScenarios.generate(root, Integer.parseInt(args[5]) / 100);
            return;
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        Path index = Files.createDirectories(Path.of(args.length > 2 ? args[2] : "/tmp/containerfs-walk-profile-index"));
        Map<String, Object> env = Map.of("indexCache", index.toString(), "indexCacheMinSize", 0, "cacheContainers",
                args.length > 3 ? Integer.parseInt(args[3]) : 256);
        ContainerFileSystems.providers();
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(root.resolve("tree"), env)) {
            for (int r = 0; r < rounds; r++) {
                long t = System.nanoTime();
                long c = cpu();
                long n = walk(tree.getPath("/"));
                System.out.printf("tree walk %d: %.2f s wall, %.2f s cpu, %d paths, %d opens%n", r,
                        (System.nanoTime() - t) / 1e9, (cpu() - c) / 1e9, n, tree.containersOpened());
            }
        }
        try (FileSystem fs = ContainerFileSystems.open(root.resolve("single.lime"), env)) {
            for (int r = 0; r < 2; r++) {
                long t = System.nanoTime();
                long c = cpu();
                long n = walk(fs.getPath("/"));
                System.out.printf("single walk %d: %.2f s wall, %.2f s cpu, %d paths%n", r,
                        (System.nanoTime() - t) / 1e9, (cpu() - c) / 1e9, n);
            }
        }
        System.out.println("load " + Files.readString(Path.of("/proc/loadavg")).trim());
    }

    /** As scenario 11's: every path's attributes; the count of paths. */
    static long walk(Path top) throws java.io.IOException {
        long[] n = {0};
        Files.walkFileTree(top, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes a) {
                n[0]++;
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a) {
                n[0]++;
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        return n[0];
    }

    private static long cpu() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }
}
