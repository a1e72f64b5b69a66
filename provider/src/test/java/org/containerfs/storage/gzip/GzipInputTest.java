package org.containerfs.storage.gzip;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.containerfs.storage.PathInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decompressed view on its own: reads anywhere equal the data, with points thinned across many members. */
class GzipInputTest {
    @TempDir
    Path tmp;

    private static byte[] gzip(byte[] data, int from, int to) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data, from, to - from);
        }
        return out.toByteArray();
    }

    @Test
    void readsAnywhereMatchTheDataWhenTheWindowBudgetThinsPointsAcrossMembers() throws IOException {
        Random random = new Random(5);
        byte[] data = new byte[3 << 20];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) ('a' + random.nextInt(5));
        }
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        int members = 12;
        for (int m = 0; m < members; m++) {
            file.writeBytes(gzip(data, m * data.length / members, (m + 1) * data.length / members));
        }
        Path gz = Files.write(tmp.resolve("data.gz"), file.toByteArray());
        long budget = 4 * 32 * 1024;
        for (boolean nativeScan : new boolean[] {true, false}) {
            GzipInput.Settings settings = new GzipInput.Settings(32 * 1024, budget, nativeScan);
            byte[] persisted;
            try (GzipInput in = GzipInput.open(PathInput.of(gz), settings, null)) {
                assertThat(in.size()).isEqualTo(data.length);
                assertThat(in.describe()).containsEntry("members", members).containsEntry("scan", nativeScan ? "native" : "java");
                assertThat((Long) in.describe().get("windowBytes")).isLessThanOrEqualTo(budget);
                assertThat((Long) in.describe().get("restartSpan")).isGreaterThan(32 * 1024L);
                // every member's start stays a point: at least one point a member
                assertThat((Integer) in.describe().get("restartPoints")).isGreaterThanOrEqualTo(members);
                readEverywhere(in, data, random);
                persisted = in.exportIndex();
            }
            try (GzipInput in = GzipInput.open(PathInput.of(gz), settings, persisted)) {
                assertThat(in.restartPointsLoaded()).isTrue();
                assertThat(in.scanInflatedBytes()).isZero();
                readEverywhere(in, data, random);
            }
            // a truncated persisted copy is refused, and the file scanned
            try (GzipInput in = GzipInput.open(PathInput.of(gz), settings, Arrays.copyOf(persisted, persisted.length - 7))) {
                assertThat(in.restartPointsLoaded()).as("a truncated copy").isFalse();
                readEverywhere(in, data, random);
            }
        }
    }

    private static void readEverywhere(GzipInput in, byte[] data, Random random) throws IOException {
        for (int i = 0; i < 40; i++) {
            int at = random.nextInt(data.length);
            int len = Math.min(data.length - at, 1 + random.nextInt(200_000));
            ByteBuffer got = ByteBuffer.allocate(len);
            while (got.hasRemaining()) {
                int n = in.read(got, at + got.position());
                assertThat(n).isPositive();
            }
            assertThat(got.array()).as("%d bytes at %d", len, at).isEqualTo(Arrays.copyOfRange(data, at, at + len));
        }
        assertThat(in.read(ByteBuffer.allocate(10), data.length)).isEqualTo(-1);
    }
}
