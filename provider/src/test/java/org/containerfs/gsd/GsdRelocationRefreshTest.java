package org.containerfs.gsd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.gsd.GsdTestSupport.openRead;
import static org.containerfs.gsd.GsdTestSupport.openWrite;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.HaltedChild;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A live reader that refreshes at any instant of a commit that moves the index or the name list
 * (issue 18.1): a child JVM appending one frame is halted at each of its writes in turn; a reader that
 * was open before lists the half-done state, then the rest of the commit is put in place (the bytes
 * the writer would still have written, without growing the file where the writer would not), and the
 * reader must list the new frame, byte-exact. Before the fix, a reader that looked between the header
 * write and the entries write never looked again while the file kept its size.
 */
class GsdRelocationRefreshTest {
    @TempDir
    Path tmp;

    enum Move {
        /** 64 frames of 2 chunks fill the 128 initial index slots: frame 64 moves the index. */
        INDEX(64, false),
        /** A 1447-byte name outgrows the 1024-byte name list: frame 1 moves the name list only. */
        NAMES(1, true),
        /** Both at once. */
        BOTH(64, true);

        final int baseFrames;
        final boolean longName;

        Move(int baseFrames, boolean longName) {
            this.baseFrames = baseFrames;
            this.longName = longName;
        }
    }

    static Map<String, byte[]> chunks(int frame, boolean longName) {
        Map<String, byte[]> c = new LinkedHashMap<>();
        c.put("a", bytes(frame, 8));
        c.put("b", bytes(frame + 1000, 24));
        if (longName) {
            c.put(String.join("/", java.util.Collections.nCopies(8, "c".repeat(180))), bytes(frame + 2000, 3));
        }
        return c;
    }

    private static byte[] bytes(int seed, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i * 7 + 1);
        }
        return b;
    }

    static void append(FileSystem fs, int frame, boolean longName) throws Exception {
        Files.createDirectory(fs.getPath("/" + frame));
        for (Map.Entry<String, byte[]> c : chunks(frame, longName).entrySet()) {
            Path chunk = fs.getPath("/" + frame + "/" + c.getKey());
            Files.createDirectories(chunk.getParent());
            GsdTestSupport.writeChunk(chunk, "uint8", 1, c.getValue());
        }
        Files.setAttribute(fs.getPath("/" + frame), "gsd:commit", true);
    }

    /** Child: {@code <file> <frame> <longName>} appends that one frame. */
    public static void main(String[] args) throws Exception {
        try (FileSystem fs = openWrite(Paths.get(args[0]), Map.of())) {
            append(fs, Integer.parseInt(args[1]), Boolean.parseBoolean(args[2]));
        }
    }

    @ParameterizedTest
    @EnumSource(Move.class)
    void aReaderThatLooksBetweenAnyTwoStepsOfAMoveSeesTheFrameOnceTheCommitIsDone(Move move) throws Exception {
        Path base = tmp.resolve("base.gsd");
        try (FileSystem fs = GsdTestSupport.create(base, Map.of())) {
            for (int f = 0; f < move.baseFrames; f++) {
                append(fs, f, false);
            }
        }
        int next = move.baseFrames;
        String[] args = {null, Integer.toString(next), Boolean.toString(move.longName)};
        Path done = tmp.resolve("done.gsd");
        Files.copy(base, done);
        args[0] = done.toString();
        assertThat(HaltedChild.run(GsdRelocationRefreshTest.class, 0, false, args).exitCode()).isZero();
        assertThat(moved(base, done, move)).as("the commit moves what %s says", move).isTrue();
        byte[] finished = Files.readAllBytes(done);

        int halts = 0;
        for (int step = 1; ; step++) {
            Path file = tmp.resolve("step" + step + ".gsd");
            Files.copy(base, file, StandardCopyOption.REPLACE_EXISTING);
            try (FileSystem reader = openRead(file)) {
                assertThat(frames(reader)).isEqualTo(next);
                args[0] = file.toString();
                HaltedChild child = HaltedChild.run(GsdRelocationRefreshTest.class, step, false, args);
                if (!child.halted()) {
                    assertThat(child.exitCode()).isZero();
                    assertThat(frames(reader)).as("after the whole commit").isEqualTo(next + 1);
                    break;
                }
                halts++;
                assertThat(frames(reader)).as("halted before write %d", step).isBetween(next, next + 1);
                finishCommit(file, finished);
                assertThat(frames(reader)).as("%s: halted before write %d, then the commit finished", move, step)
                        .isEqualTo(next + 1);
                for (Map.Entry<String, byte[]> c : chunks(next, move.longName).entrySet()) {
                    assertThat(Files.readAllBytes(reader.getPath("/" + next + "/" + c.getKey())))
                            .as("step %d chunk %s", step, c.getKey().length() > 8 ? "long name" : c.getKey())
                            .isEqualTo(c.getValue());
                }
            }
        }
        assertThat(halts).as("writes of the commit").isGreaterThanOrEqualTo(4);
    }

    private static int frames(FileSystem fs) throws Exception {
        try (Stream<Path> s = Files.list(fs.getPath("/"))) {
            return (int) s.count();
        }
    }

    /** Whether the finished file's index or name list (as {@code move} says) lies elsewhere than in base. */
    private static boolean moved(Path base, Path done, Move move) throws Exception {
        try (FileSystem a = openRead(base); FileSystem b = openRead(done)) {
            boolean index = !Files.getAttribute(a.getPath("/"), "gsd:indexLocation")
                    .equals(Files.getAttribute(b.getPath("/"), "gsd:indexLocation"));
            boolean names = !Files.getAttribute(a.getPath("/"), "gsd:namelistLocation")
                    .equals(Files.getAttribute(b.getPath("/"), "gsd:namelistLocation"));
            return index == (move != Move.NAMES) && names == move.longName;
        }
    }

    /** Writes, in place, every byte where the halted file differs from the finished one (the writer's remaining steps). */
    private static void finishCommit(Path file, byte[] finished) throws Exception {
        byte[] now = Files.readAllBytes(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            int i = 0;
            while (i < finished.length) {
                if (i < now.length && now[i] == finished[i]) {
                    i++;
                    continue;
                }
                int start = i;
                while (i < finished.length && (i >= now.length || now[i] != finished[i])) {
                    i++;
                }
                ByteBuffer run = ByteBuffer.wrap(Arrays.copyOfRange(finished, start, i));
                while (run.hasRemaining()) {
                    ch.write(run, start + (i - start) - run.remaining());
                }
            }
        }
    }
}
