package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line: drawn on standard error under a pseudo-terminal ({@code script}), never in a pipe unless
 * {@code --progress} asks, never with {@code --quiet}; what the line says.
 */
class ProgressTest {
    private static final Path ROOT = Corpus.repositoryRoot();
    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path tmp;

    record Run(int status, String stdout, String stderr) {}

    /** The tool's jar as a user runs it; no delay before the first drawing, so small samples show it too. */
    private static List<String> containerfs(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Dcontainerfs.progress.delayMillis=0", "-jar",
                ROOT.resolve("cli/target/containerfs.jar").toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** Runs with standard output and error in files (not a terminal). */
    private Run inPipes(List<String> command) throws Exception {
        Path out = tmp.resolve("out");
        Path err = tmp.resolve("err");
        Process p = new ProcessBuilder(command).directory(ROOT.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Runs under a pseudo-terminal made by script(1): standard output and error both go to it, merged. */
    private static String underTerminal(List<String> command) throws Exception {
        return underTerminal(List.of(), command);
    }

    /** The same, {@code command} run through {@code prefix} (a wrapper that sets the terminal up, then execs it). */
    private static String underTerminal(List<String> prefix, List<String> command) throws Exception {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(command);
        String line = String.join(" ", all.stream().map(a -> "'" + a.replace("'", "'\\''") + "'").toList());
        Process p = new ProcessBuilder("script", "-qec", line, "/dev/null").directory(ROOT.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output;
    }

    @Test
    void verifyAndTheIndexBuildOfAG3GzDrawABarOnATerminalAndWipeIt() throws Exception {
        String output = underTerminal(containerfs("verify", "samples/g3/observation.g3.gz"));

        assertThat(output).contains("\rindexing observation.g3.gz [").contains("\rverify observation.g3.gz [")
                .contains(" B/s").contains("%");
        // the line is wiped before the summary, which starts on a clean line
        assertThat(output).containsPattern("\r +\r(\r)?samples/g3/observation.g3.gz: 4 directories, 18 files");
    }

    @Test
    void cpRecursiveDrawsBytesOfTheTotal() throws Exception {
        String output = underTerminal(containerfs("cp", "-r", "samples/lime/ildg.lime", "/", tmp.resolve("x").toString()));

        assertThat(output).contains("\rcp / [").contains("/ 10.2 KiB");
        assertThat(tmp.resolve("x/msg02/rec04.ildg-binary-data")).hasSize(9216);
    }

    @Test
    void theLineFitsTheTerminalsOwnWidthNotCOLUMNS() throws Exception {
        // shells do not export $COLUMNS: the width must come from the terminal itself (TIOCGWINSZ)
        String narrow = underTerminal(List.of("sh", "-c", "stty cols 40 && unset COLUMNS && exec \"$0\" \"$@\""),
                containerfs("verify", "samples/g3/observation.g3.gz"));
        String wide = underTerminal(List.of("sh", "-c", "stty cols 200 && unset COLUMNS && exec \"$0\" \"$@\""),
                containerfs("verify", "samples/g3/observation.g3.gz"));

        assertThat(drawnLines(narrow)).isNotEmpty().allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(39));
        assertThat(drawnLines(wide)).anySatisfy(l -> assertThat(l.length()).isGreaterThan(39));
    }

    /** The progress lines drawn (each after a carriage return), without the blanks that wipe them. */
    private static List<String> drawnLines(String output) {
        List<String> lines = new ArrayList<>();
        for (String part : output.split("\r")) {
            String line = part.split("\n", -1)[0];
            if (line.contains(" [")) {
                lines.add(line.stripTrailing());
            }
        }
        return lines;
    }

    @Test
    void quietSilencesItOnATerminal() throws Exception {
        String output = underTerminal(containerfs("verify", "--quiet", "samples/g3/observation.g3.gz"));

        assertThat(output).doesNotContain("\r ").doesNotContain("[").startsWith("samples/g3/observation.g3.gz: ");
    }

    @Test
    void aPipeGetsNoProgressUnlessAskedFor() throws Exception {
        Run plain = inPipes(containerfs("verify", "samples/g3/observation.g3.gz"));
        Run forced = inPipes(containerfs("verify", "--progress", "samples/g3/observation.g3.gz"));
        Run forcedButQuiet = inPipes(containerfs("cp", "--progress", "-q", "-r", "samples/lime/ildg.lime", "/",
                tmp.resolve("y").toString()));

        assertThat(plain.stderr()).isEmpty();
        assertThat(plain.stdout()).isEqualTo("samples/g3/observation.g3.gz: 4 directories, 18 files, 1329 bytes read, "
                + "0 failures: OK\n");
        assertThat(forced.stderr()).contains("\rverify observation.g3.gz [");
        assertThat(forced.stdout()).isEqualTo(plain.stdout());
        assertThat(forcedButQuiet.stderr()).isEmpty();
    }

    @Test
    void mountDrawsTheIndexBuildBeforeItSaysMounted() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/fuse")), "no FUSE on this machine");
        Path mountPoint = Files.createDirectories(tmp.resolve("first-hour-mount"));
        List<String> command = containerfs("mount", "samples/g3/observation.g3.gz", mountPoint.toString());
        String line = String.join(" ", command.stream().map(a -> "'" + a + "'").toList());
        Process p = new ProcessBuilder("script", "-qec", line, "/dev/null").directory(ROOT.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectErrorStream(true).redirectOutput(tmp.resolve("mount.out").toFile()).start();
        try {
            // a loaded machine (the whole suite on 2 cores) can take a while to start the JVM and mount
            long deadline = System.nanoTime() + 180 * SECOND;
            while (!Files.readString(tmp.resolve("mount.out")).contains("containerfs: mounted")
                    && System.nanoTime() < deadline && p.isAlive()) {
                Thread.sleep(50);
            }
            assertThat(Files.exists(mountPoint.resolve("000001.Scan"))).as(Files.readString(tmp.resolve("mount.out"))).isTrue();
        } finally {
            unmount(mountPoint, p);
        }
        String output = Files.readString(tmp.resolve("mount.out"));
        assertThat(output).containsPattern("\rindexing \\[[.#]+\\] .*\r +\r(\r)?containerfs: mounted samples/g3/observation.g3.gz");
    }

    /**
     * Ends the mount as Ctrl-C would (SIGTERM: its hook unmounts), and never leaves a mount behind. script(1) can end
     * before the java process under it has finished unmounting, and fusermount's auto_unmount runs after the daemon is
     * gone: wait for both the process and the kernel's mount table, or the temporary directory cannot be removed.
     */
    private static void unmount(Path mountPoint, Process p) throws Exception {
        List<ProcessHandle> children = p.descendants().toList();
        children.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + 120 * SECOND;
        boolean ended = true;
        for (ProcessHandle child : children) {
            try {
                child.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                ended = false;
            }
        }
        ended &= p.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        while (mounted(mountPoint) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (!ended || mounted(mountPoint)) {
            new ProcessBuilder("fusermount3", "-u", "-z", mountPoint.toString()).start().waitFor(30, TimeUnit.SECONDS);
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("the mount did not end on SIGTERM");
        }
    }

    private static boolean mounted(Path mountPoint) throws Exception {
        String target = " " + mountPoint.toAbsolutePath().normalize() + " "; // not toRealPath: a dead mount answers ENOTCONN
        return Files.readAllLines(Path.of("/proc/self/mountinfo")).stream().anyMatch(l -> l.contains(target));
    }

    @Test
    void theLineSaysBytesOfTheTotalRateAndTimeLeft() {
        Progress p = Progress.start(new PrintStream(new ByteArrayOutputStream()), null, true, "verify big.lime", 4L << 20);
        p.advance(1L << 20);

        assertThat(p.line(p.started() + SECOND))
                .isEqualTo("verify big.lime [####............]  25% 1.0 MiB / 4.0 MiB 1.0 MiB/s 0:03 left");
        p.advance(3L << 20);
        assertThat(p.line(p.started() + 2 * SECOND))
                .isEqualTo("verify big.lime [################] 100% 4.0 MiB / 4.0 MiB 2.0 MiB/s");
        Progress early = Progress.start(new PrintStream(new ByteArrayOutputStream()), null, true, "indexing x", 100L << 20);
        early.scanned(2, 100L << 20);
        assertThat(early.line(early.started() + SECOND / 2)).as("no guess from the first bytes")
                .isEqualTo("indexing x [................]   0% 2 B / 100.0 MiB 4 B/s");
    }

    @Test
    void aTreesVerifyNamesTheContainerBeingReadAndHowManyAreDone() {
        // verify DIR: the total is the containers' file sizes, the label the container being read
        Progress p = Progress.start(new PrintStream(new ByteArrayOutputStream()), null, true, "verify runs", 4L << 20);
        p.label("verify 2/4 conf.0002.lime");
        p.advance(2L << 20);

        assertThat(p.line(p.started() + SECOND))
                .startsWith("verify 2/4 conf.0002.lime [########........]  50% 2.0 MiB / 4.0 MiB");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Progress hidden = Progress.start(new PrintStream(err), null, false, "verify runs", 100);
        hidden.label("verify 1/1 x.lime");
        hidden.advance(100);
        assertThat(err.size()).isZero();
    }

    @Test
    void withoutATotalItCounts() {
        Progress p = Progress.start(new PrintStream(new ByteArrayOutputStream()), null, true, "cp /", -1);
        p.item();
        p.item();
        p.advance(3L << 30);

        assertThat(p.line(p.started() + 4 * SECOND)).isEqualTo("cp / 2 files 3.0 GiB 768.0 MiB/s");
        assertThat(Progress.duration(3725)).isEqualTo("1:02:05");
        assertThat(Progress.bytes(1023)).isEqualTo("1023 B");
    }

    @Test
    void aProgressNotShownWritesNothing() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Progress p = Progress.start(new PrintStream(err), null, false, "verify", 100);
        p.advance(50);
        p.scanned(10, 100);
        p.close();

        assertThat(err.size()).isZero();
        assertThat(p.shown()).isFalse();
    }

    @Test
    void inProcessRunsNeverTakeTheirCapturedStreamsForATerminal() {
        Cli.Result r = Cli.run("verify", ROOT.resolve("samples/g3/observation.g3.gz"));

        assertThat(r.stderr()).isEmpty();
    }
}
