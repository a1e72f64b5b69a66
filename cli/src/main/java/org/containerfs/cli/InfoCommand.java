package org.containerfs.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.containerfs.ensemble.EnsembleFileSystem;
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
                + "not checked, and the 'checked' line says so; verify reads everything.",
                "Of a directory: the counts of the whole tree; each container is opened once, in turn, for its index "
                + "(never more than one in use: env cacheContainers bounds how many stay open). A directory that cannot be "
                + "listed (permission denied) is one 'FAIL <path>: cannot list: ...' line, the rest is counted, and the "
                + "exit status is 1."},
        footer = {"", "Example: containerfs info conf.lime"})
final class InfoCommand implements Callable<Integer> {
    @ParentCommand
    Containerfs top;

    @Mixin
    ContainerOptions options;

    @Parameters(index = "0", paramLabel = "<container>", description = "The container: a local file, an object as "
            + "s3://bucket/key (read-only), or a local directory or an S3 prefix (s3://bucket/prefix/), read-only as one tree of "
            + "its containers: its counts "
            + "(directories, containers by format, plain files, records, bytes) and the containers with damage.")
    Path container;

    @picocli.CommandLine.Option(names = "--json", description = "Print one JSON document: container, format, directories, "
            + "files, bytes, checked (\"structure\"), damage (a list), uncommittedTail (if any) and the root's attributes "
            + "(raw bytes as hex). Of a directory: one document for the whole tree (docs/json.md).")
    boolean json;

