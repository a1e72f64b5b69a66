package org.containerfs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The request bounds, counted as the server received them: opens in few requests, a record
 * in one exact GET, random records without read amplification, and no mutating request ever.
 */
class S3RequestBoundsTest extends WithS3Server {
    static final int BLOCK = 1 << 20;
    static final int ALIGNMENT = 64 << 10;
    static final int LIME_RECORDS = 100_000;
    static final int BIG_RECORD = 24 << 20;
    static long limeSmallSize;
    static long limeBigSize;
    static long gsdSize;

    @BeforeAll
    static void upload(@TempDir Path dir) throws Exception {
        server.createBucket("bounds");
        byte[] small = TestInputs.limeSmallRecords(LIME_RECORDS);
        limeSmallSize = small.length;
        server.put("bounds", "ens/small.lime", small);
        byte[] big = TestInputs.limeBigRecord(BIG_RECORD);
        limeBigSize = big.length;
        server.put("bounds", "ens/big.lime", big);
        byte[] gsd = TestInputs.gsdTrajectory(dir, 400);
        gsdSize = gsd.length;
        server.put("bounds", "md/traj.gsd", gsd);
        Path corpus = Path.of(System.getProperty("containerfs.corpus"));
        byte[] blob = Files.readAllBytes(corpus.resolve("g3/big-blob-800k.g3"));
        server.put("bounds", "cmb/three.g3", concat(blob, blob, blob));
    }

    static FileSystem open(String key) throws IOException {
        return S3Containers.open(URI.create("s3://bounds/" + key), server.env());
    }

    private static String seen() {
        return server.byMethod() + " " + server.bodyBytes() + " bytes: " + server.requests();
    }

