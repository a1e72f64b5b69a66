package org.containerfs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code s3x://} NIO route of {@code aws-java-nio-spi-for-s3}: a Path of that provider opened with
 * {@link S3Containers#open(Path, Map)} is read by exact ranged GETs behind the core's block cache, with
 * credentials from the URI never shown; the same Path handed to {@code FileSystems.newFileSystem} still
 * works (through that provider's own channel).
 */
class S3xRouteTest extends WithS3Server {
    static Path corpus = Path.of(System.getProperty("containerfs.corpus"));
    static String savedProtocol;
    static String savedRegion;

    @BeforeAll
    static void start() throws Exception {
        server.createBucket("spi");
        server.put("spi", "run/conf.lime", corpus.resolve("lime/s13_large_record.lime"));
        server.put("spi", "run/traj.gsd", corpus.resolve("gsd/hoomd_trajectory.gsd"));
        savedProtocol = System.setProperty("s3.spi.endpoint-protocol", "http");
        savedRegion = System.setProperty("aws.region", "us-east-1");
    }

    @AfterAll
    static void restoreProperties() {
        if (savedProtocol == null) {
            System.clearProperty("s3.spi.endpoint-protocol");
        } else {
            System.setProperty("s3.spi.endpoint-protocol", savedProtocol);
        }
        if (savedRegion == null) {
            System.clearProperty("aws.region");
        } else {
            System.setProperty("aws.region", savedRegion);
        }
    }

    static URI s3xUri(String key) {
        return URI.create("s3x://" + S3TestServer.ACCESS_KEY + ":" + S3TestServer.SECRET_KEY + "@127.0.0.1:"
                + server.endpoint().getPort() + "/spi/" + key);
    }

    static Path s3x(String key) {
        return Paths.get(s3xUri(key));
    }

    static Map<String, String> tree(FileSystem fs) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                out.put(p.toString(), Files.isRegularFile(p)
                        ? java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                .digest(Files.readAllBytes(p)))
                        : "dir");
            }
        }
        return out;
    }

    @Test
    void anS3xPathIsReadThroughTheBlockCacheWithExactRanges() throws Exception {
        for (String key : new String[] {"run/conf.lime", "run/traj.gsd"}) {
            String format = key.endsWith(".lime") ? "lime" : "gsd";
            Map<String, String> local;
            try (FileSystem fs = ContainerFileSystems.open(corpus.resolve(format + "/"
                    + (format.equals("lime") ? "s13_large_record.lime" : "hoomd_trajectory.gsd")))) {
                local = tree(fs);
            }
            Path path = s3x(key);
            server.reset();
            try (FileSystem fs = S3Containers.open(path, Map.of())) {
                assertThat(tree(fs)).isEqualTo(local);
                Captured.note(fs.getPath("/").toUri().toString());
                Captured.note(fs.toString());
                Captured.note(Files.readAttributes(fs.getPath("/"), format + ":*").toString());
            }
            Captured.note("s3x " + key + ": " + server.byMethod() + " " + server.bodyBytes() + " bytes");
            assertThat(server.count("HEAD")).as("%s", server.requests()).isZero();
            assertThat(server.requests().get(0).range()).as("the open's GET").isEqualTo("bytes=0-1048575");
            long size = server.admin().headObject(b -> b.bucket("spi").key(key)).contentLength();
            assertThat(server.bodyBytes()).as("no more than the object once").isLessThanOrEqualTo(size);
            assertThat(server.mutating()).isZero();
        }
    }

    @Test
    void anS3xUriWithCredentialsOpensWithoutTheSpiAndIsShownRedacted() throws Exception {
        server.reset();
        try (FileSystem fs = S3Containers.open(s3xUri("run/conf.lime"), Map.of())) {
            assertThat(tree(fs)).isNotEmpty();
            Captured.note(fs.getPath("/").toUri().toString());
        }
        assertThat(server.count("HEAD")).as("opened by this module's GET, not the SPI's HEADs").isZero();
        assertThat(server.count("GET")).isEqualTo(1);
        assertThat(S3Location.redacted(s3xUri("run/conf.lime"))).isEqualTo("s3x://<redacted>@127.0.0.1:"
                + server.endpoint().getPort() + "/spi/run/conf.lime");
        Captured.note(S3Location.redacted(s3xUri("run/conf.lime")));
    }

    @Test
    void theSameS3xPathStillOpensThroughTheSpiProvider() throws Exception {
        Map<String, String> local;
        try (FileSystem fs = ContainerFileSystems.open(corpus.resolve("lime/s13_large_record.lime"))) {
            local = tree(fs);
        }
        server.reset();
        try (FileSystem fs = FileSystems.newFileSystem(s3x("run/conf.lime"), Map.of())) {
            assertThat(tree(fs)).isEqualTo(local);
        }
        Captured.note("s3x via the SPI's channel: " + server.byMethod() + " " + server.bodyBytes() + " bytes");
        assertThat(server.count("PUT") + server.count("DELETE")).isZero();
    }
}
