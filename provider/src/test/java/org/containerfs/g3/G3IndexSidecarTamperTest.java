package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The persisted .zidx index of a .g3.gz is a cache beside the container: a damaged one (any single
 * flipped byte) must be ignored or end in an IOException, never serve other bytes than the container
 * holds. Its CRC-32C catches damage, not a crafted file: restart points and members that contradict
 * each other (a member whose first point lies in an earlier member makes reads serve bytes from the
 * wrong place, or inflate the same member again and again) must be refused by checking the structure,
 * whatever the checksum says.
 */
class G3IndexSidecarTamperTest {
    @TempDir
    Path tmp;

    @Test
    void anySingleFlippedByteOfThePersistedIndexNeverChangesWhatIsRead() throws Exception {
        Path gz = tmp.resolve("c.g3.gz");
        Files.copy(G3TestSupport.corpus("simple-types.g3.gz"), gz);
        FileTime mtime = Files.getLastModifiedTime(gz);
        Map<String, Object> env = Map.of("gzipIndex", true);
        Map<String, byte[]> expected = readAll(gz, Map.of());
        readAll(gz, env); // writes the .zidx
        Path zidx = tmp.resolve("c.g3.gz.zidx");
        byte[] good = Files.readAllBytes(zidx);
        int served = 0;
        for (int i = 32; i < good.length; i++) { // past magic, size, mtime and span: those only make it stale
            byte[] bad = good.clone();
            bad[i] ^= 0x01;
            Files.write(zidx, bad);
            Files.setLastModifiedTime(gz, mtime);
            try {
                Map<String, byte[]> got = readAll(gz, env);
                assertThat(got.keySet()).as("byte %d flipped", i).isEqualTo(expected.keySet());
                for (Map.Entry<String, byte[]> e : expected.entrySet()) {
                    assertThat(got.get(e.getKey())).as("byte %d flipped: %s", i, e.getKey()).isEqualTo(e.getValue());
                }
                served++;
            } catch (IOException refused) {
                // a damaged index may also be reported: what it must not do is serve other bytes
            }
        }
        assertThat(served).isPositive();
    }

    /** simple-types.g3 compressed as three gzip members cut inside frames, so that reads cross members. */
    private Path threeMembers() throws IOException {
        byte[] plain = G3TestSupport.corpusBytes("simple-types.g3");
        ByteArrayOutputStream members = new ByteArrayOutputStream();
        int[] cuts = {0, 1000, 2200, plain.length};
        for (int m = 0; m + 1 < cuts.length; m++) {
            try (GZIPOutputStream member = new GZIPOutputStream(members)) {
                member.write(plain, cuts[m], cuts[m + 1] - cuts[m]);
            }
        }
        Path gz = tmp.resolve("members.g3.gz");
        Files.write(gz, members.toByteArray());
        return gz;
    }

    @Test
    void aMultiMemberFileReadsTheSameThroughItsPersistedIndex() throws Exception {
        Path gz = threeMembers();
        Map<String, byte[]> expected = readAll(G3TestSupport.corpus("simple-types.g3"), Map.of());
        Map<String, Object> env = Map.of("gzipIndex", true);
        assertSameContent(readAll(gz, env), expected, "the scanning open");
        try (FileSystem fs = G3TestSupport.open(gz, env)) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:restartIndex")).startsWith("loaded");
            assertThat(Files.getAttribute(fs.getPath("/"), "g3:gzipMembers")).isEqualTo(3);
        }
        assertSameContent(readAll(gz, env), expected, "the open that loaded the index");
    }

    @Test
    void aCraftedIndexWithAValidChecksumIsRefusedWhenItsRestartPointsContradictItsMembers() throws Exception {
        Path gz = threeMembers();
        FileTime mtime = Files.getLastModifiedTime(gz);
        Map<String, Object> env = Map.of("gzipIndex", true);
        Map<String, byte[]> expected = readAll(gz, env); // writes the .zidx
        Path zidx = tmp.resolve("members.g3.gz.zidx");
        byte[] good = Files.readAllBytes(zidx);
        // layout (IndexStore): magic, size, mtime, span, stream size (8 bytes each), no-damage flag (1),
        // member count (4), then per member its compressed offset (8) and the index of its first point (4)
        ByteBuffer b = ByteBuffer.wrap(good);
        assertThat(b.get(40)).as("no gzip damage recorded").isZero();
        assertThat(b.getInt(41)).as("members").isEqualTo(3);
        int firstPointOfMember1 = 45 + 12 + 8;
        // then the point count (4) and per point its output offset (8), bit offset (8), member (4) and
        // window (length 4, then the bytes: none at a member's start, where all three points are)
        int pointsAt = 45 + 3 * 12;
        assertThat(b.getInt(pointsAt)).as("restart points").isEqualTo(3);
        int firstPointMember = pointsAt + 4 + 8 + 8;
        int point1Out = pointsAt + 4 + 24;
        Map<String, UnaryOperator<ByteBuffer>> crafted = new LinkedHashMap<>();
        crafted.put("member 1 starts at point 0, inside member 0", x -> x.putInt(firstPointOfMember1, 0));
        // a read inside member 1 then starts at point 0 and, at member 0's end, restarts at point 0: forever
        crafted.put("member 1 starts at point 0 and its own point claims a later output offset",
                x -> x.putInt(firstPointOfMember1, 0).putLong(point1Out, x.getLong(point1Out) + 1000));
        crafted.put("member 1 starts past the last point", x -> x.putInt(firstPointOfMember1, 1 << 20));
        crafted.put("point 0 belongs to member 7 of 3", x -> x.putInt(firstPointMember, 7));
        crafted.put("point 0 belongs to member -1", x -> x.putInt(firstPointMember, -1));
        for (Map.Entry<String, UnaryOperator<ByteBuffer>> c : crafted.entrySet()) {
            byte[] bad = c.getValue().apply(ByteBuffer.wrap(good.clone())).array();
            CRC32C crc = new CRC32C();
            crc.update(bad, 0, bad.length - 4);
            ByteBuffer.wrap(bad).putInt(bad.length - 4, (int) crc.getValue());
            Files.write(zidx, bad);
            Files.setLastModifiedTime(gz, mtime);
            Map<String, byte[]> got = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> readAll(gz, env), c.getKey());
            assertSameContent(got, expected, c.getKey());
            try (FileSystem fs = G3TestSupport.open(gz, env)) {
                // the crafted index was replaced by a good one, which is now loaded
                assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:restartIndex")).as(c.getKey()).startsWith("loaded");
            }
            assertThat(Files.readAllBytes(zidx)).as(c.getKey()).isEqualTo(good);
        }
    }

    private static void assertSameContent(Map<String, byte[]> got, Map<String, byte[]> expected, String what) {
        assertThat(got.keySet()).as(what).isEqualTo(expected.keySet());
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            assertThat(got.get(e.getKey())).as("%s: %s", what, e.getKey()).isEqualTo(e.getValue());
        }
    }

    private static Map<String, byte[]> readAll(Path gz, Map<String, Object> env) throws IOException {
        Map<String, byte[]> all = new TreeMap<>();
        try (FileSystem fs = G3TestSupport.open(gz, env); Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(p)) {
                    all.put(p.toString(), Files.readAllBytes(p));
                } else {
                    all.put(p + "/", new byte[0]);
                }
            }
        }
        return all;
    }
}
