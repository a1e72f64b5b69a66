package org.containerfs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What goes wrong with remote containers, each an {@code IOException} naming the object, in bounded
 * time (the test clients' timeouts: 2 s to connect, 3 s per attempt, 10 s per call), never a change
 * to the bucket. The waits below are hang guards, not speed assertions.
 */
class S3FaultsTest extends WithS3Server {
    static final Duration HANG_GUARD = Duration.ofSeconds(60);
    static Path corpus = Path.of(System.getProperty("containerfs.corpus"));

    @BeforeAll
    static void start() throws Exception {
        server.createBucket("faults");
        server.put("faults", "lime/conf.lime", corpus.resolve("lime/s08_ildg_scidac_gauge.lime"));
        server.put("faults", "g3/simple-types.g3.gz", corpus.resolve("g3/simple-types.g3.gz"));
        byte[] noise = new byte[10_000];
        new Random(1).nextBytes(noise);
        server.put("faults", "noise.lime", noise);
    }

    static Map<String, Object> env(Object... pairs) {
        return server.env(pairs);
    }

    @Test
    void wrongCredentials() {
        try (S3Client wrong = server.client("someone-else", "wrong-secret-key")) {
            assertThatThrownBy(() -> S3Containers.open(URI.create("s3://faults/lime/conf.lime"), Map.of("s3.client", wrong)))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("s3://faults/lime/conf.lime")
                    .hasMessageContaining("the credentials were not accepted")
                    .satisfies(Captured::note);
        }
        assertThat(server.mutating()).isZero();
    }

    @Test
    void missingBucketAndMissingKey() {
        assertThatThrownBy(() -> S3Containers.open(URI.create("s3://nowhere/conf.lime"), env()))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessage("s3://nowhere/conf.lime: no bucket named nowhere")
                .satisfies(Captured::note);
        assertThatThrownBy(() -> S3Containers.open(URI.create("s3://faults/lime/absent.lime"), env()))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessage("s3://faults/lime/absent.lime: no such key in bucket faults")
                .satisfies(Captured::note);
        assertThat(server.mutating()).isZero();
    }

    @Test
    void anObjectThatIsNotAContainer() {
        assertThatThrownBy(() -> S3Containers.open(URI.create("s3://faults/noise.lime"), env()))
                .isInstanceOf(java.nio.file.ProviderNotFoundException.class) // as for a local file: not damage
                .hasMessageContaining("s3://faults/noise.lime is not a container of any installed format")
                .hasMessageContaining("at byte 0")
                .hasMessageContaining("no format's magic bytes were found")
                .satisfies(Captured::note);
        assertThat(server.count("GET")).as("format detection reads the head once").isEqualTo(1);
    }

    /** A container cut short (an interrupted upload) reads as the same bytes cut short do locally. */
    @Test
    void aTruncatedObject(@TempDir Path dir) throws Exception {
        byte[] whole = Files.readAllBytes(corpus.resolve("gsd/hoomd_trajectory.gsd"));
        byte[] cut = Arrays.copyOf(whole, whole.length * 2 / 3);
        server.put("faults", "gsd/cut.gsd", cut);
        Path local = dir.resolve("cut.gsd");
        Files.write(local, cut);
        Throwable localFailure = null;
        String localTree = null;
        try (FileSystem fs = ContainerFileSystems.open(local, Map.of("format", "gsd"))) {
            localTree = tree(fs);
        } catch (IOException e) {
            localFailure = e;
        }
        if (localFailure != null) {
            Class<? extends Throwable> type = localFailure.getClass();
            assertThatThrownBy(() -> S3Containers.open(URI.create("s3://faults/gsd/cut.gsd"), env("format", "gsd")))
                    .isInstanceOf(type)
                    .hasMessageContaining("s3://faults/gsd/cut.gsd")
                    .satisfies(Captured::note);
        } else {
            try (FileSystem fs = S3Containers.open(URI.create("s3://faults/gsd/cut.gsd"), env("format", "gsd"))) {
                assertThat(tree(fs)).isEqualTo(localTree);
            }
        }
    }

    /** The object replaced by a shorter one after the open: reads say so instead of mixing versions. */
    @Test
    void anObjectTruncatedAfterItWasOpened() throws Exception {
        byte[] whole = TestInputs.limeBigRecord(4 << 20);
        server.put("faults", "lime/shrinking.lime", whole);
        try (FileSystem fs = S3Containers.open(URI.create("s3://faults/lime/shrinking.lime"), env())) {
            Path record = largest(fs);
            server.put("faults", "lime/shrinking.lime", Arrays.copyOf(whole, whole.length / 2));
            assertThatThrownBy(() -> Files.readAllBytes(record))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("s3://faults/lime/shrinking.lime")
                    .hasMessageContaining("was replaced since it was opened")
                    .satisfies(Captured::note);
            // what was indexed is still there
            assertThat(Files.size(record)).isPositive();
        }
    }

    @Test
    void aServerThatStopsAnsweringIsATimeoutNamingTheObject() throws Exception {
        byte[] whole = TestInputs.limeBigRecord(4 << 20);
        server.put("faults", "lime/stall.lime", whole);
        try (FileSystem fs = S3Containers.open(URI.create("s3://faults/lime/stall.lime"), env())) {
            Path record = largest(fs);
            server.stall();
            try {
                assertTimeoutPreemptively(HANG_GUARD, () -> assertThatThrownBy(() -> Files.readAllBytes(record))
                        .hasMessageContaining("s3://faults/lime/stall.lime")
                        .isInstanceOf(SocketTimeoutException.class)
                        .hasMessageContaining("no answer in time")
                        .satisfies(Captured::note));
            } finally {
                server.resume();
            }
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                assertThat(walk.count()).as("the listing survives").isGreaterThan(1);
            }
        }
    }

    /** s3proxy stopped in the middle of reading a record: an error naming the object, soon; the listing stays. */
    @Test
    void aServerStoppedMidReadIsAnErrorNamingTheObject() throws Exception {
        S3TestServer own = new S3TestServer();
        try {
            own.createBucket("dying");
            byte[] big = TestInputs.limeBigRecord(8 << 20);
            own.put("dying", "conf.lime", big);
            Map<String, Object> env = new HashMap<>(own.env());
            try (FileSystem fs = S3Containers.open(URI.create("s3://dying/conf.lime"), env)) {
                Path record = fs.getPath("/msg01/rec03.ildg-binary-data");
                assertTimeoutPreemptively(HANG_GUARD, () -> {
                    try (SeekableByteChannel ch = Files.newByteChannel(record)) {
                        ByteBuffer b = ByteBuffer.allocate(1 << 16);
                        assertThat(ch.read(b)).isPositive();
                        own.stop();
                        ch.position(6 << 20);
                        assertThatThrownBy(() -> {
                            while (true) {
                                b.clear();
                                if (ch.read(b) < 0) {
                                    break;
                                }
                            }
                        }).isInstanceOf(IOException.class)
                                .hasMessageContaining("s3://dying/conf.lime")
                                .satisfies(Captured::note);
                    }
                });
                assertThat(Files.size(record)).as("the index survives").isEqualTo(8 << 20);
            }
        } finally {
            own.close();
        }
    }

    @Test
    void everyRefusedWriteSendsNothing() throws Exception {
        URI uri = URI.create("s3://faults/lime/conf.lime");
        for (Map<String, Object> writable : List.of(env("accessMode", "readWrite"), env("create", true),
                env("create", "true", "format", "lime"))) {
            assertThatThrownBy(() -> S3Containers.open(uri, writable))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("s3://faults/lime/conf.lime")
                    .hasMessageContaining("read-only")
                    .hasMessageContaining("copy the object to a local file")
                    .satisfies(Captured::note);
        }
        assertThat(server.total()).as("refused before any request: %s", server.requests()).isZero();

        try (FileSystem fs = S3Containers.open(uri, env())) {
            Path root = fs.getPath("/");
            Path record = largest(fs);
            assertThatThrownBy(() -> Files.createDirectory(root.resolve("msg99")))
                    .isInstanceOf(ReadOnlyFileSystemException.class);
            assertThatThrownBy(() -> {
                try (OutputStream out = Files.newOutputStream(root.resolve("msg01/new"))) {
                    out.write(1);
                }
            }).isInstanceOf(ReadOnlyFileSystemException.class);
            assertThatThrownBy(() -> Files.delete(record)).isInstanceOf(ReadOnlyFileSystemException.class);
            assertThatThrownBy(() -> Files.setLastModifiedTime(record,
                    java.nio.file.attribute.FileTime.fromMillis(0))).isInstanceOf(ReadOnlyFileSystemException.class);
        }
        assertThat(server.mutating()).as("%s", server.requests()).isZero();
    }

    /**
     * gzipIndex=true asks for a file beside the object: refused before any request, whatever the object holds;
     * gzipIndexDir keeps that index in a local directory instead.
     */
    @Test
    void aGzipIndexIsNeverWrittenBesideTheObject(@TempDir Path dir) throws Exception {
        for (String key : List.of("g3/simple-types.g3.gz", "lime/conf.lime")) {
            server.reset();
            assertThatThrownBy(() -> S3Containers.open(URI.create("s3://faults/" + key), env("gzipIndex", "true")))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("s3://faults/" + key)
                    .hasMessageContaining("env gzipIndex=true would write an index file (.zidx) beside the object")
                    .hasMessageContaining("nothing was sent to the bucket")
                    .satisfies(Captured::note);
            assertThat(server.requests()).as("requests before the refusal").isEmpty();
        }
        try (FileSystem fs = S3Containers.open(URI.create("s3://faults/g3/simple-types.g3.gz"),
                env("gzipIndex", "true", "gzipIndexDir", dir.toString(), "indexCache", "off"))) {
            assertThat(tree(fs)).isNotEmpty();
        }
        assertThat(dir.resolve("simple-types.g3.gz.zidx")).exists();
        assertThat(server.mutating()).as("%s", server.requests()).isZero();
        assertThat(server.admin().listObjectsV2(b -> b.bucket("faults").prefix("g3/")).contents())
                .extracting(o -> o.key()).containsExactly("g3/simple-types.g3.gz");
    }

    private static Path largest(FileSystem fs) throws IOException {
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            return walk.filter(Files::isRegularFile).max((a, b) -> Long.compare(size(a), size(b))).orElseThrow();
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    private static String tree(FileSystem fs) throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                sb.append(p).append(' ').append(Files.isRegularFile(p) ? Files.size(p) : -1).append('\n');
            }
        }
        return sb.toString();
    }
}