    @Test
    void openingAHundredThousandLimeRecordsFetchesEachBlockOnce() throws IOException {
        try (FileSystem fs = open("ens/small.lime")) {
            long records;
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                records = walk.filter(Files::isRegularFile).count();
            }
            assertThat(records).isEqualTo(LIME_RECORDS);
            Captured.note("lime 100k open+list: " + seen());
            // the open's GET of the first block is the first of the scan's block reads: no HEAD
            assertThat(server.count("HEAD")).as(seen()).isZero();
            assertThat(server.count("GET")).as(seen()).isLessThanOrEqualTo((limeSmallSize + BLOCK - 1) / BLOCK);
            assertThat(server.bodyBytes()).as(seen()).isLessThanOrEqualTo(limeSmallSize);
        }
        assertThat(server.mutating()).isZero();
    }

    /** The index cache directory SecretScanTest greps too. */
    static final Path INDEX_CACHE = Path.of("target/s3-index-cache");

    @Test
    void aReopenFromTheIndexCacheIsOneRequest() throws IOException {
        Map<String, Object> cached = server.env("indexCache", INDEX_CACHE.toString());
        List<String> first;
        try (FileSystem fs = S3Containers.open(URI.create("s3://bounds/ens/small.lime"), cached)) {
            first = listing(fs);
        }
        server.reset();
        try (FileSystem fs = S3Containers.open(URI.create("s3://bounds/ens/small.lime"), cached)) {
            assertThat(listing(fs)).isEqualTo(first).hasSize(LIME_RECORDS + LIME_RECORDS / 10 + 1);
            Captured.note("lime 100k reopen from the index cache: " + seen());
            // the open's GET (size and ETag, which key the cached index, and the first block) and nothing else
            assertThat(server.total()).as(seen()).isEqualTo(1);
        }
        try (Stream<Path> entries = Files.walk(INDEX_CACHE)) {
            assertThat(entries.filter(Files::isRegularFile).count()).as("an entry was written locally").isPositive();
        }
        assertThat(server.mutating()).isZero();
    }

    private static List<String> listing(FileSystem fs) throws IOException {
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            return walk.map(Path::toString).toList();
        }
    }

    @Test
    void openingABigRecordLimeFileTakesTwoRequests() throws IOException {
        try (FileSystem fs = open("ens/big.lime")) {
            assertThat(Files.size(fs.getPath("/msg01/rec03.ildg-binary-data"))).isEqualTo(BIG_RECORD);
            Captured.note("lime big-record open: " + seen());
            // the first block, then the header after the record (a HEAD and these two before)
            assertThat(server.total()).as(seen()).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void openingAGsdTrajectoryTakesTwoRequests() throws IOException {
        try (FileSystem fs = open("md/traj.gsd")) {
            assertThat(Files.exists(fs.getPath("/399/particles/position"))).isTrue();
            Captured.note("gsd open: " + seen());
            assertThat(gsdSize).isGreaterThan(4L * BLOCK);
            // the first block (header), then one read of the index the header points to
            assertThat(server.total()).as(seen()).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void openingAG3FileOfBigFramesTakesThreeRequests() throws IOException {
        long framesOfOne;
        try (FileSystem one = org.containerfs.core.ContainerFileSystems.open(
                Path.of(System.getProperty("containerfs.corpus"), "g3/big-blob-800k.g3"));
                Stream<Path> list = Files.list(one.getPath("/"))) {
            framesOfOne = list.count();
        }
        try (FileSystem fs = open("cmb/three.g3")) {
            try (Stream<Path> list = Files.list(fs.getPath("/"))) {
                assertThat(list.count()).isEqualTo(3 * framesOfOne);
            }
            Captured.note("g3 open: " + seen());
            assertThat(server.count("HEAD")).as(seen()).isZero();
            assertThat(server.total()).as(seen()).isLessThanOrEqualTo(3);
        }
    }

    @Test
    void oneRecordIsOneGetOfItsBytesRoundedToTheAlignment() throws IOException {
        try (FileSystem fs = open("md/traj.gsd")) {
            Path chunk = fs.getPath("/200/particles/position");
            server.reset();
            byte[] bytes = Files.readAllBytes(chunk);
            assertThat(bytes).hasSize(12_000);
            Captured.note("gsd one chunk: " + seen());
            assertThat(server.byMethod()).as(seen()).isEqualTo(Map.of("GET", 1L));
            assertThat(server.bodyBytes()).as(seen()).isLessThanOrEqualTo(roundedToAlignment(bytes.length));
        }
    }

    @Test
    void oneSmallRecordOfABigLimeFileIsOneGet() throws IOException {
        try (FileSystem fs = open("ens/big.lime")) {
            server.reset();
            try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/msg01/rec03.ildg-binary-data"))) {
                ch.position(BIG_RECORD / 2);
                ByteBuffer b = ByteBuffer.allocate(64);
                while (b.hasRemaining() && ch.read(b) > 0) {
                    // fill
                }
            }
            Captured.note("lime 64 bytes inside a big record: " + seen());
            assertThat(server.byMethod()).as(seen()).isEqualTo(Map.of("GET", 1L));
            assertThat(server.bodyBytes()).as(seen()).isLessThanOrEqualTo(ALIGNMENT);
        }
    }

    @Test
    void aHundredRandomRecordsTakeAtMostAHundredGetsAndTwiceTheirBytes() throws IOException {
        try (FileSystem fs = open("md/traj.gsd")) {
            List<Path> chunks = new ArrayList<>();
            for (int f = 0; f < 400; f++) {
                chunks.add(fs.getPath("/" + f + "/particles/position"));
            }
            java.util.Collections.shuffle(chunks, new Random(3));
            server.reset();
            long needed = 0;
            for (Path p : chunks.subList(0, 100)) {
                needed += Files.readAllBytes(p).length;
            }
            Captured.note("gsd 100 random chunks: " + seen());
            assertThat(server.count("GET")).as(seen()).isLessThanOrEqualTo(100);
            assertThat(server.total()).as(seen()).isEqualTo(server.count("GET"));
            assertThat(server.bodyBytes()).as(seen()).isLessThanOrEqualTo(2 * needed);
        }
    }

    @Test
    void aHundredRandomSmallReadsInABigRecordTakeAtMostAHundredGetsAndTwiceTheirBytes() throws IOException {
        try (FileSystem fs = open("ens/big.lime")) {
            Random random = new Random(9);
            server.reset();
            long needed = 0;
            try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/msg01/rec03.ildg-binary-data"))) {
                for (int i = 0; i < 100; i++) {
                    ByteBuffer b = ByteBuffer.allocate(4096);
                    ch.position(random.nextInt(BIG_RECORD - 4096));
                    while (b.hasRemaining() && ch.read(b) > 0) {
                        // fill
                    }
                    needed += 4096;
                }
            }
            Captured.note("lime 100 random 4 KiB reads: " + seen());
            assertThat(server.count("GET")).as(seen()).isLessThanOrEqualTo(100);
            assertThat(server.bodyBytes()).as(seen()).isLessThanOrEqualTo(2 * needed);
        }
    }

    /**
     * A big record read in order: after the read-ahead's first few ranges, the rest of the run is one ranged GET
     * read straight into the reader's buffers (a request per 16 MiB range before). Closing the file system in the
     * middle aborts that GET: the server sends little more than was read, not the rest of the object.
     */
    @Test
    void aBigRecordReadInOrderIsAFewGetsAndClosingAbortsTheRest() throws Exception {
        int huge = 96 << 20;
        server.put("bounds", "ens/huge.lime", TestInputs.limeBigRecord(huge));
        byte[] expected = new byte[huge];
        new Random(11).nextBytes(expected);
        java.security.MessageDigest want = java.security.MessageDigest.getInstance("SHA-256");
        want.update(expected);
        String record = "/msg01/rec03.ildg-binary-data";
        try (FileSystem fs = open("ens/huge.lime")) {
            server.reset();
            java.security.MessageDigest got = java.security.MessageDigest.getInstance("SHA-256");
            long total = 0;
            try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath(record))) {
                ByteBuffer b = ByteBuffer.allocateDirect(BLOCK);
                for (int n; (n = ch.read(b.clear())) > 0; ) {
                    got.update(b.flip());
                    total += n;
                }
            }
            Captured.note("lime 96 MiB record in order: " + server.byMethod() + " " + server.bodyBytes() + " bytes");
            assertThat(total).isEqualTo(huge);
            assertThat(got.digest()).isEqualTo(want.digest());
            // the first read, then one GET for the rest (four while a run needed four reads in a row; about a
            // dozen with a request per read-ahead range)
            assertThat(server.count("GET")).as(seen()).isLessThanOrEqualTo(2);
            assertThat(server.bodyBytes()).as(seen()).isLessThanOrEqualTo(huge + 2L * BLOCK);
        }
        long read = 0;
        try (FileSystem fs = open("ens/huge.lime")) {
            server.reset();
            try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath(record))) {
                ByteBuffer b = ByteBuffer.allocateDirect(BLOCK);
                while (read < huge / 3 && ch.read(b.clear()) > 0) {
                    read += b.position();
                }
            }
        }
        Captured.note("lime 96 MiB record, a third then close: " + server.byMethod() + " " + server.bodyBytes() + " bytes");
        // read, the read-ahead window ahead of it, and what the connection had buffered; draining would send it all
        assertThat(server.bodyBytes()).as(seen()).isLessThan(read + (32L << 20));
    }

    /** The bytes of a read once both ends are rounded outwards to the alignment. */
    static long roundedToAlignment(long length) {
        return (length + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT + ALIGNMENT;
    }

    static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
