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
 * Scenario 1: reading one large LIME record end to end, through the provider and raw. Each
 * invocation opens a channel (both sides), moves every byte of the record's payload range, and
 * closes it. {@code transferTo} sends to a loopback TCP connection drained by another thread (the
 * zero-copy path a server uses; /dev/null would not move the bytes at all), the same sink on both sides.
 */
@State(Scope.Benchmark)
public class LimeReadBenchmark {
    /** The container made by {@link LimeInputs#oneRecord}. */
    @Param("")
    public String container;

    private FileSystem fs;
    private Path record;
    private Path file;
    private long offset;
    private long length;
    private ByteBuffer buffer;
    private LoopbackSink sink;

    @Setup(Level.Trial)
    public void open() throws IOException {
        file = Path.of(container);
        fs = ContainerFileSystems.open(file);
        record = fs.getPath(LimeInputs.BIG_RECORD);
        offset = (long) Files.getAttribute(record, "lime:dataOffset");
        length = Files.size(record);
        buffer = ByteBuffer.allocateDirect(1 << 20);
        sink = new LoopbackSink();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        fs.close();
        sink.close();
    }

    @Benchmark
    public long containerfsRead() throws IOException {
        long total = 0;
        try (SeekableByteChannel ch = Files.newByteChannel(record)) {
            int n;
            while ((n = ch.read(buffer.clear())) > 0) {
                total += n;
            }
        }
        return check(total);
    }

    @Benchmark
    public long rawRead() throws IOException {
        long total = 0;
        try (FileChannel ch = FileChannel.open(file)) {
            while (total < length) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), length - total));
                int n = ch.read(buffer, offset + total);
                if (n < 0) {
                    break;
                }
                total += n;
            }
        }
        return check(total);
    }

    @Benchmark
    public long containerfsTransferTo() throws IOException {
        long total = 0;
        try (FileChannel ch = FileChannel.open(record)) {
            while (total < length) {
                long n = ch.transferTo(total, length - total, sink.channel());
                if (n <= 0) {
                    break;
                }
                total += n;
            }
        }
        return check(total);
    }

    @Benchmark
    public long rawTransferTo() throws IOException {
        long total = 0;
        try (FileChannel ch = FileChannel.open(file)) {
            while (total < length) {
                long n = ch.transferTo(offset + total, length - total, sink.channel());
                if (n <= 0) {
                    break;
                }
                total += n;
            }
        }
        return check(total);
    }

    private long check(long total) {
        if (total != length) {
            throw new IllegalStateException("moved " + total + " of " + length + " bytes");
        }
        return total;
    }
}
