package org.containerfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Hadoop input on {@code s3a://}: hadoop-aws with the individual AWS SDK modules (no bundle), against s3proxy
 * on 127.0.0.1 in this JVM. Requests are counted as the server received them.
 */
class S3aContainerInputTest {
    static final int LIME_RECORDS = 20_000;
    static final int BLOCK = 1 << 20;
    static S3aTestServer server;
    static long limeSize;

    @BeforeAll
    static void upload(@TempDir Path dir) throws Exception {
        server = new S3aTestServer();
        server.createBucket("corpus");
        for (String format : List.of("lime", "gsd", "scda", "sion", "g3")) {
            try (Stream<Path> files = Files.list(HadoopContainerInputTest.corpus(format))) {
                for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    server.put("corpus", format + "/" + file.getFileName(), file);
                }
            }
        }
        Path lime = HadoopContainerInputTest.limeOfSmallRecords(dir.resolve("many.lime"), LIME_RECORDS);
        limeSize = Files.size(lime);
        server.createBucket("bounds");
        server.put("bounds", "ens/many.lime", lime);
        server.put("bounds", "ens/huge.lime", limeOfOneBigRecord(dir.resolve("huge.lime")));
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    static FileSystem s3a(String bucket, String streamType) throws Exception {
        Configuration conf = server.configuration();
        conf.set("fs.s3a.input.stream.type", streamType);
        return FileSystem.newInstance(URI.create("s3a://" + bucket + "/"), conf);
    }

    /** Every corpus container that opens from its local path opens over s3a with the same names, sizes and bytes. */
    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "sion", "g3"})
    void everyCorpusContainerOpensOverS3aAsThroughItsPath(String format) throws Exception {
        try (FileSystem s3a = s3a("corpus", "default")) {
            HadoopContainerInputTest.assertEveryCorpusContainerOpensAlike(format, file -> {
                org.apache.hadoop.fs.Path object = new org.apache.hadoop.fs.Path("s3a://corpus/" + format + "/" + file.getFileName());
                HadoopContainerInput in = HadoopContainerInput.open(s3a, s3a.getFileStatus(object));
                assertThat(in.remote()).isTrue();
                assertThat(in.uri().toString()).startsWith("s3a://corpus/");
                return in;
            });
        }
        assertThat(server.takeRequests()).noneMatch(r -> r.startsWith("PUT") || r.startsWith("POST") || r.startsWith("DELETE"));
    }

    /**
     * Opening and listing a LIME container of 20,000 records (3 MB) over s3a takes a few ranged GETs, at most one per
     * block of the core's cache, not one per record header (the prototype's 20,000+), with each of s3a's input
     * streams; the status planning listed is reused (no HEAD).
     */
    @ParameterizedTest
    @ValueSource(strings = {"default", "classic", "prefetch"})
    void openingALimeContainerTakesAFewRangedGetsNotOnePerHeader(String streamType) throws Exception {
        try (FileSystem s3a = s3a("bounds", streamType)) {
            FileStatus status = s3a.getFileStatus(new org.apache.hadoop.fs.Path("s3a://bounds/ens/many.lime"));
            server.takeRequests();
            long records;
            try (HadoopContainerInput input = HadoopContainerInput.open(s3a, status);
                    java.nio.file.FileSystem lime = ContainerFileSystems.open(input, Map.of());
                    Stream<Path> walk = Files.walk(lime.getPath("/"))) {
                records = walk.filter(Files::isRegularFile).count();
            }
            List<String> requests = server.takeRequests();
            assertThat(records).isEqualTo(LIME_RECORDS);
            // seen: one GET of the whole object (default and prefetch streams), three 1 MiB ranges (classic)
            assertThat(requests).as(streamType + ": " + requests)
                    .isNotEmpty()
                    .allMatch(r -> r.startsWith("GET /bounds/ens/many.lime bytes="))
                    .hasSizeLessThanOrEqualTo((int) ((limeSize + BLOCK - 1) / BLOCK));
        }
    }

    static final int HUGE = 96 << 20;

    /** One LIME record of {@link #HUGE} bytes (seeded random), /msg01/rec01.ildg-binary-data. */
    static Path limeOfOneBigRecord(Path file) throws Exception {
        byte[] chunk = new byte[BLOCK];
        java.util.Random random = new java.util.Random(5);
        try (java.nio.file.FileSystem fs = ContainerFileSystems.create(file, "lime")) {
            Files.createDirectory(fs.getPath("/msg01"));
            try (java.io.OutputStream out = Files.newOutputStream(fs.getPath("/msg01/rec01.ildg-binary-data"))) {
                for (int written = 0; written < HUGE; written += BLOCK) {
                    random.nextBytes(chunk);
                    out.write(chunk);
                }
            }
        }
        return file;
    }

    static byte[] hugeRecordDigest() throws Exception {
        java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
        byte[] chunk = new byte[BLOCK];
        java.util.Random random = new java.util.Random(5);
        for (int written = 0; written < HUGE; written += BLOCK) {
            random.nextBytes(chunk);
            sha.update(chunk);
        }
        return sha.digest();
    }

    /**
     * A big record read in order over s3a goes on in one streaming GET opened for the run (the input's openRange,
     * read policy sequential), not a GET per read-ahead range of the core's cache.
     */
    @ParameterizedTest
    @ValueSource(strings = {"default", "classic", "prefetch"})
    void aBigRecordReadInOrderIsAFewGets(String streamType) throws Exception {
        try (FileSystem s3a = s3a("bounds", streamType)) {
            FileStatus status = s3a.getFileStatus(new org.apache.hadoop.fs.Path("s3a://bounds/ens/huge.lime"));
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            List<String> requests;
            try (HadoopContainerInput input = HadoopContainerInput.open(s3a, status);
                    java.nio.file.FileSystem lime = ContainerFileSystems.open(input, Map.of());
                    java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(lime.getPath("/msg01/rec01.ildg-binary-data"))) {
                server.takeRequests();
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(BLOCK);
                while (ch.read(b.clear()) > 0) {
                    sha.update(b.flip());
                }
                requests = server.takeRequests();
            }
            assertThat(sha.digest()).isEqualTo(hugeRecordDigest());
            assertThat(requests).as(streamType + ": " + requests).allMatch(r -> r.startsWith("GET /bounds/ens/huge.lime bytes="));
            long asked = requests.stream().mapToLong(S3aContainerInputTest::rangeLength).sum();
            // seen before the range stream: classic 13 GETs; prefetch 36 GETs asking for 288 MiB (blocks fetched up to
            // four times); default 13 GETs. With it: classic 3 (two small ones while the read-ahead window grows, then
            // the rest in one), prefetch each 8 MiB block once, default its own 8 MiB parts.
            switch (streamType) {
                case "classic" -> assertThat(requests).as(streamType + ": " + requests).hasSizeLessThanOrEqualTo(4);
                default -> assertThat(requests).as(streamType + ": " + requests)
                        .hasSizeLessThanOrEqualTo(HUGE / (8 << 20) + 3);
            }
            assertThat(asked).as(streamType + ": bytes asked for, " + requests).isLessThanOrEqualTo(HUGE + (16L << 20));
        }
    }

    /** The length of a logged ranged GET ({@code ... bytes=a-b}). */
    private static long rangeLength(String request) {
        String range = request.substring(request.indexOf("bytes=") + 6);
        int dash = range.indexOf('-');
        return Long.parseLong(range.substring(dash + 1).trim()) - Long.parseLong(range.substring(0, dash)) + 1;
    }
}
