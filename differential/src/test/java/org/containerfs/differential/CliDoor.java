package org.containerfs.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.containerfs.cli.Containerfs;

/**
 * The command line, run in this JVM as the cli module's tests run it: {@code containerfs ls -R --json}
 * lists (a non-zero exit is a refusal), then {@code containerfs cat <container> <path>...} reads the files
 * (a non-zero exit of {@code cat} of one file means it is unreadable, whatever bytes came before the error).
 */
final class CliDoor implements Door {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A finished command line. */
    record Run(int status, byte[] stdout, String stderr) {
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Containerfs.run(args, new ByteArrayInputStream(new byte[0]), o, e);
        }
        return new Run(status, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    @Override
    public String name() {
        return "cli";
    }

    @Override
    public Answer answer(Input input) throws Exception {
        String container = input.file().toString();
        Run ls = run("ls", "-R", "--json", container);
        if (ls.status() != 0) {
            return Answer.refusedToOpen();
        }
        Map<String, Answer.Entry> entries = new TreeMap<>();
        Map<String, Long> files = new java.util.LinkedHashMap<>();
        for (String line : ls.out().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode entry = JSON.readTree(line);
            String path = entry.get("path").asText();
            if (path.equals("/")) {
                continue; // the root is no entry of an answer
            }
            if (entry.get("type").asText().equals("directory")) {
                entries.put(path, Answer.Entry.directory());
            } else {
                files.put(path, entry.get("size").asLong());
            }
        }
        entries.putAll(read(container, files));
        return Answer.of(entries);
    }

    /**
     * The files' contents by {@code cat}: all of them in one run when it succeeds and gives exactly the
     * listed sizes (then the output is cut at those sizes), else one run per file, so that which file fails
     * (or is short) is the file's own answer.
     */
    private static Map<String, Answer.Entry> read(String container, Map<String, Long> files) {
        Map<String, Answer.Entry> entries = new TreeMap<>();
        if (files.isEmpty()) {
            return entries;
        }
        List<String> args = new ArrayList<>(List.of("cat", container));
        args.addAll(files.keySet());
        Run all = run(args.toArray(String[]::new));
        long total = files.values().stream().mapToLong(Long::longValue).sum();
        if (all.status() == 0 && all.stdout().length == total) {
            int at = 0;
            for (Map.Entry<String, Long> f : files.entrySet()) {
                int size = Math.toIntExact(f.getValue());
                entries.put(f.getKey(), Answer.Entry.file(size,
                        NioWalk.content(Arrays.copyOfRange(all.stdout(), at, at + size), size)));
                at += size;
            }
            return entries;
        }
        files.forEach((path, size) -> {
            Run cat = run("cat", container, path);
            entries.put(path, Answer.Entry.file(size,
                    cat.status() == 0 ? NioWalk.content(cat.stdout(), size) : Answer.UNREADABLE));
        });
        return entries;
    }
}
