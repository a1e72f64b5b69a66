package org.containerfs.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.containerfs.core.ContainerFileSystems;

/**
 * Scenario 7: G3. One key of a random frame of a .g3.gz read through the restart index vs inflating
 * the stream from its start up to that key (what a sequential reader such as spt3g must do); the
 * first open of the .g3.gz (the one pass that builds the index) and a reopen from the persisted
 * index; the open of the same frames uncompressed. All report-only: the issue sets no targets.
 */
final class G3Scenarios implements FormatScenarios {
    private static final Map<String, Object> PERSIST_INDEX = Map.of("gzipIndex", true);
    /** A first open every time: the index is built and saved as .zidx, never taken from the index cache. */
    private static final Map<String, Object> FIRST_OPEN = Map.of("gzipIndex", true, "indexCache", "off");

    @Override
    public String name() {
        return "g3";
    }

    @Override
    public String unavailableBecause() {
        return Formats.missing("g3");
    }

    @Override
    public List<String> titles() {
        return List.of("7 G3 .g3.gz random key read", "7 G3 .g3.gz first open", "7 G3 .g3.gz reopen",
                "7 G3 open uncompressed", "7 G3 open+list uncompressed",
                "7 G3 open+walk uncompressed");
    }

    @Override
    public List<Row> run(Context context) throws Exception {
        int frames = (int) context.size(100_000, 10_000);
        Path plain = context.workDir().resolve("scans.g3");
        Path gz = context.workDir().resolve("scans.g3.gz");
        Context.log("scenario 7: writing a G3 file of %,d frames and a gzip -1 copy", frames);
        long t0 = System.nanoTime();
        G3Inputs.Layout layout = writeBoth(plain, gz, frames);
        Context.log("  %s uncompressed, %s compressed, in %.1f s", mib(layout.bytes()), mib(Files.size(gz)),
                (System.nanoTime() - t0) / 1e9);
        Row open = openUncompressed(context, plain, frames, layout.bytes());
        List<Row> list = openAndListUncompressed(context, plain, frames);
        Files.delete(plain);
        List<Row> rows = new ArrayList<>(compressed(context, gz, frames, layout));
        rows.add(open);
        rows.addAll(list);
        return rows;
    }

