package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.containerfs.HaltedChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stops a G3 appender at every write/truncate/force (whole and torn in half) with ContainerChannel's
 * fault-injection hook: every frame whose commit returned is there with a good CRC and its values,
 * the tail is at most a torn frame, and the next append removes it and reads strictly.
 */
class G3CommitStepCrashTest {
    /** Frames 0..1 exist; the child appends 2..4. */
    private static final int BASE = 2;
    private static final int LAST = 4;

    @TempDir
    Path tmp;

    static String dir(int f) {
        return String.format("/%06d.Scan", f);
    }

    static void write(FileSystem fs, int f) throws Exception {
        Path d = Files.createDirectory(fs.getPath(dir(f)));
        G3Blobs.write(d, "Index", new G3Value.IntValue(f));
        G3Blobs.write(d, "Samples", new G3Value.VectorDouble(G3AppendWorker.samples(f)));
    }

    /** Child: a frame commits when the next frame directory is made or the file system closes. */
    public static void main(String[] args) throws Exception {
        int next;
        try (FileSystem fs = G3TestSupport.open(Paths.get(args[0]), Map.of("accessMode", "readWrite"))) {
            next = (Integer) Files.getAttribute(fs.getPath("/"), "g3:frames");
            for (int f = next; f <= LAST; f++) {
                write(fs, f);
                if (f > next) {
                    System.out.println(f - 1); // committed by the mkdir of frame f
                    System.out.flush();
                }
            }
        }
        System.out.println(LAST);
    }

    @Test
    void everyStepOfTheAppendLeavesEveryCommittedFrameAndARemovableTail() throws Exception {
        Path base = tmp.resolve("base.g3");
        try (FileSystem fs = G3TestSupport.open(base, Map.of("create", true))) {
            for (int f = 0; f < BASE; f++) {
                write(fs, f);
            }
        }
        int halted = 0;
        for (boolean torn : new boolean[] {false, true}) {
            for (int step = 1; ; step++) {
                Path file = tmp.resolve("halt-" + torn + "-" + step + ".g3");
                Files.copy(base, file, StandardCopyOption.REPLACE_EXISTING);
                HaltedChild child = HaltedChild.run(G3CommitStepCrashTest.class, step, torn, file.toString());
                if (child.exitCode() == 0) {
                    assertThat(check(file)).isEqualTo(LAST + 1);
                    break;
                }
                assertThat(child.halted()).as("halted by the hook at step %d: %s", step, child).isTrue();
                halted++;
                int committed = BASE + child.printed().size();
                int frames = check(file);
                assertThat(frames).as("step %d torn %s", step, torn).isBetween(committed, committed + 1);
                try (FileSystem fs = G3TestSupport.open(file, Map.of("accessMode", "readWrite"))) {
                    write(fs, frames);
                }
                try (FileSystem fs = G3TestSupport.open(file, Map.of("strict", true));
                        Stream<Path> list = Files.list(fs.getPath("/"))) {
                    List<String> names = list.map(p -> "/" + p.getFileName()).collect(Collectors.toList());
                    assertThat(names).hasSize(frames + 1).last().isEqualTo(dir(frames));
                }
                assertThat(check(file)).isEqualTo(frames + 1);
            }
        }
        System.out.printf("commit steps g3: %d halts (whole and torn writes), every one checked%n", halted);
        assertThat(halted).as("protocol steps covered").isGreaterThanOrEqualTo(2 * (LAST - BASE + 1));
    }

    /** Every frame has a good CRC and its values; damage is none or a truncated tail; returns the frame count. */
    private static int check(Path file) throws Exception {
        try (FileSystem fs = G3TestSupport.open(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "g3:*");
            int frames = (Integer) root.get("frames");
            assertThat(root.get("damage")).isEqualTo(""); // a killed append is no damage to committed frames
            assertThat((String) root.get("uncommittedTail")).satisfiesAnyOf(d -> assertThat(d).isEmpty(),
                    d -> assertThat(d).startsWith("truncated tail"));
            for (int f = 0; f < frames; f++) {
                Path d = fs.getPath(dir(f));
                assertThat(Files.getAttribute(d, "g3:crcOk")).as("frame %d", f).isEqualTo(true);
                assertThat(G3Blobs.read(d.resolve("Index"))).contains(new G3Value.IntValue(f));
                assertThat(G3Blobs.read(d.resolve("Samples"))).contains(new G3Value.VectorDouble(G3AppendWorker.samples(f)));
            }
            return frames;
        }
    }
}
