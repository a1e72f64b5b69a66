package org.containerfs.gsd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.gsd.GsdTestSupport.openRead;
import static org.containerfs.gsd.GsdTestSupport.openWrite;
import static org.containerfs.gsd.GsdTestSupport.python;
import static org.containerfs.gsd.GsdTestSupport.sha256;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL at random moments while a child JVM appends frames: every frame whose commit returned is
 * in the file and intact, for us and for python3-gsd, and the next append works. All trials append
 * to the same file, so each child also appends to a file a killed writer left behind.
 */
class GsdKillTest {
    private static final int TRIALS = 20;

    @TempDir
    Path tmp;

    @Test
    void everyCommittedFrameSurvivesSigkillAndTheFileStaysAppendable() throws Exception {
        Path file = tmp.resolve("killed.gsd");
        Random random = new Random(20261122);
        List<String> pythonChecks = new ArrayList<>();
        int expectedFrames = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            List<Integer> printed = runAndKill(file, random.nextInt(120));
            assertThat(printed).as("trial %d committed something", trial).isNotEmpty();
            assertThat(printed.get(0)).isEqualTo(expectedFrames);
            int lastPrinted = printed.get(printed.size() - 1);

            int frames = checkIntact(file);
            // every printed frame is there; at most the frame in flight got committed without its print
            assertThat(frames).as("trial %d", trial).isBetween(lastPrinted + 1, lastPrinted + 2);

            Path snapshot = tmp.resolve("trial" + trial + ".gsd");
            Files.copy(file, snapshot);
            pythonChecks.addAll(List.of("check", snapshot.toString(), expectFile(trial, frames).toString(), "--"));

            // the next append works, in this process, on the file the killed writer left
            try (FileSystem fs = openWrite(file, Map.of())) {
                GsdKillChild.appendFrame(fs, frames);
            }
            expectedFrames = frames + 1;
            assertThat(checkIntact(file)).isEqualTo(expectedFrames);
        }
        pythonChecks.addAll(List.of("check", file.toString(), expectFile(TRIALS, expectedFrames).toString()));
        List<String> counts = python(pythonChecks.toArray(new String[0]));
        assertThat(counts).hasSize(TRIALS + 1);
        assertThat(Integer.parseInt(counts.get(TRIALS).strip())).isEqualTo(expectedFrames);
    }

    /** Starts a child appender, waits for its first commit, lets it run {@code millis} more, then SIGKILLs it. */
    private List<Integer> runAndKill(Path file, int millis) throws Exception {
        String cp = codeSource(GsdKillChild.class) + File.pathSeparator + codeSource(GsdFormat.class);
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-Xmx64m", "-cp", cp, GsdKillChild.class.getName(), file.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<Integer> printed = new CopyOnWriteArrayList<>();
        CountDownLatch first = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("C ")) {
                        printed.add(Integer.parseInt(line.substring(2).strip()));
                        first.countDown();
                    }
                }
            } catch (Exception e) {
                // the pipe breaks when the child dies: the lines read so far are what was printed
            }
        });
        reader.start();
        try {
            assertThat(first.await(30, TimeUnit.SECONDS)).as("the child committed a frame").isTrue();
            Thread.sleep(millis);
        } finally {
            // SIGKILL through the handle: Process.destroyForcibly would also close our end of the pipe
            child.toHandle().destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
            reader.join(10_000);
        }
        // a half-printed last line is dropped by readLine only if it has no newline; parseInt guards the rest
        return new ArrayList<>(printed);
    }

    private static String codeSource(Class<?> c) throws Exception {
        return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /** Opens read-only; checks every frame in the file holds exactly its chunks; returns the frame count. */
    private static int checkIntact(Path file) throws Exception {
        try (FileSystem fs = openRead(file)) {
            int frames = (Integer) Files.getAttribute(fs.getPath("/"), "gsd:frames");
            for (int f = 0; f < frames; f++) {
                Map<String, Object[]> chunks = GsdKillChild.frameChunks(f);
                assertThat(Files.getAttribute(fs.getPath("/" + f), "gsd:chunkCount")).as("frame %d", f).isEqualTo(chunks.size());
                for (Map.Entry<String, Object[]> c : chunks.entrySet()) {
                    assertThat(Files.readAllBytes(fs.getPath("/" + f + "/" + c.getKey())))
                            .as("frame %d %s", f, c.getKey()).isEqualTo((byte[]) c.getValue()[2]);
                }
            }
            return frames;
        }
    }

    /** {frame: {namehex: sha256}} for gsd_tool.py check. */
    private Path expectFile(int trial, int frames) throws Exception {
        StringBuilder sb = new StringBuilder("{");
        for (int f = 0; f < frames; f++) {
            sb.append(f == 0 ? "" : ", ").append('"').append(f).append("\": {");
            boolean firstChunk = true;
            for (Map.Entry<String, Object[]> c : GsdKillChild.frameChunks(f).entrySet()) {
                sb.append(firstChunk ? "" : ", ").append('"')
                        .append(HexFormat.of().formatHex(c.getKey().getBytes(StandardCharsets.UTF_8)))
                        .append("\": \"").append(sha256((byte[]) c.getValue()[2])).append('"');
                firstChunk = false;
            }
            sb.append('}');
        }
        Path p = tmp.resolve("expect" + trial + ".json");
        Files.writeString(p, sb.append('}').toString());
        return p;
    }
}
