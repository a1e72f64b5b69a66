package org.containerfs.gsd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.gsd.GsdTestSupport.openRead;
import static org.containerfs.gsd.GsdTestSupport.openWrite;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.containerfs.HaltedChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stops a GSD appender at every write/truncate/force of its commit protocol (whole and torn in
 * half) with ContainerChannel's fault-injection hook. After each stop: every frame whose commit
 * returned is there byte-exact, python3-gsd reads the file, and a new frame appends.
 */
class GsdCommitStepCrashTest {
    /** Frames 0..8 exist; the child appends 9 and 10 (10 adds a name, so the name list grows too). */
    private static final int BASE_FRAMES = 9;
    private static final int LAST_FRAME = 10;

    @TempDir
    Path tmp;

    /** Child: appends the frames after the existing ones up to LAST_FRAME, printing each after its commit. */
    public static void main(String[] args) throws Exception {
        try (FileSystem fs = openWrite(Paths.get(args[0]), Map.of())) {
            int next = (Integer) Files.getAttribute(fs.getPath("/"), "gsd:frames");
            for (int f = next; f <= LAST_FRAME; f++) {
                GsdKillChild.appendFrame(fs, f);
                System.out.println(f);
                System.out.flush();
            }
        }
    }

    @Test
    void everyStepOfTheAppendProtocolLeavesEveryCommittedFrameAndAnAppendableFile() throws Exception {
        Path base = tmp.resolve("base.gsd");
        try (FileSystem fs = GsdTestSupport.create(base, Map.of())) {
            for (int f = 0; f < BASE_FRAMES; f++) {
                GsdKillChild.appendFrame(fs, f);
            }
        }
        List<String> pythonChecks = new ArrayList<>();
        int halted = 0;
        for (boolean torn : new boolean[] {false, true}) {
            for (int step = 1; ; step++) {
                Path file = tmp.resolve("halt-" + torn + "-" + step + ".gsd");
                Files.copy(base, file, StandardCopyOption.REPLACE_EXISTING);
                HaltedChild child = HaltedChild.run(GsdCommitStepCrashTest.class, step, torn, file.toString());
                if (child.exitCode() == 0) {
                    assertThat(checkIntact(file, LAST_FRAME + 1)).isEqualTo(LAST_FRAME + 1);
                    break;
                }
                assertThat(child.halted()).as("halted by the hook at step %d: %s", step, child).isTrue();
                halted++;
                int committed = BASE_FRAMES + child.printed().size();
                int frames = checkIntact(file, committed);
                // every printed frame is there; at most the frame in flight is there without its print
                assertThat(frames).as("step %d torn %s", step, torn).isBetween(committed, committed + 1);
                Path snapshot = tmp.resolve("snapshot-" + torn + "-" + step + ".gsd");
                Files.copy(file, snapshot);
                pythonChecks.addAll(List.of("check", snapshot.toString(), expectFile(snapshot, committed).toString(), "--"));
                try (FileSystem fs = openWrite(file, Map.of())) {
                    GsdKillChild.appendFrame(fs, frames);
                }
                assertThat(checkIntact(file, committed)).isEqualTo(frames + 1);
            }
        }
        System.out.printf("commit steps gsd: %d halts (whole and torn writes), every one checked%n", halted);
        assertThat(halted).as("protocol steps covered").isGreaterThanOrEqualTo(2 * 2 * 3);
        pythonChecks.remove(pythonChecks.size() - 1);
        List<String> counts = GsdTestSupport.python(pythonChecks.toArray(new String[0]));
        assertThat(counts).hasSize(halted);
    }

    /**
     * Opens read-only; every committed frame holds exactly its chunks, every other frame a subset of
     * them, byte-exact; returns the frame count. (A write of the frame's index entries torn in half
     * leaves the frame in flight with its first chunks only: gsd's commit point is that one write, and
     * python3-gsd sees the same partial frame. A SIGKILL tears a write only at a page boundary.)
     */
    static int checkIntact(Path file, int committed) throws Exception {
        try (FileSystem fs = openRead(file)) {
            int frames = (Integer) Files.getAttribute(fs.getPath("/"), "gsd:frames");
            for (int f = 0; f < frames; f++) {
                Map<String, Object[]> chunks = GsdKillChild.frameChunks(f);
                int count = (Integer) Files.getAttribute(fs.getPath("/" + f), "gsd:chunkCount");
                if (f < committed) {
                    assertThat(count).as("frame %d", f).isEqualTo(chunks.size());
                } else {
                    assertThat(count).as("frame %d in flight", f).isBetween(1, chunks.size());
                }
                for (Map.Entry<String, Object[]> c : chunks.entrySet()) {
                    if (f >= committed && !Files.exists(fs.getPath("/" + f + "/" + c.getKey()))) {
                        continue;
                    }
                    assertThat(Files.readAllBytes(fs.getPath("/" + f + "/" + c.getKey())))
                            .as("frame %d %s", f, c.getKey()).isEqualTo((byte[]) c.getValue()[2]);
                }
            }
            return frames;
        }
    }

    /** {frame: {namehex: sha256}} for gsd_tool.py check. */
    private static Path expectFile(Path snapshot, int frames) throws Exception {
        StringBuilder sb = new StringBuilder("{");
        for (int f = 0; f < frames; f++) {
            sb.append(f == 0 ? "" : ", ").append('"').append(f).append("\": {");
            boolean first = true;
            for (Map.Entry<String, Object[]> c : GsdKillChild.frameChunks(f).entrySet()) {
                sb.append(first ? "" : ", ").append('"')
                        .append(HexFormat.of().formatHex(c.getKey().getBytes(StandardCharsets.UTF_8)))
                        .append("\": \"").append(GsdTestSupport.sha256((byte[]) c.getValue()[2])).append('"');
                first = false;
            }
            sb.append('}');
        }
        Path p = snapshot.resolveSibling(snapshot.getFileName() + ".json");
        Files.writeString(p, sb.append('}').toString());
        return p;
    }
}
