package org.containerfs.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.nio.channels.FileChannel;
import java.nio.file.SimpleFileVisitor;
import org.containerfs.core.ContainerFileSystems;

/**
 * Scenario 4: random {@code (frame, chunk)} reads of a GSD file through the provider vs python3-gsd's
 * {@code read_chunk} (the reference C library) with the same sequence, each timed inside its own
 * process after warm-up passes; the two alternate round by round.
 */
final class GsdScenarios implements FormatScenarios {
    private static final String PYTHON = "/usr/bin/python3";
    private static final String[] NAMES = {"configuration/step", "particles/position", "particles/typeid", "log/energy"};

    @Override
    public String name() {
        return "gsd";
    }

    @Override
    public String unavailableBecause() {
        String missing = Formats.missing("gsd");
        if (missing != null) {
            return missing;
        }
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import gsd.fl").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return "python3-gsd (the baseline) is not installed: apt-get install python3-gsd";
            }
        } catch (IOException | InterruptedException e) {
            return "cannot run " + PYTHON + ": " + e.getMessage();
        }
        return null;
    }

    @Override
    public List<String> titles() {
        return List.of("4 GSD random chunk reads vs python3-gsd", "4 GSD open+list");
    }

    @Override
    public List<Row> run(Context context) throws Exception {
        int frames = (int) context.size(20_000, 2_000);
        int reads = (int) context.size(100_000, 20_000);
        Path file = context.workDir().resolve("frames.gsd");
        Context.log("scenario 4: writing a GSD file of %,d frames x 4 chunks (through the provider)", frames);
        generate(file, frames);
        Random random = new Random(12345);
        Path sequence = context.workDir().resolve("gsd-sequence.txt");
        String[] paths = new String[reads];
        StringBuilder seq = new StringBuilder();
        for (int i = 0; i < reads; i++) {
            int frame = random.nextInt(frames);
            String name = NAMES[random.nextInt(NAMES.length)];
            paths[i] = "/" + frame + "/" + name;
            seq.append(frame).append(' ').append(name).append('\n');
        }
        Files.writeString(sequence, seq);
        Path script = context.workDir().resolve("gsd_read_chunks.py");
        try (InputStream in = GsdScenarios.class.getResourceAsStream("gsd_read_chunks.py")) {
            Files.copy(in, script);
        }
        List<Double> java = new ArrayList<>();
        List<Double> python = new ArrayList<>();
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            // The JIT needs more than the C library's warm-up: passes are cheap, so give it ten.
            for (int w = 0; w < Math.max(10, context.warmups()); w++) {
                pass(fs, paths);
            }
            for (int round = 0; round < context.rounds(); round++) {
                List<Double> py = python(script, file, sequence, context.warmups(), context.measurements());
                python.addAll(py);
                for (int m = 0; m < context.measurements(); m++) {
                    java.add(pass(fs, paths));
                }
                Context.log("  round %d/%d: python3-gsd %s us/read; containerfs %s us/read", round + 1, context.rounds(),
                        rounded(py), rounded(java.subList(java.size() - context.measurements(), java.size())));
            }
        }
        Files.delete(file);
        double cfs = Context.median(java.stream().mapToDouble(Double::doubleValue).toArray());
        double ref = Context.median(python.stream().mapToDouble(Double::doubleValue).toArray());
        double ratio = Context.pairedRatio(python.stream().mapToDouble(Double::doubleValue).toArray(),
                java.stream().mapToDouble(Double::doubleValue).toArray(), context.measurements());
        List<Row> rows = new ArrayList<>();
        rows.add(new Row(String.format(
                "4 GSD: %,d random (frame, chunk) reads of a %,d-frame file, Files.readAllBytes vs python3-gsd read_chunk",
                reads, frames), String.format("%.2f µs/read", cfs), String.format("%.2f µs/read", ref),
                String.format("%.2f", ratio), ">= 1.0", Row.unlessNoisy(Row.atLeast(ratio, 1.0), 1.0,
                        python.stream().mapToDouble(Double::doubleValue).toArray(),
                        java.stream().mapToDouble(Double::doubleValue).toArray(), context.measurements())));
        rows.addAll(openAndList(context));
        return rows;
    }

    /**
     * Open + list of a file of 10^6 chunks (250,000 frames of 4), in scenario 3's style: every name of the
     * tree through directory streams, then a walk with attributes, against the raw part of an open (the
     * header, the name list and every 32-byte index slot with its frame and name id, read with a FileChannel
     * in 1 MiB reads: what a minimal reader does to know every name); and the heap the open
     * file system retains per chunk.
     */
    private List<Row> openAndList(Context context) throws Exception {
        int frames = (int) context.size(250_000, 25_000);
        int chunks = frames * 4;
        Path file = context.workDir().resolve("open-list.gsd");
        Context.log("scenario 4: writing a GSD file of %,d chunks for open + list", chunks);
        generate(file, frames);
        for (int i = 0; i < 5; i++) {
            listNames(file, chunks);
            rawIndexWalk(file, chunks);
        }
        Map<String, Context.Action> actions = new java.util.LinkedHashMap<>();
        actions.put("containerfs", () -> listNames(file, chunks));
        actions.put("raw", () -> rawIndexWalk(file, chunks));
        Map<String, double[]> t = context.inProcess(actions);
        double list = Context.median(t.get("containerfs"));
        double raw = Context.median(t.get("raw"));
        double walk = Context.median(context.inProcess(Map.of("walk", () -> LimeScenarios.openAndWalk(file, chunks))).get("walk"));
        double[] heap = new double[3];
        for (int i = 0; i < heap.length; i++) {
            long before = LimeScenarios.usedHeapAfterGc();
            try (FileSystem fs = ContainerFileSystems.open(file)) {
                Files.walkFileTree(fs.getPath("/"), new SimpleFileVisitor<>() {});
                heap[i] = Math.max(0, LimeScenarios.usedHeapAfterGc() - before);
            }
        }
        Files.delete(file);
        String what = String.format("of a GSD file of %,d chunks in %,d frames", chunks, frames);
        return List.of(
                new Row("4 GSD: open + list every name " + what + " (raw: header, name list and every index slot's frame and name id, read with FileChannel)",
                        String.format("%s (%.2f µs/chunk)", LimeScenarios.seconds(list), list * 1e6 / chunks),
                        LimeScenarios.seconds(raw), String.format("%.2f", raw / list), ">= 0.5 (issue 16: <= 2x the raw walk)",
                        Row.unlessNoisy(Row.atLeast(raw / list, 0.5), 0.5, t.get("raw"), t.get("containerfs"), context.measurements())),
                new Row("4 GSD: open + walk with attributes (Files.walkFileTree) " + what,
                        String.format("%s (%.2f µs/chunk)", LimeScenarios.seconds(walk), walk * 1e6 / chunks),
                        LimeScenarios.seconds(raw), String.format("%.2f", raw / walk), ">= 0.33 (<= 3x)",
                        Row.atLeast(raw / walk, 1 / 3.0)),
                new Row("4 GSD: retained heap with that file open", String.format("%.1f bytes/chunk",
                        Context.median(heap) / chunks), "", "", "<= 32 bytes/chunk", Row.atMost(Context.median(heap) / chunks, 32)));
    }

    /**
     * Every name of the tree through directory streams, as ls -R; counts the chunk files. The generated
     * chunk names have two parts (configuration/step): frame, group and chunk are three levels.
     */
    static void listNames(Path file, int expected) throws IOException {
        long[] files = {0};
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            listNames(fs.getPath("/"), 3, files);
        }
        if (files[0] != expected) {
            throw new IllegalStateException(file + ": listed " + files[0] + " chunks, expected " + expected);
        }
    }

    private static void listNames(Path dir, int levels, long[] files) throws IOException {
        try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (levels > 1) {
                    listNames(p, levels - 1, files);
                } else {
                    files[0] += p.getFileName().toString().isEmpty() ? 0 : 1;
                }
            }
        }
    }

    /**
     * What a minimal reader must do to know every name: the header, the name list (NUL-terminated names
     * in its block), then every index slot (32 bytes) in 1 MiB reads up to the first empty one, taking
     * each entry's frame and name id (a chunk is "frame/name"), without building a string per entry.
     */
    static void rawIndexWalk(Path file, int expected) throws IOException {
        int count = 0;
        long check = 0;
        try (FileChannel ch = FileChannel.open(file)) {
            ByteBuffer header = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
            readFully(ch, header, 0);
            long location = header.getLong(8);
            long slots = header.getLong(16);
            ByteBuffer nameBlock = ByteBuffer.allocate((int) (header.getLong(32) * 64));
            readFully(ch, nameBlock, header.getLong(24));
            List<byte[]> names = new ArrayList<>();
            for (int at = 0, start = 0; at < nameBlock.limit(); at++) {
                if (nameBlock.get(at) == 0) {
                    if (at == start) {
                        break; // an empty name ends the list
                    }
                    names.add(java.util.Arrays.copyOfRange(nameBlock.array(), start, at));
                    start = at + 1;
                }
            }
            ByteBuffer window = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
            long done = 0;
            scan:
            while (done < slots) {
                window.clear().limit((int) Math.min(window.capacity(), (slots - done) * 32));
                readFully(ch, window, location + done * 32);
                for (int at = 0; at + 32 <= window.limit(); at += 32) {
                    if (window.getLong(at + 16) == 0) {
                        break scan;
                    }
                    int id = window.getShort(at + 28) & 0xFFFF;
                    if (id >= names.size()) {
                        throw new IllegalStateException(file + ": name id " + id + " of " + names.size() + " names");
                    }
                    check += window.getLong(at) + names.get(id).length;
                    count++;
                }
                done += window.limit() / 32;
            }
        }
        if (count != expected || check <= 0) {
            throw new IllegalStateException(file + ": " + count + " index entries, expected " + expected);
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer into, long at) throws IOException {
        while (into.hasRemaining() && ch.read(into, at + into.position()) > 0) {
            // fill what the file has
        }
        into.flip();
    }

    private static List<String> rounded(List<Double> values) {
        return values.stream().map(v -> String.format("%.2f", v)).toList();
    }

    /** One pass over the sequence; microseconds per read. */
    private static double pass(FileSystem fs, String[] paths) throws IOException {
        long sink = 0;
        long t0 = System.nanoTime();
        for (String p : paths) {
            sink += Files.readAllBytes(fs.getPath(p)).length;
        }
        long t1 = System.nanoTime();
        if (sink == 0) {
            throw new IllegalStateException("read nothing");
        }
        return (t1 - t0) / 1e3 / paths.length;
    }

    private static List<Double> python(Path script, Path file, Path sequence, int warmups, int passes)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(PYTHON, script.toString(), file.toString(), sequence.toString(),
                Integer.toString(warmups), Integer.toString(passes)).redirectErrorStream(true).start();
        List<Double> out = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                all.append(line).append('\n');
                if (line.startsWith("pass ")) {
                    out.add(Double.parseDouble(line.substring(5)));
                }
            }
        }
        if (p.waitFor() != 0 || out.size() != passes) {
            throw new IOException("python3-gsd baseline failed:\n" + all);
        }
        return out;
    }

    /** Frames as HOOMD writes them: a step, positions and type ids of 16 particles, an energy. */
    static void generate(Path file, int frames) throws IOException {
        Map<String, Object> env = new HashMap<>();
        env.put("schema", "hoomd");
        env.put("schemaVersion", "1.4");
        Random r = new Random(1);
        try (FileSystem fs = ContainerFileSystems.create(file, "gsd", env)) {
            for (int f = 0; f < frames; f++) {
                Files.createDirectory(fs.getPath("/" + f));
                chunk(fs.getPath("/" + f + "/configuration%2Fstep"), "uint64", 1,
                        ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, f * 1000L).array());
                byte[] pos = new byte[16 * 12];
                r.nextBytes(pos);
                chunk(fs.getPath("/" + f + "/particles%2Fposition"), "float", 3, pos);
                chunk(fs.getPath("/" + f + "/particles%2Ftypeid"), "uint32", 1, new byte[16 * 4]);
                byte[] e = new byte[8];
                r.nextBytes(e);
                chunk(fs.getPath("/" + f + "/log%2Fenergy"), "double", 1, e);
            }
        }
    }

    private static void chunk(Path chunk, String type, int m, byte[] data) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(chunk,
                EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                ContainerFileSystems.attribute("gsd:type", type), ContainerFileSystems.attribute("gsd:M", m))) {
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }

}