    @Override
    public Integer call() throws IOException {
        PrintStream out = top.out();
        if (ContainerOptions.isTree(container)) {
            return tree(out, options.openTree(container));
        }
        FileSystem opened = options.openContainerOrTree(container); // an s3:// argument naming no object: a prefix
        if (opened instanceof EnsembleFileSystem prefix) {
            return tree(out, prefix);
        }
        try (FileSystem fs = opened) {
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

    /**
     * A local directory or an S3 prefix: the tree's counts. The source's directories, plain files and containers come from the
     * listings (one stat each); each container is then opened once, in turn, for its index (records, their bytes,
     * the damage the open found), through the tree's bounded cache: never more than one is in use, and none is
     * read beyond what its open reads.
     */
    private int tree(PrintStream out, EnsembleFileSystem opened) throws IOException {
        try (EnsembleFileSystem tree = opened) {
            TreeWalk walk = TreeWalk.of(tree);
            Map<String, Long> formats = new TreeMap<>();
            List<Map<String, Object>> damaged = new ArrayList<>();
            List<Map<String, Object>> tails = new ArrayList<>();
            List<String> notContainers = new ArrayList<>();
            long plainFiles = walk.plainFiles.size();
            long plainBytes = walk.plainFiles.stream().mapToLong(TreeWalk.Plain::size).sum();
            long[] inner = new long[3]; // directories, records, record bytes inside the containers
            long containers = 0;
            try (Progress progress = options.progress("info " + Errors.safe(String.valueOf(container.getFileName())),
                    walk.containerBytes())) {
                for (TreeWalk.Container c : walk.containers) {
                    progress.advance(c.fileSize());
                    String format;
                    try {
                        format = tree.containerFormat(c.path());
                    } catch (IOException | RuntimeException e) {
                        if (TreeWalk.turnedPlain(c.path())) { // named like a container, but no format claims it
                            notContainers.add(c.path().toString());
                            plainFiles++;
                            plainBytes += c.fileSize();
                        } else {
                            containers++;
                            damaged.add(damage(tree, c.path(), null, List.of("cannot be opened: " + Errors.describe(e))));
                        }
                        continue;
                    }
                    containers++;
                    formats.merge(format, 1L, Long::sum);
                    Map<String, Object> attributes = Files.readAttributes(c.path(), format + ":*");
                    if (!Values.isBlank(attributes.get("damage"))) {
                        damaged.add(damage(tree, c.path(), format, JsonReports.damageList(attributes.get("damage"))));
                    }
                    if (!Values.isBlank(attributes.get("uncommittedTail"))) {
                        Map<String, Object> tail = new LinkedHashMap<>();
                        tail.put("container", TreeWalk.fileUri(tree, c.path()));
                        tail.put("path", c.path().toString());
                        tail.put("uncommittedTail", attributes.get("uncommittedTail"));
                        tails.add(tail);
                    }
                    count(c.path(), inner);
                }
            }
            if (json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("directory", TreeWalk.treeUri(tree, container));
                m.put("format", "ensemble");
                m.put("directories", walk.directories);
                m.put("containers", containers);
                m.put("formats", formats);
                m.put("plainFiles", plainFiles);
                m.put("plainBytes", plainBytes);
                m.put("innerDirectories", inner[0]);
                m.put("records", inner[1]);
                m.put("recordBytes", inner[2]);
                m.put("bytes", plainBytes + inner[2]);
                m.put("checked", JsonReports.CHECKED_BY_INFO);
                m.put("damaged", damaged);
                m.put("uncommittedTails", tails);
                m.put("notContainers", notContainers);
                List<Map<String, String>> unlisted = new ArrayList<>();
                walk.unlisted.forEach(u -> unlisted.add(JsonReports.failure(u.path().toString(), u.reason())));
                m.put("unlisted", unlisted);
                m.put("peakContainersOpen", tree.peakContainersOpen());
                out.println(Json.of(m));
                return walk.unlisted.isEmpty() ? 0 : 1;
            }
            Map<String, String> lines = new LinkedHashMap<>();
            lines.put("directory", Errors.safe(ContainerOptions.name(container)));
            lines.put("format", "ensemble (a directory as one tree of containers)");
            lines.put("directories", Long.toString(walk.directories));
            StringBuilder byFormat = new StringBuilder();
            formats.forEach((f, n) -> byFormat.append(byFormat.isEmpty() ? "" : ", ").append(f).append(' ').append(n));
            lines.put("containers", containers + (byFormat.isEmpty() ? "" : " (" + byFormat + ")"));
            lines.put("plain files", plainFiles + (notContainers.isEmpty() ? ""
                    : " (" + notContainers.size() + " named like containers, but no format's magic bytes)"));
            lines.put("plain bytes", Long.toString(plainBytes));
            lines.put("records", inner[1] + " (files inside the containers, in " + inner[0] + " directories)");
            lines.put("record bytes", Long.toString(inner[2]));
            lines.put("bytes", Long.toString(plainBytes + inner[2]));
            lines.put("uncommitted", tails.isEmpty() ? "none" : tails.size() + " containers with an uncommitted tail");
            lines.put("checked", "structure only (each container's index, opened in turn); contents not read: run verify");
            lines.put("damaged", damaged.isEmpty() ? "none in the structure" : damaged.size() + (damaged.size() == 1
                    ? " container" : " containers"));
            if (!walk.unlisted.isEmpty()) {
                lines.put("not listed", walk.unlisted.size() + " (not counted above: see the FAIL lines)");
            }
            print(out, lines, "");
            for (Map<String, Object> d : damaged) {
                @SuppressWarnings("unchecked")
                List<String> findings = (List<String>) d.get("damage");
                out.println("  " + Errors.safe(String.valueOf(d.get("path"))) + ": " + String.join("; ", findings));
            }
            for (TreeWalk.Unlisted u : walk.unlisted) {
                out.println("FAIL " + Errors.safe(u.path().toString()) + ": " + u.reason());
            }
            return walk.unlisted.isEmpty() ? 0 : 1;
        }
    }

    private static Map<String, Object> damage(EnsembleFileSystem tree, Path container, String format, List<String> findings) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("container", TreeWalk.fileUri(tree, container));
        m.put("path", container.toString());
        m.put("format", format);
        m.put("damage", findings);
        return m;
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
