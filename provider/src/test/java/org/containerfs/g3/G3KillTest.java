package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A writer killed with SIGKILL leaves every committed frame readable and at most a torn tail. */
class G3KillTest {
    /** 50 in the normal suite (the CI floor); scripts/crash-soak sets -Dcontainerfs.crash.trials=1000. */
    private static final int TRIALS = Integer.getInteger("containerfs.crash.trials", 50);

    @TempDir
    Path tmp;

    @Test
    void aKilledWriterLeavesCommittedFramesAndTheNextAppendRemovesTheTornTail() throws Exception {
        java.util.Random random = new java.util.Random(20261122);
        long checkedFrames = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            // the first trial runs long enough for the samples vectors to reach their full size
            int killAfter = trial == 0 ? 150 : random.nextInt(60);
            checkedFrames += killAndCheck(tmp.resolve("killed" + trial + ".g3"), killAfter, random.nextInt(20));
        }
        System.out.printf("crash-soak g3: %d trials, %d committed frames checked after the kills, 0 lost%n",
                TRIALS, checkedFrames);
    }

    /** Kills the appender {@code millis} after its {@code killAfter}-th commit; checks; returns the frame count. */
    private static int killAndCheck(Path file, int killAfter, int millis) throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                G3AppendWorker.class.getName(), file.toString()).redirectErrorStream(true).start();
        int committed = -1;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                assertThat(line).startsWith("committed ");
                committed = Integer.parseInt(line.substring(10));
                if (committed >= killAfter) {
                    Thread.sleep(millis);
                    break;
                }
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no close
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(committed).isGreaterThanOrEqualTo(killAfter);
        int frames;
        try (FileSystem fs = G3TestSupport.open(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "g3:*");
            frames = (Integer) root.get("frames");
            assertThat(frames).isGreaterThanOrEqualTo(committed + 1);
            assertThat(root.get("damage")).isEqualTo(""); // a killed append is no damage to committed frames
            assertThat((String) root.get("uncommittedTail")).satisfiesAnyOf(d -> assertThat(d).isEmpty(),
                    d -> assertThat(d).startsWith("truncated tail"));
            for (int f = 0; f < frames; f++) {
                Path dir = fs.getPath(String.format("/%06d.Scan", f));
                assertThat(Files.getAttribute(dir, "g3:crcOk")).as("frame %d", f).isEqualTo(true);
                assertThat(G3Blobs.read(dir.resolve("Index"))).contains(new G3Value.IntValue(f));
                assertThat(G3Blobs.read(dir.resolve("Samples")))
                        .contains(new G3Value.VectorDouble(G3AppendWorker.samples(f)));
            }
        }
        try (FileSystem fs = G3TestSupport.open(file, Map.of("accessMode", "readWrite"))) {
            Path dir = Files.createDirectory(fs.getPath(String.format("/%06d.Observation", frames)));
            G3Blobs.write(dir, "after", new G3Value.BoolValue(true));
        }
        try (FileSystem fs = G3TestSupport.open(file, Map.of("strict", true));
                Stream<Path> list = Files.list(fs.getPath("/"))) {
            List<String> names = list.map(p -> p.getFileName().toString()).collect(Collectors.toList());
            assertThat(names).hasSize(frames + 1).last().isEqualTo(String.format("%06d.Observation", frames));
        }
        Files.delete(file);
        return frames;
    }
}
