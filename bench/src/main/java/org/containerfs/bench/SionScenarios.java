package org.containerfs.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;

/** Scenario 6: a SIONlib task stream spread over 64 blocks, read whole vs raw reads of its chunks. */
final class SionScenarios implements FormatScenarios {
    static final int BLOCKS = 64;

    @Override
    public String name() {
        return "sion";
    }

    @Override
    public String unavailableBecause() {
        return Formats.missing("sion");
    }

    @Override
    public List<String> titles() {
        return List.of("6 SIONlib task stream over 64 blocks");
    }

    @Override
    public List<Row> run(Context context) throws Exception {
        long total = context.size(1L << 30, 256L << 20);
        int chunk = (int) (total / BLOCKS);
        Path file = context.workDir().resolve("stream.sion");
        Context.log("scenario 6: writing a SION file with one task of %s in %d blocks", LimeScenarios.bytes(total), BLOCKS);
        oneTaskManyBlocks(file, chunk, BLOCKS);
        String ranges;
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            Path task = fs.getPath("/task000000");
            ranges = RangeReadBenchmark.ranges((long[]) Files.getAttribute(task, "sion:chunkOffsets"),
                    (long[]) Files.getAttribute(task, "sion:chunkSizes"));
        }
        Map<String, double[]> t = context.jmh(RangeReadBenchmark.class, List.of("containerfsRead", "rawRead"),
                Map.of("container", file.toString(), "file", "/task000000", "ranges", ranges),
                context.quick() ? 4 : 1, "-Xmx1g", "--sun-misc-unsafe-memory-access=allow");
        Files.delete(file);
        return List.of(LimeScenarios.throughputRow(context, String.format(
                "6 read a SIONlib task stream of %s over %d blocks (newByteChannel) vs FileChannel.read of the %d chunks",
                LimeScenarios.bytes(total), BLOCKS, BLOCKS), total, t.get("containerfsRead"), t.get("rawRead"), 0.95));
    }

    /**
     * A SION file (format version 5, little-endian metadata, as SIONlib 1.7 writes it) with one task
     * whose chunk capacity is {@code chunk} bytes (also the file system block size) and which filled
     * {@code blocks} chunks: the layout of sion.md sections 1 and 3.
     */
    static void oneTaskManyBlocks(Path file, int chunk, int blocks) throws IOException {
        int ntasks = 1;
        long meta1 = 1088 + 16L * ntasks;
        long startOfData = (meta1 + chunk - 1) / chunk * chunk;
        long startOfVarheader = startOfData + (long) blocks * chunk;
        ByteBuffer head = ByteBuffer.allocate((int) meta1).order(ByteOrder.LITTLE_ENDIAN);
        head.put("sion".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(0).putInt(1007).putInt(6).putInt(5)
                .putInt(chunk).putInt(ntasks).putInt(1).putInt(1).putLong(50L << 32).putLong(0);
        byte[] prefix = new byte[1024];
        byte[] name = file.getFileName().toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, prefix, 0, name.length);
        head.put(prefix).putLong(0).putLong(chunk).putInt(blocks).putLong(startOfVarheader);
        ByteBuffer meta2 = ByteBuffer.allocate(8 * ntasks + 8 * ntasks * blocks + 4 + 8).order(ByteOrder.LITTLE_ENDIAN);
        meta2.putLong(blocks);
        for (int b = 0; b < blocks; b++) {
            meta2.putLong(chunk);
        }
        meta2.putInt(1).putInt(0).putInt(0);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeAll(ch, head.flip(), 0);
            ByteBuffer payload = LimeInputs.payloadChunk();
            for (long at = startOfData; at < startOfVarheader; at += payload.capacity()) {
                payload.clear().limit((int) Math.min(payload.capacity(), startOfVarheader - at));
                writeAll(ch, payload, at);
            }
            writeAll(ch, meta2.flip(), startOfVarheader);
        }
    }

    private static void writeAll(FileChannel ch, ByteBuffer b, long at) throws IOException {
        long p = at;
        while (b.hasRemaining()) {
            p += ch.write(b, p);
        }
    }
}
