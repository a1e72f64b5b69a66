package org.containerfs.gsd;

import java.io.BufferedWriter;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The figures (not a test). Run from provider/ after {@code mvn test-compile}:
 * <pre>
 * java -cp target/classes:target/test-classes org.containerfs.gsd.GsdFigures generate /tmp/big.gsd 100000
 * java -cp target/classes:target/test-classes org.containerfs.gsd.GsdFigures open /tmp/big.gsd
 * java -cp target/classes:target/test-classes org.containerfs.gsd.GsdFigures sequence /tmp/big.gsd /tmp/seq.txt 100000
 * java -cp target/classes:target/test-classes org.containerfs.gsd.GsdFigures read /tmp/big.gsd /tmp/seq.txt
 * /usr/bin/python3 src/test/resources/gsd-interop/gsd_bench.py /tmp/big.gsd /tmp/seq.txt
 * </pre>
 */
public final class GsdFigures {
    static final String[] NAMES = {"configuration/step", "particles/position", "particles/typeid", "log/energy"};

    private GsdFigures() {}

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "generate" -> generate(Paths.get(args[1]), Integer.parseInt(args[2]));
            case "open" -> open(Paths.get(args[1]));
            case "sequence" -> sequence(Paths.get(args[1]), Paths.get(args[2]), Integer.parseInt(args[3]));
            case "read" -> read(Paths.get(args[1]), Paths.get(args[2]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void generate(Path file, int frames) throws Exception {
        Files.deleteIfExists(file);
        Random r = new Random(1);
        long t0 = System.nanoTime();
        try (FileSystem fs = GsdTestSupport.create(file, Map.of("schema", "hoomd", "schemaVersion", "1.4"))) {
            for (int f = 0; f < frames; f++) {
                Files.createDirectory(fs.getPath("/" + f));
                GsdTestSupport.writeChunk(fs.getPath("/" + f + "/configuration%2Fstep"), "uint64", 1,
                        ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, f * 1000L).array());
                byte[] pos = new byte[16 * 12];
                r.nextBytes(pos);
                GsdTestSupport.writeChunk(fs.getPath("/" + f + "/particles%2Fposition"), "float", 3, pos);
                GsdTestSupport.writeChunk(fs.getPath("/" + f + "/particles%2Ftypeid"), "uint32", 1, new byte[16 * 4]);
                byte[] e = new byte[8];
                r.nextBytes(e);
                GsdTestSupport.writeChunk(fs.getPath("/" + f + "/log%2Fenergy"), "double", 1, e);
            }
        }
        long t1 = System.nanoTime();
        System.out.printf("generated %s: %d frames x 4 chunks, %d bytes, %.1f s (%.1f us/frame)%n", file, frames,
                Files.size(file), (t1 - t0) / 1e9, (t1 - t0) / 1e3 / frames);
    }

    static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static void open(Path file) throws Exception {
        long before = usedHeap();
        long t0 = System.nanoTime();
        FileSystem fs = GsdTestSupport.openRead(file);
        long t1 = System.nanoTime();
        long after = usedHeap();
        Object frames = Files.getAttribute(fs.getPath("/"), "gsd:frames");
        System.out.printf("first open: %.1f ms, retained heap %.2f MB, frames %s, chunks %s%n", (t1 - t0) / 1e6,
                (after - before) / 1e6, frames, Files.getAttribute(fs.getPath("/"), "gsd:chunks"));
        fs.close();
        int reps = 10;
        long best = Long.MAX_VALUE;
        long total = 0;
        for (int i = 0; i < reps; i++) {
            long s = System.nanoTime();
            GsdTestSupport.openRead(file).close();
            long d = System.nanoTime() - s;
            best = Math.min(best, d);
            total += d;
        }
        System.out.printf("warm open: mean %.1f ms, best %.1f ms over %d%n", total / 1e6 / reps, best / 1e6, reps);
    }

    static void sequence(Path file, Path out, int count) throws Exception {
        int frames;
        try (FileSystem fs = GsdTestSupport.openRead(file)) {
            frames = (Integer) Files.getAttribute(fs.getPath("/"), "gsd:frames");
        }
        Random r = new Random(12345);
        try (BufferedWriter w = Files.newBufferedWriter(out)) {
            for (int i = 0; i < count; i++) {
                w.write(r.nextInt(frames) + " " + NAMES[r.nextInt(NAMES.length)] + "\n");
            }
        }
    }

    static void read(Path file, Path seq) throws Exception {
        List<String> lines = Files.readAllLines(seq, StandardCharsets.UTF_8);
        String[] paths = new String[lines.size()];
        for (int i = 0; i < paths.length; i++) {
            String[] p = lines.get(i).split(" ", 2);
            paths[i] = "/" + p[0] + "/" + p[1];
        }
        try (FileSystem fs = GsdTestSupport.openRead(file)) {
            long sink = 0;
            for (int pass = 0; pass < 3; pass++) { // two warm-up passes, then the timed one
                long t0 = System.nanoTime();
                for (String p : paths) {
                    byte[] b = Files.readAllBytes(fs.getPath(p));
                    sink += b.length;
                }
                long t1 = System.nanoTime();
                System.out.printf("pass %d: %d reads, %.2f us/read (%d bytes)%n", pass, paths.length,
                        (t1 - t0) / 1e3 / paths.length, sink);
            }
        }
    }
}
