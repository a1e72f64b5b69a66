package org.containerfs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/** The S3 input alone: one HEAD at open, one exact ranged GET per read, faults named. */
class S3ContainerInputTest extends WithS3Server {
    static byte[] bytes = new byte[300_000];

    @BeforeAll
    static void start() throws Exception {
        server.createBucket("input");
        new Random(7).nextBytes(bytes);
        server.put("input", "dir/obj.bin", bytes);
        server.put("input", "dir/other.bin", new byte[] {1, 2, 3});
    }

    @Test
    void openIsOneHeadAndEachReadOneExactRangedGet() throws Exception {
        try (S3ContainerInput in = S3ContainerInput.open(URI.create("s3://input/dir/obj.bin"), server.env())) {
            assertThat(server.byMethod()).isEqualTo(Map.of("HEAD", 1L));
            assertThat(in.size()).isEqualTo(bytes.length);
            assertThat(in.identity().uri()).hasToString("s3://input/dir/obj.bin");
            assertThat(in.identity().version()).isNotBlank();
            assertThat(in.remote()).isTrue();

            ByteBuffer dst = ByteBuffer.allocate(1000);
            assertThat(in.read(dst, 12_345)).isEqualTo(1000);
            assertThat(dst.array()).isEqualTo(java.util.Arrays.copyOfRange(bytes, 12_345, 13_345));
            ByteBuffer direct = ByteBuffer.allocateDirect(5000);
            assertThat(in.read(direct, bytes.length - 10)).isEqualTo(10);
            assertThat(in.read(ByteBuffer.allocate(10), bytes.length)).isEqualTo(-1);

            assertThat(server.requests()).extracting(S3TestServer.Seen::method, S3TestServer.Seen::range,
                    S3TestServer.Seen::bodyBytes).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("HEAD", null, 0L),
                    org.assertj.core.groups.Tuple.tuple("GET", "bytes=12345-13344", 1000L),
                    org.assertj.core.groups.Tuple.tuple("GET", "bytes=299990-299999", 10L));
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
        try (S3ContainerInput in = S3ContainerInput.open(URI.create("s3://input/dir/replaced.bin"), server.env())) {
            server.put("input", "dir/replaced.bin", new byte[] {9, 9, 9});
            assertThatThrownBy(() -> in.read(ByteBuffer.allocate(100), 0))
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
