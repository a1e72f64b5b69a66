package org.containerfs.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.containerfs.core.ContainerFileSystems;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Reading one file of any container end to end through the provider vs raw positional reads of the
 * byte ranges it is made of (one range for a record or block, many for a task stream spread over
 * blocks). Both sides read into the same 1 MiB direct buffer and open their channel per invocation.
 */
@State(Scope.Benchmark)
public class RangeReadBenchmark {
    @Param("")
    public String container;
    /** The file inside the container, e.g. {@code /task000000}. */
    @Param("")
    public String file;
    /** The container byte ranges the file's bytes are, in order: {@code offset:length,offset:length...}. */
    @Param("")
    public String ranges;

    private FileSystem fs;
    private Path inner;
    private Path raw;
    private long[] offsets;
    private long[] lengths;
    private long total;
    private ByteBuffer buffer;

    @Setup(Level.Trial)
    public void open() throws IOException {
        raw = Path.of(container);
        fs = ContainerFileSystems.open(raw);
        inner = fs.getPath(file);
        String[] parts = ranges.split(",");
        offsets = new long[parts.length];
        lengths = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String[] ol = parts[i].split(":");
            offsets[i] = Long.parseLong(ol[0]);
            lengths[i] = Long.parseLong(ol[1]);
            total += lengths[i];
        }
        if (Files.size(inner) != total) {
            throw new IllegalStateException(file + " has " + Files.size(inner) + " bytes, the ranges " + total);
        }
        buffer = ByteBuffer.allocateDirect(1 << 20);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        fs.close();
    }

    /** Encodes ranges for the {@code ranges} parameter. */
    public static String ranges(long[] offsets, long[] lengths) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < offsets.length; i++) {
            sb.append(i == 0 ? "" : ",").append(offsets[i]).append(':').append(lengths[i]);
        }
        return sb.toString();
    }

    @Benchmark
    public long containerfsRead() throws IOException {
        long moved = 0;
        try (SeekableByteChannel ch = Files.newByteChannel(inner)) {
            int n;
            while ((n = ch.read(buffer.clear())) > 0) {
                moved += n;
            }
        }
        return check(moved);
    }

    @Benchmark
    public long rawRead() throws IOException {
        long moved = 0;
        try (FileChannel ch = FileChannel.open(raw)) {
            for (int r = 0; r < offsets.length; r++) {
                long done = 0;
                while (done < lengths[r]) {
                    buffer.clear().limit((int) Math.min(buffer.capacity(), lengths[r] - done));
                    int n = ch.read(buffer, offsets[r] + done);
                    if (n < 0) {
                        break;
                    }
                    done += n;
                }
                moved += done;
            }
        }
        return check(moved);
    }

    private long check(long moved) {
        if (moved != total) {
            throw new IllegalStateException("moved " + moved + " of " + total + " bytes");
        }
        return moved;
    }
}
