package org.containerfs.scda;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer process killed with SIGKILL at an arbitrary instant: every section it reported as
 * committed is there with its bytes, the tail is at most a torn append, and the next append
 * removes that tail and leaves a file that reads strictly.
 */
class ScdaKillTest {
    @TempDir
    Path dir;

    @Test
    void sigkilledWriterLeavesEveryCommittedSectionAndARemovableTail() throws Exception {
        for (int round = 0; round < 3; round++) {
            Path file = dir.resolve("killed" + round + ".scda");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    ScdaAppendLoop.class.getName(), file.toString()).redirectErrorStream(true).start();
            int committed = -1;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
                String line;
                // kill at a different stage each round
                int target = 3 + 2 * round;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("committed ")) {
                        committed = Integer.parseInt(line.substring(10));
                        if (committed >= target) {
                            Thread.sleep(round * 7L);
                            p.destroyForcibly();
                            break;
                        }
                    } else {
                        throw new AssertionError("child: " + line);
                    }
                }
            }
            p.waitFor();
            assertThat(committed).isGreaterThanOrEqualTo(3);
            int listed;
            try (FileSystem fs = ScdaTestSupport.open(file, Map.of())) {
                Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "scda:*");
                assertThat(root.get("damage").equals("") || Boolean.TRUE.equals(root.get("tornTail")))
                        .as("damage: %s", root.get("damage")).isTrue();
                List<Path> sections;
                try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                    sections = s.toList();
                }
                listed = sections.size();
                assertThat(listed).isGreaterThanOrEqualTo(committed + 1);
                for (int k = 0; k < listed; k++) {
                    Path sp = sections.get(k);
                    if (k % 4 < 2) {
                        assertThat(Files.readAllBytes(sp)).isEqualTo(ScdaAppendLoop.payload(k, 0, ScdaAppendLoop.size(k)));
                    } else {
                        for (int e = 0; e < 20; e++) {
                            assertThat(Files.readAllBytes(sp.resolve(String.format("%06d", e))))
                                    .isEqualTo(ScdaAppendLoop.payload(k, e, k % 4 == 2 ? 5000 : 5000 + e));
                        }
                    }
                }
            }
            try (FileSystem fs = ScdaTestSupport.open(file, Map.of("accessMode", "readWrite"))) {
                Files.write(fs.getPath(String.format("/%04d.B.after the kill", listed)), "ok".getBytes());
            }
            try (FileSystem fs = ScdaTestSupport.open(file, Map.of("strict", true))) {
                assertThat(Files.getAttribute(fs.getPath("/"), "scda:sections")).isEqualTo(listed + 1);
            }
        }
    }
}
