package org.containerfs.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "info", mixinStandardHelpOptions = true,
        description = {"Describes a container: format, version, counts, damage found in its structure.",
                "Shows the root's format attributes (version, record counts, ...), the number of directories, files "
                + "and bytes in the tree, the damage the format found in committed data (a truncated record, bytes that "
                + "are not records, a gzip stream that fails its checks, ...) and an uncommitted tail (an append a writer "
                + "did not finish: harmless, the next append reclaims it). Only the container's structure (headers, "
                + "index, lengths) is read, never its data: checksums over the data (G3 frame CRCs, gzip) and encodings are "
                + "not checked, and the 'checked' line says so; verify reads everything."},
        footer = {"", "Example: containerfs info conf.lime"})
final class InfoCommand implements Callable<Integer> {
    @ParentCommand
    Containerfs top;

    @Mixin
    ContainerOptions options;

    @Parameters(index = "0", paramLabel = "<container>", description = "The container: a local file, or an object as s3://bucket/key (read-only).")
    Path container;

    @picocli.CommandLine.Option(names = "--json", description = "Print one JSON document: container, format, directories, "
            + "files, bytes, checked (\"structure\"), damage (a list), uncommittedTail (if any) and the root's attributes "
            + "(raw bytes as hex).")
    boolean json;

    @Override
    public Integer call() throws IOException {
        PrintStream out = top.out();
        try (FileSystem fs = options.open(container)) {
            Path root = fs.getRootDirectories().iterator().next();
            if (json) {
                long[] counts = new long[3];
                count(root, counts);
                out.println(Json.of(JsonReports.info(container, fs, counts)));
                return 0;
            }
            // Two lists, never merged: what the tree holds (counted from the listing) and the format's own attributes
            // of the container, whose names may be the same words (SIONlib's `files` is physical files, not tasks).
            Map<String, String> lines = new LinkedHashMap<>();
            String view = ContainerOptions.formatView(fs) != null ? ContainerOptions.formatView(fs) : fs.provider().getScheme();
            lines.put("container", ContainerOptions.name(container));
            lines.put("format", view);
            Map<String, Object> attributes = ContainerOptions.formatAttributes(root);
            Object damage = attributes.get("damage");
            Object uncommittedTail = attributes.get("uncommittedTail");
            long[] counts = new long[3];
            count(root, counts);
            lines.put("directories", Long.toString(counts[0]));
            lines.put("files", Long.toString(counts[1]));
            lines.put("bytes", Long.toString(counts[2]));
            lines.put("uncommitted", Values.isBlank(uncommittedTail) ? "none" : Values.show(uncommittedTail));
            // only what the open read was looked at: say so, never "sound" (verify reads the contents)
            lines.put("checked", "structure only (headers, index, lengths); contents not read: run verify");
            lines.put("damage", Values.isBlank(damage) ? "none in the structure" : Values.show(damage));
            Map<String, String> own = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : attributes.entrySet()) {
                if (e.getKey().equals("damage") || e.getKey().equals("uncommittedTail")) {
                    continue;
                } else if (!(e.getKey().equals("format") && view.equals(Values.show(e.getValue())))) {
                    String shown = Values.show(e.getValue());
                    own.put(e.getKey(), shown.isEmpty() ? "none" : shown); // an empty text (no gzip damage) says so
                }
            }
            print(out, lines, "");
            if (!own.isEmpty()) {
                out.println(view + " attributes of the container (" + view + ":*):");
                print(out, own, "  ");
            }
        }
        return 0;
    }

    private static void print(PrintStream out, Map<String, String> lines, String indent) {
        int width = lines.keySet().stream().mapToInt(String::length).max().orElse(0) + 1;
        for (Map.Entry<String, String> e : lines.entrySet()) {
            out.printf("%s%-" + width + "s %s%n", indent, e.getKey() + ":", e.getValue());
        }
    }

    /** directories, files and file bytes below {@code dir}, from the listing alone. */
    static void count(Path dir, long[] counts) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                if (a.isDirectory()) {
                    counts[0]++;
                    count(p, counts);
                } else {
                    counts[1]++;
                    counts[2] += a.size();
                }
            }
        }
    }
}
