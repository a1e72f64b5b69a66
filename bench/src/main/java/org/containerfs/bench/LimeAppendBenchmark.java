package org.containerfs.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.containerfs.core.ContainerFileSystems;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Scenario 2: appending to a LIME container through the provider vs writing the same bytes with a
 * raw FileChannel. Every invocation starts from an empty file (made, and deleted afterwards, outside
 * the timed part) so the page cache does not keep growing with dirty pages.
 */
public class LimeAppendBenchmark {
    private static final StandardOpenOption[] NEW_FILE = {StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE};

    /** Sizes of both append scenarios; the harness sets them (quick runs use smaller ones). */
    @State(Scope.Benchmark)
    public static class Sizes {
        @Param("")
        public String dir;
        @Param("1073741824")
        public long bigRecordBytes;
        @Param("100000")
        public int smallRecords;
        @Param("1024")
        public int smallRecordBytes;

        ByteBuffer chunk;
        ByteBuffer small;

        @Setup(Level.Trial)
        public void buffers() {
            chunk = LimeInputs.payloadChunk();
            small = ByteBuffer.allocateDirect(smallRecordBytes);
            for (int i = 0; i < smallRecordBytes; i++) {
                small.put(i, (byte) i);
            }
        }

        Path file(String name) {
            return Path.of(dir, name);
        }
    }

    /**
     * A freshly created, empty LIME container open for appending. Each invocation appends its records
     * as a new message, so a warm-up batch of several invocations fits in one container.
     */
    @State(Scope.Benchmark)
    public static class ContainerfsTarget {
        Path file;
        FileSystem fs;
        int messages;

        Path nextMessage() throws IOException {
            messages++;
            return Files.createDirectory(fs.getPath((messages < 10 ? "/msg0" : "/msg") + messages));
        }

        @Setup(Level.Iteration)
        public void create(Sizes sizes) throws IOException {
            file = sizes.file("append-containerfs.lime");
            Files.deleteIfExists(file);
            fs = ContainerFileSystems.create(file, "lime");
            messages = 0;
        }

        @TearDown(Level.Iteration)
        public void delete() throws IOException {
            fs.close();
            Files.deleteIfExists(file);
        }
    }

    /** A freshly created, empty file open with a raw FileChannel. */
    @State(Scope.Benchmark)
    public static class RawTarget {
        Path file;
        FileChannel channel;

        @Setup(Level.Iteration)
        public void create(Sizes sizes) throws IOException {
            file = sizes.file("append-raw.lime");
            Files.deleteIfExists(file);
            channel = FileChannel.open(file, NEW_FILE);
        }

        @TearDown(Level.Iteration)
        public void delete() throws IOException {
            channel.close();
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    public long containerfsAppendBig(Sizes sizes, ContainerfsTarget target) throws IOException {
        Path message = target.nextMessage();
        long written = 0;
        try (SeekableByteChannel ch = Files.newByteChannel(message.resolve("rec01." + LimeInputs.BIG_TYPE), NEW_FILE)) {
            while (written < sizes.bigRecordBytes) {
                sizes.chunk.clear().limit((int) Math.min(sizes.chunk.capacity(), sizes.bigRecordBytes - written));
                written += ch.write(sizes.chunk);
            }
        }
        return written;
    }

    @Benchmark
    public long rawWriteBig(Sizes sizes, RawTarget target) throws IOException {
        FileChannel ch = target.channel;
        long written = writeAll(ch, LimeInputs.header(true, true, sizes.bigRecordBytes, LimeInputs.BIG_TYPE));
        while (written < LimeInputs.HEADER + sizes.bigRecordBytes) {
            sizes.chunk.clear().limit((int) Math.min(sizes.chunk.capacity(),
                    LimeInputs.HEADER + sizes.bigRecordBytes - written));
            written += writeAll(ch, sizes.chunk);
        }
        ch.close();
        return written;
    }

    /** Each record is its own channel, committed by its close (header write + ME update). */
    @Benchmark
    public long containerfsAppendSmall(Sizes sizes, ContainerfsTarget target) throws IOException {
        String message = target.nextMessage().toString();
        String suffix = "." + LimeInputs.BIG_TYPE;
        long written = 0;
        for (int i = 1; i <= sizes.smallRecords; i++) {
            Path record = target.fs.getPath(message, (i < 10 ? "rec0" : "rec") + i + suffix);
            try (SeekableByteChannel ch = Files.newByteChannel(record, NEW_FILE)) {
                written += ch.write(sizes.small.clear());
            }
        }
        return written;
    }

    /** The same bytes, one gathering write of header + payload per record. */
    @Benchmark
    public long rawWriteSmall(Sizes sizes, RawTarget target) throws IOException {
        FileChannel ch = target.channel;
        long written = 0;
        ByteBuffer[] pair = new ByteBuffer[2];
        for (int i = 1; i <= sizes.smallRecords; i++) {
            pair[0] = LimeInputs.header(i == 1, i == sizes.smallRecords, sizes.smallRecordBytes, LimeInputs.BIG_TYPE);
            pair[1] = sizes.small.clear();
            while (pair[1].hasRemaining()) {
                written += ch.write(pair);
            }
        }
        return written; // the channel stays open for the next invocation of a warm-up batch

    }

    private static long writeAll(FileChannel ch, ByteBuffer b) throws IOException {
        long n = 0;
        while (b.hasRemaining()) {
            n += ch.write(b);
        }
        return n;
    }
}
