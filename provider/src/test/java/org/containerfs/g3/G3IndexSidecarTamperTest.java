package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
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
