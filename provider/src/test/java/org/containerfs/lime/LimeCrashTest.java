package org.containerfs.lime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of a writing JVM at random moments: every record whose channel was closed (the child
 * prints it after close returns) must be intact afterwards, and the next append must work.
 */
class LimeCrashTest {
    /** 50 in the normal suite; scripts/crash-soak sets -Dcontainerfs.crash.trials=1000. */
    static final int TRIALS = Integer.getInteger("containerfs.crash.trials", 50);

    @TempDir
    Path tmp;

    /** The child: appends records forever, printing "<path> <sha256>" after each commit. */
    public static void main(String[] args) throws Exception {
        Path container = Path.of(args[0]);
        Random random = new Random(Long.parseLong(args[1]));
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        try (FileSystem fs = ContainerFileSystems.create(container, "lime")) {
            int messages = (int) Files.getAttribute(fs.getPath("/"), "lime:messages");
            int inMessage = 0;
            if (messages > 0) {
                try (var recs = Files.list(fs.getPath(String.format("/msg%02d", messages)))) {
                    inMessage = (int) recs.count();
                }
            }
            out.println("ready");
            for (long i = 0; ; i++) {
                if (messages == 0 || random.nextInt(4) == 0) {
                    messages++;
                    Files.createDirectory(fs.getPath(String.format("/msg%02d", messages)));
                    inMessage = 0;
                }
                inMessage++;
                Path rec = fs.getPath(String.format("/msg%02d/rec%02d.trial%s-%d", messages, inMessage, args[2], i));
                byte[] chunk = new byte[1 + random.nextInt(4096)];
                random.nextBytes(chunk);
                int pieces = 1 + random.nextInt(8);
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                try (OutputStream o = Files.newOutputStream(rec, StandardOpenOption.CREATE_NEW)) {
                    for (int p = 0; p < pieces; p++) {
                        o.write(chunk);
                        md.update(chunk);
                    }
                }
                out.println(rec + " " + HexFormat.of().formatHex(md.digest()));
            }
        }
    }

    @Test
    void everyCommittedRecordSurvivesSigkillAndTheNextAppendWorks() throws Exception {
        Path container = tmp.resolve("crash.lime");
        Random random = new Random(42);
        List<String[]> committed = new ArrayList<>();
        int unreportedBefore = 0;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int trial = 0; trial < TRIALS; trial++) {
            Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    LimeCrashTest.class.getName(), container.toString(), Long.toString(random.nextLong()),
                    Integer.toString(trial))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertThat(lines.readLine()).isEqualTo("ready");
            long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20 + random.nextInt(400));
            List<IOException> readFailures = new ArrayList<>();
            Thread reader = new Thread(() -> {
                try {
                    for (String line; (line = lines.readLine()) != null; ) {
                        synchronized (committed) {
                            committed.add(line.split(" "));
                        }
                    }
                } catch (IOException e) {
                    readFailures.add(e); // a lost line would pass for an unreported record: fail instead
                }
            });
            reader.start();
            while (System.nanoTime() < killAt) {
                Thread.onSpinWait();
            }
            // SIGKILL through the handle: Process.destroyForcibly would also close our end of the pipe,
            // and the reader would lose the lines the child printed just before it died.
            child.toHandle().destroyForcibly();
            child.waitFor();
            reader.join();
            assertThat(readFailures).as("reading the child's output of trial %d", trial).isEmpty();
            int records = verify(container, committed);
            // The child prints a record after its commit: a kill in between leaves one record unreported.
            int unreported = records - committed.size();
            assertThat(unreported - unreportedBefore).as("records committed but not reported in trial %d", trial)
                    .isBetween(0, 1);
            unreportedBefore = unreported;
        }
        assertThat(committed.size()).as("records committed over all trials").isGreaterThan(TRIALS);
        System.out.printf("crash-soak lime: %d trials, %d committed records checked after each kill, 0 lost%n",
                TRIALS, committed.size());
        // After the last kill: one more append through the provider, then everything reads back.
        try (FileSystem fs = ContainerFileSystems.create(container, "lime")) {
            int messages = (int) Files.getAttribute(fs.getPath("/"), "lime:messages");
            Files.createDirectory(fs.getPath(String.format("/msg%02d", messages + 1)));
            Files.writeString(fs.getPath(String.format("/msg%02d/rec01.after-crash", messages + 1)), "still here");
        }
        try (FileSystem fs = ContainerFileSystems.open(container)) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "lime:damage")).isEmpty();
            // every reported record, the ones committed but not reported (counted per trial), the new one
            assertThat((int) Files.getAttribute(fs.getPath("/"), "lime:records"))
                    .isEqualTo(committed.size() + unreportedBefore + 1);
        }
    }

    /** Checks every reported record and the tail; returns the number of records in the container. */
    private static int verify(Path container, List<String[]> committed) throws Exception {
        try (FileSystem fs = ContainerFileSystems.open(container, Map.of("strict", false))) {
            for (String[] c : committed) {
                Path p = fs.getPath(c[0]);
                assertThat(Files.exists(p)).as("committed record %s", c[0]).isTrue();
                assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))))
                        .as("bytes of %s", c[0]).isEqualTo(c[1]);
            }
            assertThat(Files.getAttribute(fs.getPath("/"), "lime:damage")).isEqualTo("");
            String damage = (String) Files.getAttribute(fs.getPath("/"), "lime:uncommittedTail");
            assertThat(damage).as("only an uncommitted append may follow the committed records")
                    .satisfiesAnyOf(d -> assertThat(d).isEmpty(), d -> assertThat(d).contains("uncommitted append"),
                            d -> assertThat(d).contains("partial header"));
            return (int) Files.getAttribute(fs.getPath("/"), "lime:records");
        }
    }
}
