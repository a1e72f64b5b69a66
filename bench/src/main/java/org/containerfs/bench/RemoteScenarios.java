package org.containerfs.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.s3.S3Containers;
import org.containerfs.s3.S3TestServer;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Scenario 9 ({@code --only remote}): containers in an S3-compatible store (s3proxy in this JVM on
 * 127.0.0.1, objects on disk, every request counted as the server received it), read by containerfs
 * ({@code s3://}: exact ranged GETs behind the core's block cache) and by {@code aws-java-nio-spi-for-s3}
 * with its defaults ({@code s3x://} Paths opened by the same formats through that provider's channel and
 * read-ahead, {@code blockCache=false}: what the issue measured before the core had a block cache).
 * Each cell: requests (of which HEAD), bytes moved, amplification (bytes moved / bytes needed), time.
 * Then everything again with every request made 20 ms slower by the server, standing in for the
 * issue's 20 ms netem round trip (this kernel has no sch_netem), so that the request count decides the time.
 */
final class RemoteScenarios implements FormatScenarios {
    private static final String BUCKET = "bench";
    private static final String[] TITLES = {
        "9 remote: open + list 100,000 LIME records (first open)",
        "9 remote: open + list 100,000 LIME records (second open; containerfs from its index cache)",
        "9 remote: one 16-byte LIME record, after the open",
        "9 remote: 100 random 16-byte LIME records, after the open",
        "9 remote: 100 random GSD chunks, after the open",
        "9 remote: open a .g3.gz and read a random key",
        "9 remote: a big LIME record read in order vs one plain SDK ranged GET",
    };

    private S3TestServer server;
    private Path indexCache;

    @Override
    public String name() {
        return "remote";
    }

    @Override
    public List<String> titles() {
        return List.of(TITLES);
    }

    /** What one operation cost, as the server saw it. */
    record Cost(long requests, long heads, long bytes, long needed, double seconds) {
        String cell() {
            return String.format("%d req (%d HEAD), %s, x%.2f, %.0f ms", requests, heads, size(bytes),
                    needed == 0 ? 0.0 : (double) bytes / needed, seconds * 1000);
        }
    }

    interface Operation {
        void run() throws Exception;
    }

    private Cost measure(long needed, Operation op) throws Exception {
        server.reset();
        long t0 = System.nanoTime();
        op.run();
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (server.mutating() != 0) {
            throw new IllegalStateException("a read sent a mutating request: " + server.requests());
        }
        return new Cost(server.total(), server.count("HEAD"), server.bodyBytes(), needed, seconds);
    }

    @Override
    public List<Row> run(Context context) throws Exception {
        Path work = context.workDir();
        Path store = Files.createDirectories(work.resolve("s3-store"));
        indexCache = Files.createDirectories(work.resolve("index-cache"));
        Map<String, String> saved = new HashMap<>();
        server = new S3TestServer(store);
        try {
            // the SDK's standard configuration, for containerfs and for the NIO SPI alike
            for (String[] p : new String[][] {{"aws.accessKeyId", S3TestServer.ACCESS_KEY},
                    {"aws.secretAccessKey", S3TestServer.SECRET_KEY}, {"aws.region", "us-east-1"},
                    {"aws.endpointUrlS3", server.endpoint().toString()}, {"s3.spi.endpoint-protocol", "http"}}) {
                saved.put(p[0], System.setProperty(p[0], p[1]));
            }
            server.createBucket(BUCKET);
            Inputs inputs = upload(context, work);
            List<Row> rows = new ArrayList<>(measureAll(context, inputs, ""));
            // netem needs the kernel's sch_netem (absent here): the server waits instead, so every request
            // costs 20 ms more, as a round trip would, and the request count decides the time
            server.delayEachRequest(java.time.Duration.ofMillis(20));
            indexCache = Files.createDirectories(work.resolve("index-cache-delayed"));
            rows.addAll(measureAll(context, inputs, " [+20 ms per request]"));
            return rows;
        } finally {
            server.close();
            saved.forEach((k, v) -> {
                if (v == null) {
                    System.clearProperty(k);
                } else {
                    System.setProperty(k, v);
                }
            });
        }
    }

    private URI s3(String key) {
        return URI.create("s3://" + BUCKET + "/" + key);
    }

    private Path s3x(String key) {
        return Paths.get(URI.create("s3x://127.0.0.1:" + server.endpoint().getPort() + "/" + BUCKET + "/" + key));
    }

    private FileSystem containerfs(String key) throws IOException {
        // a persisted index cache of this run's own, never the user's
        return S3Containers.open(s3(key), Map.of("indexCache", indexCache.toString()));
    }

    /** The SPI as it reads by itself: through its own channel and read-ahead, without the core's block cache. */
    private FileSystem spi(String key) throws IOException {
        return ContainerFileSystems.open(s3x(key), Map.of("blockCache", "false"));
    }

    interface Opener {
        FileSystem open(String key) throws IOException;
    }

    /** What was uploaded, and what the measurements need to know about it. */
    record Inputs(int records, int frames, int g3Frames, long gzSize, String keyPath, int keyLength, long bigLength) {}

    private Inputs upload(Context context, Path work) throws Exception {
        int records = 100_000;
        Path lime = work.resolve("small.lime");
        LimeInputs.smallRecords(lime, records);
        server.put(BUCKET, "small.lime", lime);
        Files.delete(lime);

        int frames = (int) context.size(20_000, 5_000);
        Path gsd = work.resolve("traj.gsd");
        GsdScenarios.generate(gsd, frames);
        server.put(BUCKET, "traj.gsd", gsd);
        Files.delete(gsd);

        int g3Frames = (int) context.size(2_000, 500);
        Path plain = work.resolve("scan.g3");
        Path gz = work.resolve("scan.g3.gz");
        G3Inputs.Layout layout;
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz), 1 << 16) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        }) {
            layout = G3Inputs.write(plain, g3Frames, out);
        }
        server.put(BUCKET, "scan.g3.gz", gz);
        long gzSize = Files.size(gz);
        Files.delete(plain);
        Files.delete(gz);
        int frame = new Random(6).nextInt(g3Frames);

        long bigLength = context.size(1L << 30, 256L << 20);
        Path big = work.resolve("big.lime");
        LimeInputs.oneRecord(big, bigLength);
        server.put(BUCKET, "big.lime", big);
        Files.delete(big);
        return new Inputs(records, frames, g3Frames, gzSize, String.format("/%06d.Scan/%s", frame, G3Inputs.READ_KEY),
                layout.readKeyLength(), bigLength);
    }

    private List<Row> measureAll(Context context, Inputs in, String label) throws Exception {
        List<Row> rows = new ArrayList<>();
        Opener ours = this::containerfs;
        Opener theirs = this::spi;
        int records = in.records();
        long headers = (long) records * LimeInputs.HEADER;
        for (int pass = 0; pass < 2; pass++) {
            Cost a = measure(headers, () -> listAll(ours, "small.lime", records));
            Cost b = measure(headers, () -> listAll(theirs, "small.lime", records));
            rows.add(row(TITLES[pass] + label, a, b));
        }
        for (int which = 0; which < 2; which++) {
            int reads = which == 0 ? 1 : 100;
            Cost[] costs = new Cost[2];
            for (int side = 0; side < 2; side++) {
                try (FileSystem fs = (side == 0 ? ours : theirs).open("small.lime")) {
                    List<Path> all = regularFiles(fs);
                    Collections.shuffle(all, new Random(which));
                    List<Path> picked = all.subList(0, reads);
                    costs[side] = measure(16L * reads, () -> readAll(picked));
                }
            }
            rows.add(row(TITLES[2 + which] + label, costs[0], costs[1]));
        }

        Cost[] chunks = new Cost[2];
        for (int side = 0; side < 2; side++) {
            try (FileSystem fs = (side == 0 ? ours : theirs).open("traj.gsd")) {
                List<Path> positions = new ArrayList<>();
                Random r = new Random(4);
                for (int i = 0; i < 100; i++) {
                    positions.add(fs.getPath("/" + r.nextInt(in.frames()) + "/particles/position"));
                }
                chunks[side] = measure(100L * 16 * 12, () -> readAll(positions));
            }
        }
        rows.add(row(TITLES[4] + String.format(" (%,d frames)", in.frames()) + label, chunks[0], chunks[1]));

        Cost[] key = new Cost[2];
        for (int side = 0; side < 2; side++) {
            Opener opener = side == 0 ? ours : theirs;
            key[side] = measure(in.keyLength(), () -> {
                try (FileSystem fs = opener.open("scan.g3.gz")) {
                    Files.readAllBytes(fs.getPath(in.keyPath()));
                }
            });
        }
        rows.add(row(TITLES[5] + String.format(" (%s compressed, %,d frames)", size(in.gzSize()), in.g3Frames())
                + label, key[0], key[1]));

        rows.add(bigRecord(context, in.bigLength(), label));
        return rows;
    }

    /** containerfs streaming one record vs one ranged GET of the same bytes with the plain SDK client. */
    private Row bigRecord(Context context, long length, String label) throws Exception {
        double best = Double.MAX_VALUE;
        double bestSdk = Double.MAX_VALUE;
        Cost ours = null;
        Cost sdk = null;
        for (int round = 0; round < context.rounds(); round++) {
            Cost c = measure(length, () -> {
                try (FileSystem fs = containerfs("big.lime");
                        SeekableByteChannel ch = Files.newByteChannel(fs.getPath(LimeInputs.BIG_RECORD))) {
                    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
                    long total = 0;
                    for (int n; (n = ch.read(buf.clear())) > 0; ) {
                        total += n;
                    }
                    check(total, length);
                }
            });
            Cost s = measure(length, () -> {
                try (ResponseInputStream<GetObjectResponse> in = server.bulk().getObject(b -> b.bucket(BUCKET)
                        .key("big.lime").range("bytes=" + LimeInputs.HEADER + "-" + (LimeInputs.HEADER + length - 1)))) {
                    check(drain(in), length);
                }
            });
            if (c.seconds() < best) {
                best = c.seconds();
                ours = c;
            }
            if (s.seconds() < bestSdk) {
                bestSdk = s.seconds();
                sdk = s;
            }
        }
        double ratio = bestSdk / best;
        return new Row(TITLES[6] + String.format(" (%s; best of %d; MB/s %.0f vs %.0f)", size(length),
                context.rounds(), length / best / 1e6, length / bestSdk / 1e6) + label, ours.cell(), sdk.cell(),
                String.format("%.2f", ratio), ">= 0.9", Row.atLeast(ratio, 0.9));
    }

    private static void check(long got, long expected) {
        if (got != expected) {
            throw new IllegalStateException("read " + got + " bytes, expected " + expected);
        }
    }

    private static long drain(InputStream in) throws IOException {
        byte[] buf = new byte[1 << 20];
        long total = 0;
        for (int n; (n = in.read(buf)) > 0; ) {
            total += n;
        }
        return total;
    }

    private static Row row(String title, Cost ours, Cost theirs) {
        // the ratio compares bytes moved (the SPI's over containerfs'); blank when containerfs moved none
        return new Row(title, ours.cell(), theirs.cell(),
                ours.bytes() == 0 ? "" : String.format("%.1f", theirs.bytes() / (double) ours.bytes()), "report",
                Row.Verdict.INFO);
    }

    private static void listAll(Opener opener, String key, int expected) throws IOException {
        try (FileSystem fs = opener.open(key)) {
            int n = regularFiles(fs).size();
            if (n != expected) {
                throw new IllegalStateException(key + ": listed " + n + " records, expected " + expected);
            }
        }
    }

    private static List<Path> regularFiles(FileSystem fs) throws IOException {
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            return new ArrayList<>(walk.filter(Files::isRegularFile).toList());
        }
    }

    private static void readAll(List<Path> files) throws IOException {
        for (Path p : files) {
            Files.readAllBytes(p);
        }
    }

    private static String size(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format("%.2f GiB", bytes / (double) (1L << 30));
        }
        if (bytes >= 1L << 20) {
            return String.format("%.1f MiB", bytes / (double) (1L << 20));
        }
        return String.format("%.1f KiB", bytes / 1024.0);
    }
}
