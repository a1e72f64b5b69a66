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
}
