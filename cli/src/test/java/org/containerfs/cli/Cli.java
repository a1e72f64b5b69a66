package org.containerfs.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the containerfs command in-process with captured output, as a user's shell would see it. */
final class Cli {
    private Cli() {}

    record Result(int status, byte[] stdoutBytes, String stderr) {
        String stdout() {
            return new String(stdoutBytes, StandardCharsets.UTF_8);
        }

        String[] lines() {
            String s = stdout();
            if (s.isEmpty()) {
                return new String[0];
            }
            return (s.endsWith("\n") ? s.substring(0, s.length() - 1) : s).split("\n", -1);
        }
    }

    static Result run(Object... args) {
        return runWithInput(new byte[0], args);
    }

    /** Runs with {@code stdin} as standard input. */
    static Result runWithInput(byte[] stdin, Object... args) {
        String[] strings = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            strings[i] = String.valueOf(args[i]);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Containerfs.run(strings, new java.io.ByteArrayInputStream(stdin), o, e);
        }
        return new Result(status, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }
}
