package org.containerfs.scda;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

/**
 * The figures (not a unit test: run by hand, see the report). Usage:
 * {@code java -cp target/classes:target/test-classes org.containerfs.scda.ScdaFigures <dir> [open|elements|append]...}
 */
public final class ScdaFigures {
    private ScdaFigures() {}

    /** CPU time of this thread: the machine is shared, so wall time alone says little. */
    static long cpu() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        Files.createDirectories(dir);
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "open" -> openTime(dir.resolve("sections100k.scda"));
                case "elements" -> elements(dir.resolve("compressed1m.scda"), true);
                case "elements-read" -> elements(dir.resolve("compressed1m.scda"), false);
                case "append" -> append(dir);
                default -> throw new IllegalArgumentException(args[i]);
            }
        }
    }

    /** 100,000 small sections (I, B, A in turn), written directly, then opened repeatedly. */
    static void openTime(Path file) throws Exception {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            out.write(new RawScda("libsc", "100k sections").bytes());
            for (int k = 0; k < 100_000; k++) {
                RawScda s = new RawScda("x", "");
                byte[] data = ScdaAppendLoop.payload(k, 0, 32 + k % 50);
                switch (k % 3) {
                    case 0 -> s.inline("inline " + k, Arrays.copyOf(data, 32));
                    case 1 -> s.block("block " + k, data);
                    default -> s.raw(RawScda.bytes("A ")).raw(RawScda.field(RawScda.bytes("array " + k), 62))
                            .raw(RawScda.entry('N', "4")).raw(RawScda.entry('E', "8"))
                            .raw(Arrays.copyOf(data, 32)).raw(RawScda.pad(32, data[31]));
                }
                byte[] b = s.bytes();
                out.write(b, 128, b.length - 128);
            }
        }
        System.out.printf("open: file %d bytes, 100000 sections%n", Files.size(file));
        ScdaFileSystemProvider provider = new ScdaFileSystemProvider();
        long best = Long.MAX_VALUE;
        for (int run = 0; run < 7; run++) {
            long t0 = System.nanoTime();
            long c0 = cpu();
            try (FileSystem fs = provider.newFileSystem(file, Map.of())) {
                long t1 = System.nanoTime();
                long c1 = cpu();
                if (!Files.getAttribute(fs.getPath("/"), "scda:sections").equals(100_000)) {
                    throw new AssertionError("sections");
                }
                best = Math.min(best, t1 - t0);
                System.out.printf("open run %d: %.1f ms wall, %.1f ms cpu%n", run, (t1 - t0) / 1e6, (c1 - c0) / 1e6);
            }
        }
        System.out.printf("open: best of 7 = %.1f ms%n", best / 1e6);
    }

    /** A compressed A of 1,000,000 elements of 64 bytes written through the NIO API. */
    static void elements(Path file, boolean write) throws Exception {
        int n = 1_000_000;
        ScdaFileSystemProvider provider = new ScdaFileSystemProvider();
        if (write) {
            writeElements(provider, file, n);
        }
        readElements(provider, file, n);
    }

    static void writeElements(ScdaFileSystemProvider provider, Path file, int n) throws Exception {
        Files.deleteIfExists(file);
        long t0 = System.nanoTime();
        try (FileSystem fs = provider.newFileSystem(file, Map.of("create", true, "encode", true, "encodeLevel", 6))) {
            Path a = fs.getPath("/0000.A.million");
            Files.createDirectory(a);
            for (int i = 0; i < n; i++) {
                Files.write(a.resolve(String.format("%06d", i)), element(i));
            }
        }
        System.out.printf("elements: wrote %d compressed elements of 64 bytes in %.1f s, file %d bytes%n", n,
                (System.nanoTime() - t0) / 1e9, Files.size(file));
    }

    static void readElements(ScdaFileSystemProvider provider, Path file, int n) throws Exception {
        try (FileSystem fs = provider.newFileSystem(file, Map.of())) {
            Path a = fs.getPath("/0000.A.million");
            long t1 = System.nanoTime();
            Files.readAllBytes(a.resolve("000000"));
            System.out.printf("elements: first element read (builds the 1M-entry size table) %.1f ms%n", (System.nanoTime() - t1) / 1e6);
            Random r = new Random(1);
            int reads = 20_000;
            for (int warm = 0; warm < 2; warm++) {
                long t2 = System.nanoTime();
                long c2 = cpu();
                for (int k = 0; k < reads; k++) {
                    int i = r.nextInt(n);
                    byte[] got = Files.readAllBytes(a.resolve(String.format("%06d", i)));
                    if (!Arrays.equals(got, element(i))) {
                        throw new AssertionError("element " + i);
                    }
                }
                long dt = System.nanoTime() - t2;
                long dc = cpu() - c2;
                System.out.printf("elements: %d random element reads in %.1f ms wall (%.1f us each, %.0f elements/s), "
                        + "%.1f ms cpu (%.1f us each)%n", reads, dt / 1e6, dt / 1e3 / reads, reads / (dt / 1e9),
                        dc / 1e6, dc / 1e3 / reads);
            }
            long t3 = System.nanoTime();
            long c3 = cpu();
            long bytes = 0;
            try (var s = Files.newDirectoryStream(a)) {
                for (Path p : s) {
                    bytes += Files.readAllBytes(p).length;
                }
            }
            long dt = System.nanoTime() - t3;
            System.out.printf("elements: decoding the whole section (%d bytes) took %.1f s wall, %.1f s cpu%n", bytes, dt / 1e9,
                    (cpu() - c3) / 1e9);
        }
    }

    static byte[] element(int i) {
        byte[] b = new byte[64];
        for (int k = 0; k < 64; k++) {
            b[k] = (byte) ((i >>> (k % 4 * 8)) + k / 8);
        }
        return b;
    }

    /** A 1 GiB B block through the provider vs a raw FileChannel, 1 MiB writes, each with force at the end. */
    static void append(Path dir) throws Exception {
        byte[] chunk = new byte[1 << 20];
        new Random(2).nextBytes(chunk);
        int chunks = 1024;
        Path raw = dir.resolve("raw.bin");
        Files.deleteIfExists(raw);
        long t0 = System.nanoTime();
        try (FileChannel ch = FileChannel.open(raw, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (int i = 0; i < chunks; i++) {
                ByteBuffer b = ByteBuffer.wrap(chunk);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            ch.force(false);
        }
        double rawS = (System.nanoTime() - t0) / 1e9;
        Files.delete(raw);
        Path file = dir.resolve("block1g.scda");
        Files.deleteIfExists(file);
        ScdaFileSystemProvider provider = new ScdaFileSystemProvider();
        long t1 = System.nanoTime();
        try (FileSystem fs = provider.newFileSystem(file, Map.of("create", true, "sync", true))) {
            try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/0000.B.one GiB"),
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                for (int i = 0; i < chunks; i++) {
                    ch.write(ByteBuffer.wrap(chunk));
                }
            }
        }
        double scdaS = (System.nanoTime() - t1) / 1e9;
        System.out.printf("append: raw FileChannel 1 GiB in %.2f s (%.0f MiB/s); scda B section 1 GiB in %.2f s (%.0f MiB/s)%n",
                rawS, 1024 / rawS, scdaS, 1024 / scdaS);
        Files.delete(file);
    }
}
