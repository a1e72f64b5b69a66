package org.containerfs.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

// No standard help mixin: -h is --human-readable here, as in coreutils' ls; help is --help alone.
@Command(name = "ls", versionProvider = Containerfs.Version.class,
        description = {"Lists a directory of the container (the root by default) in file order.",
                "Directories end with '/'. With -R every entry below is listed by its full path."},
        footer = {"", "With -l each line is: d or -, the size in bytes, the name, then the format's attributes "
                + "(key=value; a true flag is shown by its name; false flags, empty values and a length equal to the size "
                + "are left out). -h shows sizes as coreutils' ls -lh does (K, M, G: powers of 1024, rounded up); "
                + "--json always gives bytes.",
                "", "Example: containerfs ls -l conf.lime /msg02"})
final class LsCommand implements Callable<Integer> {
    @ParentCommand
    Containerfs top;

    @Mixin
    ContainerOptions options;

    @Option(names = "--help", usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print version information and exit.")
    boolean version;

    @Option(names = "-l", description = "Long listing: type, size, name and the format's attributes.")
    boolean longFormat;

    @Option(names = {"-h", "--human-readable"}, description = "With -l: sizes as 1.5K, 234M, 2.0G (powers of 1024, rounded up).")
    boolean humanReadable;

    @Option(names = "-R", description = "Recursive: everything below the path, by full path.")
    boolean recursive;

    @Option(names = "--attrs", split = ",", paramLabel = "NAME",
            description = "Show only these format attributes (comma-separated), e.g. --attrs=type,mb,me; implies -l.")
    List<String> attributeNames;

    @Option(names = "--json", description = "Print JSON: one document {container, format, path, entries: [...]}, or with -R "
            + "one entry per line (JSON lines). Each entry: path, name, type, size, format, attributes (raw bytes as hex).")
    boolean json;

    private final List<Map<String, Object>> jsonEntries = new java.util.ArrayList<>();

    @Parameters(index = "0", paramLabel = "<container>", description = "The container: a local file, an object as s3://bucket/key (read-only), or a local directory, whose containers show as directories of one tree.")
    Path container;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<path>", description = "A directory or file in the container (default /).")
    String path = "/";

    @Override
    public Integer call() throws IOException {
        PrintStream out = top.out();
        try (FileSystem fs = options.openContainerOrTree(container)) {
            Path start = ContainerOptions.entry(fs, path);
            BasicFileAttributes a = Files.readAttributes(start, BasicFileAttributes.class);
            if (!a.isDirectory()) {
                print(out, start, a, recursive ? start.toString() : String.valueOf(start.getFileName()));
            } else {
                list(out, start);
            }
            if (json && !recursive) {
                Map<String, Object> document = new LinkedHashMap<>();
                document.put("container", JsonReports.containerUri(container));
                document.put("format", JsonReports.format(fs));
                document.put("path", start.toString());
                document.put("entries", jsonEntries);
                out.println(Json.of(document));
            }
        }
        return 0;
    }

    private void list(PrintStream out, Path dir) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                print(out, p, a, recursive ? p.toString() : String.valueOf(p.getFileName()));
                if (recursive && a.isDirectory()) {
                    list(out, p);
                }
            }
        }
    }

    private void print(PrintStream out, Path p, BasicFileAttributes a, String shown) throws IOException {
        if (json) {
            Map<String, Object> entry = JsonReports.entry(p, a);
            if (recursive) {
                out.println(Json.of(entry));
            } else {
                jsonEntries.add(entry);
            }
            return;
        }
        String name = Errors.safe(a.isDirectory() ? shown + "/" : shown);
        if (!longFormat && attributeNames == null) {
            out.println(name);
            return;
        }
        Map<String, Object> attributes = ContainerOptions.formatAttributes(p);
        if (attributeNames != null) {
            Map<String, Object> chosen = new LinkedHashMap<>();
            for (String k : attributeNames) {
                if (attributes.containsKey(k)) {
                    chosen.put(k, attributes.get(k));
                }
            }
            attributes = chosen;
        }
        String compact = Values.compact(attributes, a.size(), attributeNames != null);
        String size = humanReadable ? humanSize(a.size()) : Long.toString(a.size());
        out.printf("%s %12s  %s%s%n", a.isDirectory() ? "d" : "-", size, name, compact.isEmpty() ? "" : "  " + compact);
    }

    /**
     * A size as coreutils' {@code ls -h} shows it: bytes below 1024, else the value in the largest power of 1024 that
     * keeps it at least 1, rounded up, with one decimal below 10 (1.0K, 9.1K, 10K, 234M).
     */
    static String humanSize(long bytes) {
        if (bytes < 1024) {
            return Long.toString(bytes);
        }
        String units = "KMGTPE";
        int unit = 0;
        java.math.BigDecimal value = java.math.BigDecimal.valueOf(bytes).divide(java.math.BigDecimal.valueOf(1024));
        java.math.BigDecimal step = java.math.BigDecimal.valueOf(1024);
        while (value.compareTo(step) >= 0 && unit < units.length() - 1) {
            value = value.divide(step);
            unit++;
        }
        java.math.BigDecimal shown = value.compareTo(java.math.BigDecimal.TEN) < 0
                ? value.setScale(1, java.math.RoundingMode.CEILING)
                : value.setScale(0, java.math.RoundingMode.CEILING);
        if (shown.compareTo(java.math.BigDecimal.TEN) == 0 && shown.scale() == 1) {
            shown = java.math.BigDecimal.TEN; // 9.95K rounds up to 10K, shown without a decimal as coreutils does
        }
        if (shown.compareTo(step) >= 0 && unit < units.length() - 1) {
            shown = new java.math.BigDecimal("1.0");
            unit++;
        }
        return shown.toPlainString() + units.charAt(unit);
    }
}
