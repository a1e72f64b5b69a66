package org.containerfs.lime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stops a writing JVM at every single mutation of the commit protocol (and in the middle of every
 * write), using ContainerChannel's fault-injection hook, instead of relying on random timing.
 */
class LimeCommitStepCrashTest {
    @TempDir
    Path tmp;

    /** The scripted appends: into the last message (ME clear), a new message, padding, a zero-length record. */
    static final String[][] SCRIPT = {
        {"/msg03/rec02.joins-last-message", "payload that joins message 3"},
        {"/msg04/rec01.new-message", "x"},
        {"/msg04/rec02.padded", "thirteen byte"},
        {"/msg04/rec03.empty", ""},
    };

    public static void main(String[] args) throws Exception {
        try (FileSystem fs = ContainerFileSystems.open(Path.of(args[0]), Map.of("accessMode", "readWrite"))) {
            for (String[] step : SCRIPT) {
                Path p = fs.getPath(step[0]);
                if (!Files.exists(p.getParent())) {
                    Files.createDirectory(p.getParent());
                }
                Files.writeString(p, step[1]);
                System.out.println(step[0]);
                System.out.flush();
            }
        }
    }

    @Test
    void everyPrefixOfTheProtocolLeavesAReadableContainerWithEveryCommittedRecord() throws Exception {
        Path original = LimeCorpusTest.corpus().resolve("s02_lime_writer_test1.lime");
        Path reference = tmp.resolve("reference.lime");
        Files.copy(original, reference);
        assertThat(runChild(reference, -1, false).exitCode).isZero();
        byte[] complete = Files.readAllBytes(reference);

        int halted = 0;
        for (boolean torn : new boolean[] {false, true}) {
            for (int step = 1; ; step++) {
                Path file = tmp.resolve("crash-" + torn + "-" + step + ".lime");
                Files.copy(original, file, StandardCopyOption.REPLACE_EXISTING);
                Child child = runChild(file, step, torn);
                if (child.exitCode == 0) {
                    assertThat(Files.readAllBytes(file)).isEqualTo(complete);
                    break;
                }
                assertThat(child.exitCode).as("halted by the hook").isEqualTo(137);
                halted++;
                checkAfterHalt(file, child.committed, complete);
            }
        }
        assertThat(halted).as("protocol steps covered").isGreaterThanOrEqualTo(2 * 4 * 3);
    }

    private static void checkAfterHalt(Path file, List<String> committed, byte[] complete) throws Exception {
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            for (String path : committed) {
                String payload = Arrays.stream(SCRIPT).filter(s -> s[0].equals(path)).findFirst().orElseThrow()[1];
                assertThat(Files.readString(fs.getPath(path))).isEqualTo(payload);
            }
            assertThat(Files.getAttribute(fs.getPath("/"), "lime:damage")).isEqualTo("");
            String damage = (String) Files.getAttribute(fs.getPath("/"), "lime:uncommittedTail");
            assertThat(damage).satisfiesAnyOf(d -> assertThat(d).isEmpty(),
                    d -> assertThat(d).contains("uncommitted append"), d -> assertThat(d).contains("partial header"));
        }
        // The committed prefix is c-lime's bytes but for ME bits still set: on the last committed record
        // (a later record of its message would clear it) and, halted before the clear, on the one before.
        long end;
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            int records = (int) Files.getAttribute(fs.getPath("/"), "lime:records");
            end = committedEnd(fs, records);
        }
        byte[] actual = Arrays.copyOf(Files.readAllBytes(file), (int) end);
        byte[] expected = Arrays.copyOf(complete, (int) end);
        int differing = 0;
        for (int i = 0; i < end; i++) {
            if (actual[i] != expected[i]) {
                assertThat(actual[i] & 0xFF).as("byte %d", i).isEqualTo((expected[i] & 0xFF) | 0x40);
                differing++;
            }
        }
        assertThat(differing).isLessThanOrEqualTo(2);
        // The next append removes the torn tail and works.
        try (FileSystem fs = ContainerFileSystems.open(file, Map.of("accessMode", "readWrite"))) {
            int messages = (int) Files.getAttribute(fs.getPath("/"), "lime:messages");
            Path dir = fs.getPath(String.format("/msg%02d", messages + 1));
            Files.createDirectory(dir);
            Files.writeString(dir.resolve("rec01.after"), "after");
        }
        try (FileSystem fs = ContainerFileSystems.open(file, Map.of("strict", true))) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "lime:damage")).isEmpty();
        }
    }

    private static long committedEnd(FileSystem fs, int records) throws Exception {
        long end = 0;
        try (var walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(p)) {
                    long data = (long) Files.getAttribute(p, "lime:dataOffset");
                    long length = (long) Files.getAttribute(p, "lime:length");
                    end = Math.max(end, data + length + (int) Files.getAttribute(p, "lime:padding"));
                }
            }
        }
        return end;
    }

    record Child(int exitCode, List<String> committed) {}

    private static Child runChild(Path file, int haltAt, boolean torn) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path")));
        if (haltAt > 0) {
            cmd.add("-Dcontainerfs.faultInjection.haltAtStep=" + haltAt);
            cmd.add("-Dcontainerfs.faultInjection.torn=" + torn);
        }
        cmd.add(LimeCommitStepCrashTest.class.getName());
        cmd.add(file.toString());
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> committed = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                committed.add(line);
            }
        }
        return new Child(p.waitFor(), committed);
    }
}
