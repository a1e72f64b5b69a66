package org.containerfs.sion;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SION's unit is a whole file (create-only). A child JVM creates files one after another and prints
 * each name after its close returned; SIGKILL at random moments. After each kill: every printed file
 * is there byte-exact, the file in flight is absent or complete (never partial), and a new create on
 * the killed path works.
 */
class SionCrashTest {
    /** 50 in the normal suite (the CI floor); scripts/crash-soak sets -Dcontainerfs.crash.trials=1000. */
    private static final int TRIALS = Integer.getInteger("containerfs.crash.trials", 50);

    @TempDir
    Path dir;

    static byte[] task(int file, int task) {
        byte[] b = new byte[300 + 97 * task + file % 13];
        new Random(file * 31L + task).nextBytes(b);
        return b;
    }

    static int tasks(int file) {
        return 1 + file % 4;
    }

    static void create(Path target, int file) throws Exception {
        try (FileSystem fs = SionWriterTest.sion().newFileSystem(target, Map.of("create", "true", "blockSize", 512))) {
            for (int t = 0; t < tasks(file); t++) {
                Files.write(fs.getPath(String.format("/task%06d", t)), task(file, t));
            }
        }
    }

    /** Child: creates f0.sion, f1.sion, ... in args[0], printing each after its close returned. */
    public static void main(String[] args) throws Exception {
        for (int f = 0; ; f++) {
            create(Paths.get(args[0], "f" + f + ".sion"), f);
            System.out.println(f);
            System.out.flush();
        }
    }

    @Test
    void everyClosedFileSurvivesSigkillAndTheFileInFlightIsAbsentOrComplete() throws Exception {
        Random random = new Random(20261122);
        long checkedFiles = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            Path trialDir = Files.createDirectory(dir.resolve("trial" + trial));
            int printed = runAndKill(trialDir, random.nextInt(4), random.nextInt(15));
            for (int f = 0; f <= printed + 1; f++) {
                Path target = trialDir.resolve("f" + f + ".sion");
                if (f > printed && !Files.exists(target)) {
                    continue; // in flight: absent is fine
                }
                try (FileSystem fs = SionWriterTest.sion().newFileSystem(target, Map.of())) {
                    assertThat(Files.getAttribute(fs.getPath("/"), "sion:tasks")).as("trial %d file %d", trial, f)
                            .isEqualTo(tasks(f));
                    for (int t = 0; t < tasks(f); t++) {
                        assertThat(Files.readAllBytes(fs.getPath(String.format("/task%06d", t))))
                                .as("trial %d file %d task %d", trial, f, t).isEqualTo(task(f, t));
                    }
                }
                checkedFiles++;
            }
            // a new create on the path the killed writer was working on works
            Path next = trialDir.resolve("f" + (printed + 1) + ".sion");
            Files.deleteIfExists(next);
            create(next, printed + 1);
            try (FileSystem fs = SionWriterTest.sion().newFileSystem(next, Map.of())) {
                assertThat(Files.readAllBytes(fs.getPath("/task000000"))).isEqualTo(task(printed + 1, 0));
            }
        }
        System.out.printf("crash-soak sion: %d trials, %d closed files checked after the kills, 0 lost%n",
                TRIALS, checkedFiles);
    }

    /** Kills the child {@code millis} after its {@code after}-th file; returns the last file it printed. */
    private static int runAndKill(Path trialDir, int after, int millis) throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), SionCrashTest.class.getName(), trialDir.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<Integer> printed = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                printed.add(Integer.parseInt(line.strip()));
                if (printed.size() > after) {
                    Thread.sleep(millis);
                    break;
                }
            }
            child.toHandle().destroyForcibly(); // SIGKILL
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            // lines printed between our last read and the kill are commits too
            while ((line = out.readLine()) != null) {
                if (!line.isBlank()) {
                    printed.add(Integer.parseInt(line.strip()));
                }
            }
        }
        assertThat(printed).isNotEmpty();
        return printed.get(printed.size() - 1);
    }
}
