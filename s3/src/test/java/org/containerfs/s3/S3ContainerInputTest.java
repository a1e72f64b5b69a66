package org.containerfs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/** The S3 input alone: one GET of the first bytes at open, one exact ranged GET per later read, faults named. */
class S3ContainerInputTest extends WithS3Server {
    static byte[] bytes = new byte[300_000];

    @BeforeAll
    static void start() throws Exception {
        server.createBucket("input");
        new Random(7).nextBytes(bytes);
        server.put("input", "dir/obj.bin", bytes);
        server.put("input", "dir/other.bin", new byte[] {1, 2, 3});
        server.put("input", "dir/empty.bin", new byte[0]);
    }

    static S3ContainerInput open(String key, Object... env) throws Exception {
        return S3ContainerInput.open(URI.create("s3://input/" + key), server.env(env));
    }

    static Tuple seen(String method, String range, long bodyBytes) {
        return tuple(method, range, bodyBytes);
    }

    List<Tuple> requests() {
        return server.requests().stream().map(r -> tuple(r.method(), r.range(), r.bodyBytes())).toList();
    }

    static byte[] bytes(int from, int to) {
        return Arrays.copyOfRange(bytes, from, to);
    }

    @Test
    void openIsOneGetOfTheFirstBytesAndEachLaterReadOneExactRangedGet() throws Exception {
        String etag = server.admin().headObject(b -> b.bucket("input").key("dir/obj.bin")).eTag();
        server.reset();
        try (S3ContainerInput in = open("dir/obj.bin", "s3.openReadBytes", 4096)) {
            assertThat(requests()).containsExactly(seen("GET", "bytes=0-4095", 4096));
            assertThat(in.size()).as("from Content-Range").isEqualTo(bytes.length);
            assertThat(in.identity().uri()).hasToString("s3://input/dir/obj.bin");
            assertThat(in.identity().version()).isEqualTo(etag);
            assertThat(in.lastModified().toMillis()).isPositive();
            assertThat(in.remote()).isTrue();

            ByteBuffer dst = ByteBuffer.allocate(1000);
            assertThat(in.read(dst, 100)).isEqualTo(1000);
            assertThat(dst.array()).as("served from the open's bytes").isEqualTo(bytes(100, 1100));
            assertThat(in.read(dst.clear(), 12_345)).isEqualTo(1000);
            assertThat(dst.array()).isEqualTo(bytes(12_345, 13_345));
            ByteBuffer across = ByteBuffer.allocate(200);
            assertThat(in.read(across, 4000)).isEqualTo(200);
            assertThat(across.array()).isEqualTo(bytes(4000, 4200));
            // the last of the open's bytes was read: they are dropped, a read there is a GET again
            assertThat(in.read(ByteBuffer.allocate(10), 0)).isEqualTo(10);
            ByteBuffer direct = ByteBuffer.allocateDirect(5000);
            assertThat(in.read(direct, bytes.length - 10)).isEqualTo(10);
            assertThat(in.read(ByteBuffer.allocate(10), bytes.length)).isEqualTo(-1);

            assertThat(requests()).containsExactly(
                    seen("GET", "bytes=0-4095", 4096),
                    seen("GET", "bytes=12345-13344", 1000),
                    seen("GET", "bytes=4096-4199", 104),
                    seen("GET", "bytes=0-9", 10),
                    seen("GET", "bytes=299990-299999", 10));
        }
    }

    @Test
    void anObjectSmallerThanTheOpensReadIsReadWholeByIt() throws Exception {
        try (S3ContainerInput in = open("dir/obj.bin")) {
            ByteBuffer all = ByteBuffer.allocate(bytes.length);
            for (int at = 0; at < bytes.length; at += 70_000) {
                assertThat(in.read(all.limit(Math.min(bytes.length, at + 70_000)), at)).isPositive();
            }
            assertThat(all.array()).isEqualTo(bytes);
            assertThat(requests()).containsExactly(seen("GET", "bytes=0-1048575", bytes.length));
        }
    }

