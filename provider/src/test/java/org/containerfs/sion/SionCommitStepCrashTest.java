package org.containerfs.sion;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.HaltedChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stops SION's create-only writer at every write/truncate/force (whole and torn in half) with
 * ContainerChannel's fault-injection hook: the target is absent or complete and byte-exact, never
 * partial, and a new create on the same path works.
 */
class SionCommitStepCrashTest {
    private static final int FILE = 3; // SionCrashTest's file 3: four tasks of different sizes

    @TempDir
    Path tmp;

    public static void main(String[] args) throws Exception {
        SionCrashTest.create(Paths.get(args[0]), FILE);
        System.out.println("closed");
    }

    @Test
    void everyStepOfCreationLeavesNoTargetOrTheCompleteFile() throws Exception {
        int halted = 0;
        int complete = 0;
        for (boolean torn : new boolean[] {false, true}) {
            for (int step = 1; ; step++) {
                Path dir = Files.createDirectory(tmp.resolve("halt-" + torn + "-" + step));
                Path target = dir.resolve("f.sion");
                HaltedChild child = HaltedChild.run(SionCommitStepCrashTest.class, step, torn, target.toString());
                if (child.exitCode() == 0) {
                    assertThat(child.printed()).containsExactly("closed");
                    check(target);
                    break;
                }
                assertThat(child.halted()).as("halted by the hook at step %d: %s", step, child).isTrue();
                halted++;
                if (Files.exists(target)) {
                    check(target); // halted after the atomic rename
                    complete++;
                }
                SionCrashTest.create(target, FILE + 1);
                try (FileSystem fs = SionWriterTest.sion().newFileSystem(target, Map.of())) {
                    assertThat(Files.readAllBytes(fs.getPath("/task000000"))).isEqualTo(SionCrashTest.task(FILE + 1, 0));
                }
                try (Stream<Path> s = Files.list(dir)) {
                    assertThat(s.map(p -> p.getFileName().toString())).containsExactly("f.sion");
                }
            }
        }
        System.out.printf("commit steps sion: %d halts (whole and torn writes), every one checked%n", halted);
        assertThat(halted).as("steps covered").isGreaterThanOrEqualTo(4);
        assertThat(complete).as("halts after the commit").isLessThan(halted);
    }

    private static void check(Path target) throws Exception {
        try (FileSystem fs = SionWriterTest.sion().newFileSystem(target, Map.of("strict", true))) {
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:tasks")).isEqualTo(SionCrashTest.tasks(FILE));
            for (int t = 0; t < SionCrashTest.tasks(FILE); t++) {
                assertThat(Files.readAllBytes(fs.getPath(String.format("/task%06d", t))))
                        .isEqualTo(SionCrashTest.task(FILE, t));
            }
        }
    }
}
