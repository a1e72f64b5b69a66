package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The persisted .zidx index of a .g3.gz is a cache beside the container: a damaged one (any single
 * flipped byte) must be ignored or end in an IOException, never serve other bytes than the container
 * holds.
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