    @Test
    void openReadBytesZeroOpensWithAHead() throws Exception {
        try (S3ContainerInput in = open("dir/obj.bin", "s3.openReadBytes", "0")) {
            assertThat(in.size()).isEqualTo(bytes.length);
            ByteBuffer dst = ByteBuffer.allocate(100);
            assertThat(in.read(dst, 0)).isEqualTo(100);
            assertThat(dst.array()).isEqualTo(bytes(0, 100));
            assertThat(requests()).containsExactly(seen("HEAD", null, 0), seen("GET", "bytes=0-99", 100));
        }
        assertThatThrownBy(() -> open("dir/obj.bin", "s3.openReadBytes", "-1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("s3.openReadBytes=-1");
        assertThatThrownBy(() -> open("dir/obj.bin", "s3.openReadBytes", "1 MiB"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected a byte count");
    }

    /**
     * What the open's GET may be answered with beyond what s3proxy sends: the size after the slash of
     * {@code Content-Range}; a store that ignored the Range sends the whole object (no Content-Range, its length
     * in Content-Length); an unknown total ({@code /*}) or no length at all leaves the size to a HEAD.
     */
    @Test
    void theOpensAnswerGivesTheObjectsSizeOrSaysItCannot() {
        assertThat(S3ContainerInput.objectSize(GetObjectResponse.builder().contentRange("bytes 0-1048575/7340032")
                .contentLength(1048576L).build())).isEqualTo(7_340_032);
        assertThat(S3ContainerInput.objectSize(GetObjectResponse.builder().contentRange("bytes 0-9/10")
                .contentLength(10L).build())).isEqualTo(10);
        assertThat(S3ContainerInput.objectSize(GetObjectResponse.builder().contentLength(123_456L).build()))
                .as("the Range ignored: the whole object").isEqualTo(123_456);
        assertThat(S3ContainerInput.objectSize(GetObjectResponse.builder().contentRange("bytes 0-9/*")
                .contentLength(10L).build())).isEqualTo(-1);
        assertThat(S3ContainerInput.objectSize(GetObjectResponse.builder().contentRange("bytes 0-9")
                .build())).isEqualTo(-1);
        assertThat(S3ContainerInput.objectSize(GetObjectResponse.builder().build())).isEqualTo(-1);
    }

    @Test
    void anEmptyObjectHasNoFirstByteSoItsOpenFallsBackToAHead() throws Exception {
        try (S3ContainerInput in = open("dir/empty.bin")) {
            assertThat(in.size()).isZero();
            assertThat(in.read(ByteBuffer.allocate(10), 0)).isEqualTo(-1);
        }
        assertThat(server.count("HEAD")).as("%s", server.requests()).isEqualTo(1);
        assertThat(server.total()).as("%s", server.requests()).isLessThanOrEqualTo(2);
    }

    @Test
    void aRunFromTheOpensBytesGetsOnlyWhatLiesBeyondThem() throws Exception {
        try (S3ContainerInput in = open("dir/obj.bin", "s3.openReadBytes", 4096)) {
            server.reset();
            try (InputStream inside = in.openRange(100, 2000)) {
                assertThat(inside.readAllBytes()).isEqualTo(bytes(100, 2000));
            }
            try (InputStream closedEarly = in.openRange(0, 200_000)) {
                assertThat(closedEarly.readNBytes(4096)).isEqualTo(bytes(0, 4096));
            }
            assertThat(requests()).as("neither run went past the open's bytes").isEmpty();
            try (InputStream run = in.openRange(1000, 250_000)) {
                assertThat(run.readAllBytes()).isEqualTo(bytes(1000, 250_000));
            }
            assertThat(requests()).containsExactly(seen("GET", "bytes=4096-249999", 250_000 - 4096));
        }
    }

    @Test
    void siblingIsTheKeyBesideIt() throws Exception {
        try (S3ContainerInput in = S3ContainerInput.open(URI.create("s3://input/dir/obj.bin"), server.env());
                var other = in.sibling("other.bin")) {
            assertThat(other.uri()).hasToString("s3://input/dir/other.bin");
            assertThat(other.size()).isEqualTo(3);
            assertThatThrownBy(() -> in.sibling("absent.bin")).isInstanceOf(NoSuchFileException.class)
                    .hasMessageContaining("s3://input/dir/absent.bin").hasMessageContaining("member file of");
        }
    }

    @Test
    void aReplacedObjectIsNoticedNotMixed() throws Exception {
        server.put("input", "dir/replaced.bin", bytes);
        try (S3ContainerInput in = open("dir/replaced.bin", "s3.openReadBytes", 4096)) {
            server.put("input", "dir/replaced.bin", new byte[] {9, 9, 9});
            ByteBuffer opened = ByteBuffer.allocate(100);
            assertThat(in.read(opened, 0)).as("the open's bytes are the version opened").isEqualTo(100);
            assertThat(opened.array()).isEqualTo(bytes(0, 100));
            assertThatThrownBy(() -> in.read(ByteBuffer.allocate(100), 5000))
                    .hasMessageContaining("s3://input/dir/replaced.bin")
                    .hasMessageContaining("was replaced since it was opened");
        }
    }

    @Test
    void missingKeyAndMissingBucketAreNoSuchFile() {
        assertThatThrownBy(() -> S3ContainerInput.open(URI.create("s3://input/dir/absent"), server.env()))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("s3://input/dir/absent").hasMessageContaining("no such key in bucket input");
        assertThatThrownBy(() -> S3ContainerInput.open(URI.create("s3://no-bucket/x.lime"), server.env()))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("s3://no-bucket/x.lime").hasMessageContaining("no bucket named no-bucket");
    }

    @Test
    void wrongCredentialsAreAccessDenied() {
        try (S3Client wrong = server.client(S3TestServer.ACCESS_KEY, "not-the-secret")) {
            assertThatThrownBy(() -> S3ContainerInput.open(URI.create("s3://input/dir/obj.bin"),
                    Map.of("s3.client", wrong)))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("s3://input/dir/obj.bin")
                    .hasMessageContaining("credentials were not accepted");
        }
    }

    @Test
    void credentialsInTheUriAreRefusedAndNotShown() {
        assertThatThrownBy(() -> S3ContainerInput.open(URI.create("s3://AKIA:topsecret@input/dir/obj.bin"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3://<redacted>@input/dir/obj.bin")
                .hasMessageNotContaining("topsecret");
    }
}
