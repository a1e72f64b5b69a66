package org.containerfs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a writer's main class in a child JVM that ContainerChannel's fault-injection hook halts at its
 * N-th write/truncate/force (optionally after half a write), and collects what it printed to stdout
 * (each line is printed only after the unit's commit returned).
 */
public record HaltedChild(int exitCode, List<String> printed) {
    /** Exit code of a JVM the hook halted (the same code SIGKILL gives through a shell). */
    public static final int HALTED = 137;

    public boolean halted() {
        return exitCode == HALTED;
    }

    /** {@code haltAt <= 0} runs to completion. */
    public static HaltedChild run(Class<?> main, int haltAt, boolean torn, String... args) throws Exception {
        List<String> cmd = javaCommand();
        if (haltAt > 0) {
            cmd.add("-Dcontainerfs.faultInjection.haltAtStep=" + haltAt);
            cmd.add("-Dcontainerfs.faultInjection.torn=" + torn);
        }
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> printed = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                printed.add(line);
            }
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("child did not finish: " + cmd);
        }
        return new HaltedChild(p.exitValue(), printed);
    }

    /**
     * Starts {@code main} in a child JVM of the same kind, without fault injection, and returns at once:
     * the caller reads its stdout (stderr goes to ours) and may write to its stdin.
     */
    public static Process start(Class<?> main, String... args) throws IOException {
        List<String> cmd = javaCommand();
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** java with this JVM's class path and options that start a small child quickly. */
    private static List<String> javaCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ArrayList<>(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Xmx64m", "-cp", System.getProperty("java.class.path")));
    }
}
