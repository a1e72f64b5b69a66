package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A child JVM appends units (bytes a function of the unit's index, its index printed once the commit
 * returned) while this JVM lists and reads them in a read-only file system of its own with live
 * refresh: every unit listed must be whole and byte-exact (never one half written), every unit the
 * child printed before a listing started must be in that listing, and at the end all are there.
 *
 * <p>SIONlib is create-only: the file is written under a staging name beside the target and renamed
 * into place when its file system closes, so another process's view reduces to that rename.
 * {@link #aSionFileIsAbsentOrWholeWhileAnotherProcessCreatesIt} checks it: a reader opening the target
 * during the creation finds no file, or the whole file.
 */
class TwoProcessAppendTest {
    private static final int UNITS = 120;
    private static final int MAX_BYTES = 48 * 1024;
    /** The child pauses between units so that the parent lists many times while the container grows. */
    private static final int PAUSE_MILLIS = 5;
    private static final int SION_TASKS = 4;
    private static final int SION_TASK_BYTES = 2 << 20;

    @TempDir
    Path tmp;

    /**
     * The child: {@code <format> <file>}. Creates the container, prints "ready", waits for a line on
     * stdin (the parent has opened its file system), then appends, printing each unit's index after its
     * commit returned (SION: writes every task and prints "closed" once the file system is closed).
     */
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[1]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (args[0].equals("sion")) {
            try (FileSystem fs = ContainerFileSystems.create(file, "sion")) {
                report("ready");
                in.readLine();
                for (int t = 0; t < SION_TASKS; t++) {
                    AppendableFormat.write(fs.getPath(String.format("/task%06d", t)), sionTask(t));
                }
            }
            report("closed");
            return;
        }
        AppendableFormat format = AppendableFormat.valueOf(args[0]);
        try (FileSystem fs = format.create(file)) {
            report("ready");
            in.readLine();
            for (int i = 0; i < UNITS; i++) {
                format.append(fs, i, MAX_BYTES);
                report(Integer.toString(i));
                Thread.sleep(PAUSE_MILLIS);
            }
        }
    }

    private static void report(String line) {
        System.out.println(line);
        System.out.flush();
    }

    static byte[] sionTask(int t) {
        return AppendableFormat.bytes(1000L + t, SION_TASK_BYTES);
    }

    /** The child's stdout, read by a thread of its own. */
    private static final class ChildOutput {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final AtomicInteger lastUnit = new AtomicInteger(-1);
        final AtomicBoolean ended = new AtomicBoolean();
        final Thread pump;

        ChildOutput(Process child) throws IOException {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");
            pump = new Thread(() -> {
                try {
                    for (String line; (line = out.readLine()) != null; ) {
                        lines.add(line);
                        if (!line.equals("closed")) {
                            lastUnit.set(Integer.parseInt(line));
                        }
                    }
                } catch (IOException | NumberFormatException e) {
                    lines.add("unreadable output: " + e);
                } finally {
                    ended.set(true);
                }
            }, "child-stdout");
            pump.setDaemon(true);
            pump.start();
        }
    }

    private static void go(Process child) throws IOException {
        OutputStream stdin = child.getOutputStream();
        stdin.write("go\n".getBytes(StandardCharsets.US_ASCII));
        stdin.flush();
    }

    private static void awaitExit(Process child, ChildOutput output) throws Exception {
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child exited").isTrue();
        output.pump.join(10_000);
        assertThat(child.exitValue()).as("child exit code; it printed %s", output.lines).isZero();
    }

    @ParameterizedTest
    @EnumSource(AppendableFormat.class)
    void aReaderInAnotherProcessSeesEveryCommittedUnitWholeAndNothingElse(AppendableFormat format) throws Exception {
        Path file = tmp.resolve("shared." + format.format);
        Process child = HaltedChild.start(TwoProcessAppendTest.class, format.name(), file.toString());
        try {
            ChildOutput output = new ChildOutput(child);
            Random random = new Random(format.ordinal());
            Set<Integer> checked = new HashSet<>();
            int listings = 0;
            int listingsWhileGrowing = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            try (FileSystem fs = format.openReadOnly(file)) {
                go(child);
                while (true) {
                    boolean childEnded = output.ended.get(); // read first: then every unit it printed is counted
                    int reported = output.lastUnit.get();
                    List<Integer> listed = format.listUnits(fs);
                    assertThat(listed).as("%s: units are listed in order, none missing", format)
                            .isEqualTo(IntStream.range(0, listed.size()).boxed().collect(Collectors.toList()));
                    assertThat(listed.size()).as("%s: a listing shows every unit the child reported committed before it "
                            + "(listing %d; child reported unit %d)", format, listings, reported).isGreaterThan(reported);
                    for (int unit : listed) {
                        if (checked.add(unit)) {
                            format.check(fs, unit, MAX_BYTES, random);
                        }
                    }
                    if (!listed.isEmpty()) {
                        // an earlier unit must not change while later ones are appended
                        format.check(fs, random.nextInt(listed.size()), MAX_BYTES, random);
                    }
                    listings++;
                    if (!listed.isEmpty() && listed.size() < UNITS) {
                        listingsWhileGrowing++;
                    }
                    if (childEnded) {
                        break;
                    }
                    if (System.nanoTime() > deadline) {
                        fail("%s: the child did not finish; it printed %s", format, output.lines);
                    }
                }
            }
            awaitExit(child, output);
            assertThat(output.lines).as("%s: the child committed every unit in order", format)
                    .isEqualTo(IntStream.range(0, UNITS).mapToObj(Integer::toString).collect(Collectors.toList()));
            assertThat(checked).as("%s: units checked by the reader", format).hasSize(UNITS);
            assertThat(listingsWhileGrowing).as("%s: listings that met the container half grown", format).isPositive();
            System.out.printf("two-process %s: %d units checked over %d listings, %d of them while the child appended%n",
                    format.format, checked.size(), listings, listingsWhileGrowing);
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void aSionFileIsAbsentOrWholeWhileAnotherProcessCreatesIt() throws Exception {
        Path file = tmp.resolve("created.sion");
        Process child = HaltedChild.start(TwoProcessAppendTest.class, "sion", file.toString());
        try {
            ChildOutput output = new ChildOutput(child);
            int absent = 0;
            int whole = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            go(child);
            while (true) {
                boolean closed = output.lines.contains("closed");
                try (FileSystem fs = ContainerFileSystems.provider("sion").newFileSystem(file, Map.of())) {
                    List<String> tasks = new ArrayList<>();
                    try (var list = Files.list(fs.getPath("/"))) {
                        list.forEach(p -> tasks.add(p.getFileName().toString()));
                    }
                    assertThat(tasks).as("tasks of the SION file seen during its creation").hasSize(SION_TASKS);
                    for (int t = 0; t < SION_TASKS; t++) {
                        assertThat(Files.readAllBytes(fs.getPath(String.format("/task%06d", t)))).as("task %d", t)
                                .isEqualTo(sionTask(t));
                    }
                    whole++;
                } catch (NoSuchFileException notYet) {
                    assertThat(closed).as("the file is there once the child closed its file system").isFalse();
                    absent++;
                    Thread.sleep(1); // leave the cores to the child
                }
                if (closed) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    fail("the SION child did not finish; it printed %s", output.lines);
                }
            }
            awaitExit(child, output);
            assertThat(absent).as("opens that found no file while the child wrote").isPositive();
            assertThat(whole).isPositive();
            System.out.printf("two-process sion: %d opens found no file, %d found the whole file%n", absent, whole);
        } finally {
            child.destroyForcibly();
        }
    }
}