    /** The plain file and its gzip -1 copy in one pass: gzip (far faster than java.util.zip here) reads a pipe. */
    private static G3Inputs.Layout writeBoth(Path plain, Path gz, int frames) throws IOException, InterruptedException {
        Process gzip;
        try {
            gzip = new ProcessBuilder("gzip", "-1", "-n", "-c").redirectOutput(gz.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException noGzip) {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz), 1 << 16) {
                {
                    def.setLevel(Deflater.BEST_SPEED);
                }
            }) {
                return G3Inputs.write(plain, frames, out);
            }
        }
        G3Inputs.Layout layout;
        try (OutputStream pipe = gzip.getOutputStream()) {
            layout = G3Inputs.write(plain, frames, pipe);
        } finally {
            if (!gzip.waitFor(10, TimeUnit.MINUTES)) {
                gzip.destroyForcibly();
            }
        }
        if (gzip.exitValue() != 0) {
            throw new IOException("gzip -1 exited with " + gzip.exitValue());
        }
        return layout;
    }

    /**
     * Random key reads of the .g3.gz: in each round, for frames picked at random (one in each equal
     * stretch of the stream, so the baseline's distance averages half the stream), containerfs
     * (open from the persisted index, then read the key, timed apart) and the baseline alternate.
     */
    private List<Row> compressed(Context context, Path gz, int frames, G3Inputs.Layout layout) throws Exception {
        Path index = gz.resolveSibling(gz.getFileName() + ".zidx");
        Files.deleteIfExists(index);
        String size = String.format("%s .g3.gz (%s, %,d frames)", mib(layout.bytes()), mib(Files.size(gz)), frames);

        // One pass each: the open's limit is inflating everything with native zlib. Also warms the page cache.
        // The first open in this JVM (what one CLI command pays, JIT included) is reported beside the row; the row
        // itself is the median of interleaved rounds, each a first open again (.zidx deleted, no index cache).
        Context.log("scenario 7: inflating the whole stream (GZIPInputStream), then the first open");
        Timed firstOpenAction = () -> {
            Files.deleteIfExists(index);
            try (FileSystem fs = ContainerFileSystems.open(gz, FIRST_OPEN)) {
                expect(fs, frames, "saved");
            }
        };
        double coldGunzip = seconds(() -> sequentialRead(gz, layout.bytes(), 0));
        double coldOpen = seconds(firstOpenAction);
        Context.log("  GZIPInputStream %.2f s, first open %.2f s (first in this JVM)", coldGunzip, coldOpen);
        int openRounds = (int) context.size(5, 2);
        double[] gunzips = new double[openRounds];
        double[] opens = new double[openRounds];
        for (int round = 0; round < openRounds; round++) {
            if (round % 2 == 0) {
                opens[round] = seconds(firstOpenAction);
                gunzips[round] = seconds(() -> sequentialRead(gz, layout.bytes(), 0));
            } else {
                gunzips[round] = seconds(() -> sequentialRead(gz, layout.bytes(), 0));
                opens[round] = seconds(firstOpenAction);
            }
            Context.log("  round %d/%d: GZIPInputStream %.2f s, first open %.2f s", round + 1, openRounds, gunzips[round],
                    opens[round]);
        }
        double openRatio = Context.pairedRatio(gunzips, opens, 1);

        int picks = (int) context.size(4, 6);
        Random random = new Random(7);
        int[] picked = new int[picks];
        for (int i = 0; i < picks; i++) {
            picked[i] = (int) ((long) frames * i / picks) + random.nextInt(frames / picks);
        }
        // The first open compiled the scan; the random-read path (restart, CRC check) compiles here.
        for (int w = 0; w < context.warmups(); w++) {
            containerfsRead(gz, random.nextInt(frames), layout, frames, new double[2]);
        }
        List<Double> reopen = new ArrayList<>();
        List<Double> read = new ArrayList<>();
        List<Double> sequential = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < context.rounds(); round++) {
            for (int i = 0; i < picks; i++) {
                int frame = picked[(i + round) % picks];
                double[] ours = new double[2];
                byte[][] got = new byte[2][];
                double[] base = new double[1];
                Context.Action containerfs = () -> got[0] = containerfsRead(gz, frame, layout, frames, ours);
                Context.Action baseline = () -> base[0] = seconds(
                        () -> got[1] = sequentialRead(gz, layout.readKeyOffsets()[frame], layout.readKeyLength()));
                if ((round + i) % 2 == 0) {
                    containerfs.run();
                    baseline.run();
                } else {
                    baseline.run();
                    containerfs.run();
                }
                if (!Arrays.equals(got[0], got[1])) {
                    throw new IllegalStateException("frame " + frame + ": containerfs and GZIPInputStream read different bytes");
                }
                reopen.add(ours[0]);
                read.add(ours[1]);
                sequential.add(base[0]);
                ratios.add(base[0] / ours[1]);
            }
            Context.log("  round %d/%d: reopen %s s, read %s ms, sequential %s s", round + 1, context.rounds(),
                    format(reopen.subList(reopen.size() - picks, reopen.size()), 1, "%.3f"),
                    format(read.subList(read.size() - picks, read.size()), 1e3, "%.1f"),
                    format(sequential.subList(sequential.size() - picks, sequential.size()), 1, "%.2f"));
        }
        double heap = retainedHeap(gz, PERSIST_INDEX, frames, "loaded");
        Files.delete(gz);
        Files.deleteIfExists(index);
        return List.of(
                new Row(String.format("7 G3: read the %d-byte %s key of a random frame of a %s: restart index "
                        + "(after opening from the persisted index) vs GZIPInputStream from the start up to the key",
                        layout.readKeyLength(), G3Inputs.READ_KEY, size),
                        LimeScenarios.seconds(median(read)), LimeScenarios.seconds(median(sequential)),
                        String.format("%.0f", median(ratios)), "report", Row.Verdict.INFO),
                new Row(String.format("7 G3: first open of that .g3.gz (one pass: frame index and a restart point every "
                        + "4 MiB, saved as .zidx) vs inflating the whole stream with GZIPInputStream (interleaved "
                        + "rounds; the first open in a fresh JVM: %s vs %s)", LimeScenarios.seconds(coldOpen),
                        LimeScenarios.seconds(coldGunzip)),
                        LimeScenarios.seconds(Context.median(opens)), LimeScenarios.seconds(Context.median(gunzips)),
                        String.format("%.2f", openRatio), ">= 1.0 (issue 16)",
                        Row.unlessNoisy(Row.atLeast(openRatio, 1.0), 1.0, gunzips, opens, 1)),
                new Row("7 G3: reopen of that .g3.gz from its persisted index (.zidx), and the heap it retains",
                        String.format("%s, %s", LimeScenarios.seconds(median(reopen)), mib((long) heap)), "", "", "report",
                        Row.Verdict.INFO));
    }

    /** Opens from the persisted index and reads one key; {@code times} gets the open's and the read's seconds. */
    private static byte[] containerfsRead(Path gz, int frame, G3Inputs.Layout layout, int frames, double[] times)
            throws IOException {
        long t0 = System.nanoTime();
        try (FileSystem fs = ContainerFileSystems.open(gz, PERSIST_INDEX)) {
            long t1 = System.nanoTime();
            byte[] key = Files.readAllBytes(fs.getPath(String.format("/%06d.Scan/%s", frame, G3Inputs.READ_KEY)));
            long t2 = System.nanoTime();
            times[0] = (t1 - t0) / 1e9;
            times[1] = (t2 - t1) / 1e9;
            if (key.length != layout.readKeyLength()) {
                throw new IllegalStateException("frame " + frame + ": read " + key.length + " bytes, expected "
                        + layout.readKeyLength());
            }
            return key;
        }
    }

    /** What a reader without an index does: inflate from the start, discard up to {@code offset}, read the bytes. */
    private static byte[] sequentialRead(Path gz, long offset, int length) throws IOException {
        byte[] discard = new byte[1 << 16];
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz), 1 << 16)) {
            long left = offset;
            while (left > 0) {
                int n = in.read(discard, 0, (int) Math.min(discard.length, left));
                if (n < 0) {
                    throw new IOException(gz + " ends before byte " + offset);
                }
                left -= n;
            }
            byte[] bytes = in.readNBytes(length);
            if (bytes.length != length) {
                throw new IOException(gz + " ends inside the " + length + " bytes at " + offset);
            }
            return bytes;
        }
    }

    /** Scenario 7b: the open of an uncompressed file indexes every frame and key; time and retained heap. */
    private Row openUncompressed(Context context, Path plain, int frames, long bytes) throws Exception {
        Context.log("scenario 7: opening the uncompressed file");
        Map<String, double[]> t = context.inProcess(Map.of("open", () -> {
            try (FileSystem fs = ContainerFileSystems.open(plain)) {
                expect(fs, frames, null);
            }
        }));
        double open = Context.median(t.get("open"));
        Context.log("  open %s s", Arrays.toString(t.get("open")));
        double perFrame = retainedHeap(plain, Map.of(), frames, null) / frames;
        return new Row(String.format("7 G3: open an uncompressed %s .g3 of %,d frames (index of every frame and key), "
                + "and the heap it retains", mib(bytes), frames),
                String.format("%s (%.2f µs/frame), %.0f bytes/frame", LimeScenarios.seconds(open), open * 1e6 / frames,
                        perFrame), "", "", "report", Row.Verdict.INFO);
    }

    /**
     * The heap in use (after full GCs) with the file system open, minus before: the median of three
     * opens, since a JDK cache released by the GC between the two readings (soft references) can
     * turn a single reading negative at the quick run's size.
     */
    private static double retainedHeap(Path file, Map<String, ?> env, int frames, String indexWas) throws IOException {
        double[] heap = new double[3];
        for (int i = 0; i < heap.length; i++) {
            long before = LimeScenarios.usedHeapAfterGc();
            try (FileSystem fs = ContainerFileSystems.open(file, env)) {
                heap[i] = LimeScenarios.usedHeapAfterGc() - before;
                expect(fs, frames, indexWas);
            }
        }
        return Context.median(heap);
    }

    /**
     * Scenario 3's measure for G3: open + list every name (the frame directories and their keys)
     * against the raw part of an open, a walk over the frames' headers, key and blob lengths with a
     * FileChannel (in 1 MiB windows, since frames of 10 KiB leave no bytes worth skipping).
     */
    private List<Row> openAndListUncompressed(Context context, Path plain, int frames) throws Exception {
        for (int i = 0; i < 5; i++) {
            listNames(plain, frames);
            rawFrameWalk(plain, frames);
        }
        Map<String, Context.Action> actions = new java.util.LinkedHashMap<>();
        actions.put("containerfs", () -> listNames(plain, frames));
        actions.put("raw", () -> rawFrameWalk(plain, frames));
        Map<String, double[]> t = context.inProcess(actions);
        double list = Context.median(t.get("containerfs"));
        double raw = Context.median(t.get("raw"));
        // every frame of G3Inputs holds four keys
        double walk = Context.median(context.inProcess(Map.of("walk", () -> LimeScenarios.openAndWalk(plain, frames * 4))).get("walk"));
        return List.of(new Row("7 G3: open + list every name of that .g3 (raw: frame walk with FileChannel)",
                String.format("%s (%.2f µs/frame)", LimeScenarios.seconds(list), list * 1e6 / frames),
                LimeScenarios.seconds(raw), String.format("%.2f", raw / list), ">= 0.5 (issue 16: <= 2x the raw walk)",
                Row.unlessNoisy(Row.atLeast(raw / list, 0.5), 0.5, t.get("raw"), t.get("containerfs"), context.measurements())),
                new Row("7 G3: open + walk with attributes (Files.walkFileTree) of that .g3",
                        String.format("%s (%.2f µs/frame)", LimeScenarios.seconds(walk), walk * 1e6 / frames),
                        LimeScenarios.seconds(raw), String.format("%.2f", raw / walk), ">= 0.33 (<= 3x)",
                        Row.atLeast(raw / walk, 1 / 3.0)));
    }

    private static void listNames(Path file, int frames) throws IOException {
        int listed = 0;
        try (FileSystem fs = ContainerFileSystems.open(file);
                java.nio.file.DirectoryStream<Path> dirs = Files.newDirectoryStream(fs.getPath("/"))) {
            for (Path frame : dirs) {
                try (java.nio.file.DirectoryStream<Path> keys = Files.newDirectoryStream(frame)) {
                    for (Path key : keys) {
                        listed += key.getFileName().toString().isEmpty() ? 0 : 1;
                    }
                }
            }
        }
        if (listed < frames) {
            throw new IllegalStateException(file + ": listed " + listed + " keys in " + frames + " frames");
        }
    }

    /** The physical part of an open: every frame header, key length and blob length, stepping over keys, blobs and CRCs. */
    private static void rawFrameWalk(Path file, int expected) throws IOException {
        int count = 0;
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
            long size = ch.size();
            java.nio.ByteBuffer w = java.nio.ByteBuffer.allocate(1 << 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            long ws = 0;
            long pos = 0;
            w.limit(0);
            while (pos < size) {
                long at = pos;
                if (at - ws + 13 > w.limit()) {
                    ws = fill(ch, w, at);
                }
                int n = w.getInt((int) (at - ws) + 5);
                at += 13;
                for (int e = 0; e < n; e++) {
                    if (at - ws + 8 > w.limit()) {
                        ws = fill(ch, w, at);
                    }
                    at += 8 + w.getLong((int) (at - ws));
                    if (at - ws + 8 > w.limit()) {
                        ws = fill(ch, w, at);
                    }
                    at += 8 + w.getLong((int) (at - ws));
                }
                pos = at + 4;
                count++;
            }
        }
        if (count != expected) {
            throw new IllegalStateException(file + ": walked " + count + " frames, expected " + expected);
        }
    }

    private static long fill(java.nio.channels.FileChannel ch, java.nio.ByteBuffer w, long from) throws IOException {
        w.clear();
        while (w.hasRemaining() && ch.read(w, from + w.position()) > 0) {
            // fill what the file has
        }
        w.flip();
        return from;
    }

    /** Checks the open found every frame and, for a .g3.gz, whether it saved or loaded the index. */
    private static void expect(FileSystem fs, int frames, String indexWas) throws IOException {
        Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "g3:*");
        if (!Integer.valueOf(frames).equals(root.get("frames"))) {
            throw new IllegalStateException("opened " + root.get("frames") + " frames, expected " + frames);
        }
        if (indexWas != null && !String.valueOf(root.get("restartIndex")).startsWith(indexWas)) {
            throw new IllegalStateException("the restart index was not " + indexWas + ": " + root.get("restartIndex"));
        }
    }

    @FunctionalInterface
    private interface Timed {
        void run() throws IOException;
    }

    private static double seconds(Timed action) throws IOException {
        long t0 = System.nanoTime();
        action.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double median(List<Double> values) {
        return Context.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static String format(List<Double> values, double scale, String pattern) {
        return values.stream().map(v -> String.format(pattern, v * scale)).toList().toString();
    }

    private static String mib(long bytes) {
        return bytes >= 1000L << 20 ? String.format("%.2f GiB", bytes / (double) (1L << 30))
                : String.format("%.1f MiB", bytes / (double) (1L << 20));
    }
}
