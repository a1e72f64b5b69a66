package org.containerfs.g3;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;

/**
 * Not a test: the measurements of the closing note, run by hand.
 * <pre>
 * java -cp provider/target/classes:provider/target/test-classes org.containerfs.g3.G3Figures generate big.g3 100000
 * gzip -6 -c big.g3 &gt; big.g3.gz
 * java -cp ... org.containerfs.g3.G3Figures open big.g3
 * java -DseqReads=3 -cp ... org.containerfs.g3.G3Figures open big.g3.gz [gzipIndex=true] [gzipSpan=N]
 * </pre>
 */
public final class G3Figures {
    private G3Figures() {}

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    public static void main(String[] args) throws Exception {
        Path file = Paths.get(args[1]);
        if (args[0].equals("generate")) {
            generate(file, Integer.parseInt(args[2]));
        } else {
            Map<String, Object> env = new HashMap<>();
            for (int i = 2; i < args.length; i++) {
                String[] kv = args[i].split("=", 2);
                env.put(kv[0], kv[1]);
            }
            open(file, env);
        }
    }

    /** Frames of about 10.8 KB: an int, 1000 noisy doubles, 1000 small ints (8-bit), a 1.5 KB string. */
    private static void generate(Path file, int frames) throws Exception {
        Random r = new Random(1);
        long t0 = System.nanoTime();
        try (FileSystem fs = G3TestSupport.open(file, Map.of("create", true))) {
            double[] az = new double[1000];
            long[] flags = new long[1000];
            for (int f = 0; f < frames; f++) {
                Path dir = Files.createDirectory(fs.getPath(String.format("/%06d.Scan", f)));
                for (int i = 0; i < az.length; i++) {
                    az[i] = Math.sin((f * 1000 + i) * 1e-3) + r.nextGaussian() * 1e-3;
                }
                for (int i = 0; i < flags.length; i++) {
                    flags[i] = r.nextInt(4);
                }
                G3Blobs.write(dir, "ScanNumber", new G3Value.IntValue(f));
                G3Blobs.write(dir, "Az", new G3Value.VectorDouble(az));
                G3Blobs.write(dir, "Flags", new G3Value.VectorInt(flags));
                G3Blobs.write(dir, "Comment", new G3Value.StringValue("scan " + f + " ".repeat(1500)));
            }
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("wrote %d frames, %d bytes in %.1f s%n", frames, Files.size(file), s);
    }

    private static void open(Path file, Map<String, Object> env) throws Exception {
        long before = usedHeap();
        long t0 = System.nanoTime();
        long c0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        FileSystem fs = G3TestSupport.open(file, env);
        double open = (System.nanoTime() - t0) / 1e9;
        double cpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - c0) / 1e9;
        long after = usedHeap();
        Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "g3:*");
        System.out.printf("open %.2f s wall, %.2f s CPU, retained heap %.1f MiB; frames=%s entries=%s restartPoints=%s %s%n",
                open, cpu, (after - before) / 1048576.0, root.get("frames"), root.get("entries"),
                root.get("restartPoints"), root.getOrDefault("restartIndex", ""));
        if (Boolean.TRUE.equals(root.get("compressed"))) {
            int frames = (Integer) root.get("frames");
            Random r = new Random(5);
            int n = 50;
            long total = 0;
            long max = 0;
            long inflated0 = (Long) root.get("inflatedBytes");
            for (int i = 0; i < n; i++) {
                Path key = fs.getPath(String.format("/%06d.Scan/Flags", r.nextInt(frames)));
                long t = System.nanoTime();
                Files.readAllBytes(key);
                long d = System.nanoTime() - t;
                total += d;
                max = Math.max(max, d);
            }
            long inflated = (Long) Files.getAttribute(fs.getPath("/"), "g3:inflatedBytes") - inflated0;
            System.out.printf("random key read: mean %.1f ms, max %.1f ms over %d frames; %.1f MiB inflated per read%n",
                    total / 1e6 / n, max / 1e6, n, inflated / 1048576.0 / n);
            r = new Random(5);
            int m = Integer.getInteger("seqReads", 0);
            for (int i = 0; i < m; i++) {
                int f = r.nextInt(frames);
                long off = (Long) Files.getAttribute(fs.getPath(String.format("/%06d.Scan/Flags", f)), "g3:offset");
                long t = System.nanoTime();
                try (InputStream in = new GZIPInputStream(Files.newInputStream(file), 1 << 16)) {
                    in.skipNBytes(off);
                    in.readNBytes(1000);
                }
                System.out.printf("sequential gunzip to frame %d (stream byte %d): %.2f s%n", f, off,
                        (System.nanoTime() - t) / 1e9);
            }
        }
        fs.close();
    }
}
