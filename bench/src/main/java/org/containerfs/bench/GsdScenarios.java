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
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
        return List.of("4 GSD random chunk reads vs python3-gsd");
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
        return List.of(new Row(String.format(
                "4 GSD: %,d random (frame, chunk) reads of a %,d-frame file, Files.readAllBytes vs python3-gsd read_chunk",
                reads, frames), String.format("%.2f µs/read", cfs), String.format("%.2f µs/read", ref),
                String.format("%.2f", ratio), ">= 1.0", Row.unlessNoisy(Row.atLeast(ratio, 1.0),
                        python.stream().mapToDouble(Double::doubleValue).toArray(),
                        java.stream().mapToDouble(Double::doubleValue).toArray(), context.measurements())));
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
                attribute("gsd:type", type), attribute("gsd:M", m))) {
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }

    private static FileAttribute<Object> attribute(String name, Object value) {
        return new FileAttribute<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Object value() {
                return value;
            }
        };
    }
}
