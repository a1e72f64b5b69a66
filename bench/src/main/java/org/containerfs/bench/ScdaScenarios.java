package org.containerfs.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.containerfs.core.ContainerFileSystems;

/**
 * Scenario 5: scda. A 1 GiB block (B section) read whole vs a raw FileChannel read of its data range;
 * one element of a compressed array (the paper's convention: every element deflated and base64-coded
 * on its own) vs decoding the whole section.
 */
final class ScdaScenarios implements FormatScenarios {
    private static final String BLOCK = "/0000.B.block";
    private static final String ARRAY = "/0000.A.array";
    private static final int ELEMENT_BYTES = 16;
    private static final int SAMPLED_ELEMENTS = 200;

    @Override
    public String name() {
        return "scda";
    }

    @Override
    public String unavailableBecause() {
        return Formats.missing("scda");
    }

    @Override
    public List<String> titles() {
        return List.of("5 scda block read", "5 scda compressed element");
    }

    @Override
    public List<Row> run(Context context) throws Exception {
        List<Row> rows = new ArrayList<>();
        rows.add(block(context));
        rows.add(element(context));
        return rows;
    }

    private Row block(Context context) throws Exception {
        long length = context.size(1L << 30, 256L << 20);
        Path file = context.workDir().resolve("block.scda");
        Context.log("scenario 5: writing an scda file with one block of %s (through the provider)", LimeScenarios.bytes(length));
        long dataOffset;
        try (FileSystem fs = ContainerFileSystems.create(file, "scda")) {
            try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath(BLOCK), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ByteBuffer chunk = LimeInputs.payloadChunk();
                for (long w = 0; w < length; w += chunk.capacity()) {
                    chunk.clear().limit((int) Math.min(chunk.capacity(), length - w));
                    while (chunk.hasRemaining()) {
                        ch.write(chunk);
                    }
                }
            }
        }
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            dataOffset = ((Number) Files.getAttribute(fs.getPath(BLOCK), "scda:dataOffset")).longValue();
        }
        Map<String, double[]> t = context.jmh(RangeReadBenchmark.class, List.of("containerfsRead", "rawRead"),
                Map.of("container", file.toString(), "file", BLOCK,
                        "ranges", RangeReadBenchmark.ranges(new long[] {dataOffset}, new long[] {length})),
                context.quick() ? 4 : 1, "-Xmx1g", "--sun-misc-unsafe-memory-access=allow");
        Files.delete(file);
        return LimeScenarios.throughputRow(context, "5 read a " + LimeScenarios.bytes(length)
                + " scda block (newByteChannel) vs FileChannel.read of its data range", length,
                t.get("containerfsRead"), t.get("rawRead"), 0.95);
    }

    private Row element(Context context) throws Exception {
        int count = (int) context.size(1_000_000, 100_000);
        Path file = context.workDir().resolve("array.scda");
        Context.log("scenario 5: writing a compressed scda array of %,d elements of %d bytes (through the provider)",
                count, ELEMENT_BYTES);
        try (FileSystem fs = ContainerFileSystems.create(file, "scda", Map.of("encode", true))) {
            Path dir = Files.createDirectory(fs.getPath(ARRAY));
            ByteBuffer element = ByteBuffer.allocate(ELEMENT_BYTES);
            for (int i = 0; i < count; i++) {
                element.clear();
                element.putLong(i).putLong((long) i * i).flip();
                try (SeekableByteChannel ch = Files.newByteChannel(dir.resolve(String.format("%06d", i)),
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ch.write(element);
                }
            }
        }
        Random random = new Random(11);
        int[] picks = new int[SAMPLED_ELEMENTS];
        for (int i = 0; i < picks.length; i++) {
            picks[i] = random.nextInt(count);
        }
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            Path dir = fs.getPath(ARRAY);
            Map<String, Context.Action> actions = new LinkedHashMap<>();
            actions.put("one", () -> {
                for (int p : picks) {
                    byte[] b = Files.readAllBytes(dir.resolve(String.format("%06d", p)));
                    if (ByteBuffer.wrap(b).getLong() != p) {
                        throw new IllegalStateException("element " + p + " decoded wrong");
                    }
                }
            });
            actions.put("whole", () -> decodeAll(dir, count));
            Map<String, double[]> t = context.inProcess(actions);
            double one = Context.median(t.get("one")) / picks.length;
            double whole = Context.median(t.get("whole"));
            Files.delete(file);
            return new Row(String.format("5 read one element of a compressed scda array of %,d elements vs decode the whole section",
                    count), LimeScenarios.seconds(one), LimeScenarios.seconds(whole), String.format("%.0f", whole / one),
                    "report", Row.Verdict.INFO);
        }
    }

    /** Every element in order, through one directory listing: what a reader without random access does. */
    private static void decodeAll(Path dir, int count) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(ELEMENT_BYTES);
        int seen = 0;
        try (DirectoryStream<Path> elements = Files.newDirectoryStream(dir)) {
            for (Path e : elements) {
                try (SeekableByteChannel ch = Files.newByteChannel(e)) {
                    buf.clear();
                    while (buf.hasRemaining() && ch.read(buf) > 0) {
                        // fill
                    }
                }
                if (buf.getLong(0) != seen) {
                    throw new IllegalStateException("element " + seen + " decoded wrong");
                }
                seen++;
            }
        }
        if (seen != count) {
            throw new IllegalStateException("decoded " + seen + " of " + count + " elements");
        }
    }
}
