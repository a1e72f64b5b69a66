package org.containerfs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Run after the other S3 test classes (junit-platform.properties orders classes by {@code @Order}): none of what they printed, logged,
 * caught or read (messages, attributes, listings, URIs; target/s3-captured.txt and the surefire
 * reports with each test class's redirected output) contains the secret key they all used.
 */
@Order(Integer.MAX_VALUE)
class SecretScanTest {
    @Test
    void noOutputOfTheS3TestsContainsTheSecretKey() throws Exception {
        assertThat(Captured.FILE).as("the S3 tests ran first and noted what they saw").exists();
        String captured = Files.readString(Captured.FILE, StandardCharsets.UTF_8);
        assertThat(captured).contains("s3://").contains("lime {").contains("credentials were not accepted");
        Path reports = Path.of("target/surefire-reports");
        assertThat(reports).isDirectory();
        assertThat(SecretScan.filesContainingTheSecret(Captured.FILE, reports, Path.of("target/s3-index-cache")))
                .isEmpty();
    }

    @Test
    void theScanFindsTheSecretWhereItIs(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path leak = dir.resolve("leak.txt");
        Files.writeString(leak, "x-amz " + S3TestServer.SECRET_KEY + " y");
        assertThat(SecretScan.filesContainingTheSecret(dir)).containsExactly(leak);
    }
}
