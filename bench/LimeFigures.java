import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.containerfs.core.ContainerFileSystems;

/**
 * The figures of issue 2, measured in one process:
 *   java -Xmx4g -cp provider/target/classes bench/LimeFigures.java [workdir] [records]
 * 1. open time and retained heap of a LIME file with N small records (default 1,000,000);
 * 2. read throughput of a 1 GiB record through the provider vs a raw FileChannel of the same range.
 */
public class LimeFigures {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir"));
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        Path small = dir.resolve("figures-small.lime");
        writeSmallRecords(small, n);
        for (int round = 0; round < 3; round++) {
            long before = usedHeap();
            long t0 = System.nanoTime();
            FileSystem fs = ContainerFileSystems.open(small);
            long openNanos = System.nanoTime() - t0;
            long after = usedHeap();
            int records = (int) Files.getAttribute(fs.getPath("/"), "lime:records");
            System.out.printf("open %,d records (%,d bytes): %.3f s, retained heap %,d bytes = %.1f bytes/record%n",
                    records, Files.size(small), openNanos / 1e9, after - before, (after - before) / (double) records);
            fs.close();
        }
        Files.delete(small);

        Path big = dir.resolve("figures-big.lime");
        long length = 1L << 30;
        writeOneRecord(big, length);
        double[] raw = new double[5];
        double[] viaProvider = new double[5];
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        try (FileSystem fs = ContainerFileSystems.open(big); FileChannel rawChannel = FileChannel.open(big)) {
            Path rec = fs.getPath("/msg01/rec01.ildg-binary-data");
            for (int i = 0; i < raw.length; i++) {
                raw[i] = timeRaw(rawChannel, buf, 144, length);
                viaProvider[i] = timeProvider(rec, buf, length);
            }
        }
        Arrays.sort(raw);
        Arrays.sort(viaProvider);
        double rawMiBs = length / raw[2] / (1 << 20);
        double provMiBs = length / viaProvider[2] / (1 << 20);
        System.out.printf("1 GiB record, median of 5 interleaved runs, 1 MiB direct buffer: raw FileChannel %.0f MiB/s,"
                + " provider %.0f MiB/s, ratio %.3f%n", rawMiBs, provMiBs, provMiBs / rawMiBs);
        Files.delete(big);
    }

    static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static double timeRaw(FileChannel ch, ByteBuffer buf, long offset, long length) throws Exception {
        long t0 = System.nanoTime();
        long pos = 0;
        while (pos < length) {
            buf.clear();
            int r = ch.read(buf, offset + pos);
            pos += r;
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    static double timeProvider(Path rec, ByteBuffer buf, long length) throws Exception {
        long t0 = System.nanoTime();
        long pos = 0;
        try (SeekableByteChannel ch = Files.newByteChannel(rec)) {
            while (pos < length) {
                buf.clear();
                pos += ch.read(buf);
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    static ByteBuffer header(boolean mb, boolean me, long length, String type) {
        ByteBuffer h = ByteBuffer.allocate(144);
        h.putInt(0x456789AB).putShort((short) 1).put((byte) ((mb ? 0x80 : 0) | (me ? 0x40 : 0))).put((byte) 0)
                .putLong(length).put(type.getBytes());
        return h.clear();
    }

    static void writeSmallRecords(Path file, int n) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer block = ByteBuffer.allocate(160 * 4096);
            for (int i = 0; i < n; i++) {
                if (!block.hasRemaining() || block.remaining() < 160) {
                    ch.write(block.flip());
                    block.clear();
                }
                block.put(header(i % 10 == 0, i % 10 == 9 || i == n - 1, 16, i % 2 == 0 ? "scidac-record-xml" : "ildg-binary-data"));
                block.putLong(i).putLong(~i);
            }
            ch.write(block.flip());
        }
    }

    static void writeOneRecord(Path file, long length) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(header(true, true, length, "ildg-binary-data"));
            ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
            for (int i = 0; i < chunk.capacity(); i++) {
                chunk.put(i, (byte) (i * 31));
            }
            for (long w = 0; w < length; w += chunk.capacity()) {
                chunk.clear();
                ch.write(chunk);
            }
        }
    }
}
