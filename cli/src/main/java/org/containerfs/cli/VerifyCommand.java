package org.containerfs.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.Callable;
import org.containerfs.ensemble.EnsembleFileSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Reads the whole container and says whether it is sound.",
                "Every file is read to its end (so the format checks lengths, checksums and decoding); each failure "
                + "is reported as 'FAIL <path>: <reason>', including the damage the format found when it opened the "
                + "container ('FAIL /: ...'). An append a writer did not finish (an uncommitted tail) is no damage: it is "
                + "reported as 'NOTE /: ...'. The last line is the summary."},
        footer = {"", "Exit status: 0 if the container is sound (an uncommitted tail included), 1 if anything failed "
                + "(of a directory: if any container is damaged).",
                "", "Example: containerfs verify conf.lime && echo sound"})
final class VerifyCommand implements Callable<Integer> {
    private static final int BUFFER = 1 << 20;

    @ParentCommand
    Containerfs top;

    @Mixin
    ContainerOptions options;

    @Option(names = {"-v", "--verbose"}, description = "Also print 'ok <path> <bytes>' for every sound file.")
    boolean verbose;

    @Parameters(index = "0", paramLabel = "<container>", description = "The container: a local file, an object as "
            + "s3://bucket/key (read-only), or a local directory or an S3 prefix (s3://bucket/prefix/), read-only as one "
            + "tree: every container below it is "
            + "verified in turn, one line each ('OK <path>: ...' or 'DAMAGED <path>: ...'), then a summary line; a "
            + "directory that cannot be listed is one 'FAIL <path>: cannot list: ...' line, counted in the summary (exit 1).")
    Path container;

    @Option(names = "--json", description = "Print one JSON document instead of lines: container, format, sound, "
            + "directories, files, bytesRead, checked, damage (the root's, a list), uncommittedTail (if any), "
            + "failures: [{path, reason}]. Of a directory: one document with a result per container (docs/json.md). "
            + "Standard output is this one document whatever happens.")
    boolean json;

    private java.util.List<Map<String, String>> jsonFailures = new java.util.ArrayList<>();
    private Object rootDamage;
    private Object uncommittedTail;
    private String formatName = "";
    private Progress progress = Progress.start(null, null, false, "", -1);

    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
    private long files;
    private long directories;
    private long bytes;
    private long failures;

    @Override
    public Integer call() throws IOException {
        PrintStream out = top.out();
        if (ContainerOptions.isTree(container)) {
            return tree(out, options.openTree(container));
        }
        FileSystem fs;
        try {
            fs = options.openContainerOrTree(container); // an s3:// argument naming no object: a prefix
        } catch (CliException | NoSuchFileException notAContainer) {
            throw notAContainer; // a usage problem (missing file, directory, unknown format), not damage
        } catch (java.nio.file.FileSystemException | java.net.SocketException | java.io.InterruptedIOException e) {
            throw e; // the file or the store could not be reached or was refused: says nothing of the bytes
        } catch (IOException | RuntimeException e) {
            if (json) {
                jsonFailures.add(JsonReports.failure(JsonReports.containerUri(container), Errors.describe(e)));
                out.println(Json.of(JsonReports.verify(container, formatName, 0, 0, 0, jsonFailures, null, null)));
                return 1;
            }
            out.println("FAIL " + Errors.safe(ContainerOptions.name(container)) + ": " + Errors.describe(e));
            out.println(ContainerOptions.name(container) + ": cannot be opened: DAMAGED");
            return 1;
        }
        if (fs instanceof EnsembleFileSystem prefix) {
            return tree(out, prefix);
        }
        try (fs) {
            Path root = fs.getRootDirectories().iterator().next();
            formatName = JsonReports.format(fs);
            checkRoot(out, root, null);
            if (options.showProgress()) {
                long[] counts = new long[3];
                try {
                    InfoCommand.count(root, counts); // from the index: the bar's total
                } catch (IOException | RuntimeException e) {
                    counts[2] = -1; // the walk below reports it
                }
                progress = options.progress("verify " + Errors.safe(String.valueOf(container.getFileName())), counts[2]);
            }
            walk(out, root);
        } catch (IOException e) {
            fail(out, null, Errors.describe(e));
        } finally {
            progress.close();
        }
        if (json) {
            out.println(Json.of(JsonReports.verify(container, formatName, directories, files, bytes, jsonFailures,
                    rootDamage, uncommittedTail)));
            return failures == 0 ? 0 : 1;
        }
        out.printf("%s: %d directories, %d files, %d bytes read, %d %s: %s%n", Errors.safe(ContainerOptions.name(container)),
                directories, files, bytes, failures, failures == 1 ? "failure" : "failures", failures == 0 ? "OK" : "DAMAGED");
        return failures == 0 ? 0 : 1;
    }

    /** The damage and uncommitted tail the format found at the open ({@code view} null: the file system's own view). */
    private void checkRoot(PrintStream out, Path root, String view) {
        try {
            Map<String, Object> attributes = view == null ? ContainerOptions.formatAttributes(root)
                    : Files.readAttributes(root, view + ":*");
            rootDamage = attributes.get("damage");
            uncommittedTail = attributes.get("uncommittedTail");
            Object damage = attributes.get("damage");
            if (!Values.isBlank(damage)) {
                fail(out, root, Values.show(damage));
            }
            Object tail = attributes.get("uncommittedTail");
            if (!Values.isBlank(tail) && !json) { // with --json it is the document's uncommittedTail
                progress.close();
                out.println("NOTE " + Errors.safe(root.toString()) + ": uncommitted tail (no committed byte lost): "
                        + Values.show(tail));
            }
        } catch (IOException | RuntimeException e) {
            fail(out, root, Errors.describe(e));
        }
    }

    /**
     * A local directory or an S3 prefix: every container of the tree read whole, one after the other (through the tree's bounded
     * cache), one line each, then a summary; plain files are counted, not read. The progress line's total is the
     * containers' file sizes, its label the container being read and how many of them are done.
     */
    private int tree(PrintStream out, EnsembleFileSystem opened) throws IOException {
        long containers = 0;
        long damaged = 0;
        long bytesRead = 0;
        long plainFiles;
        long unlisted;
        java.util.List<Map<String, String>> unlistedJson = new java.util.ArrayList<>();
        java.util.List<String> notContainers = new java.util.ArrayList<>();
        java.util.List<Map<String, Object>> results = new java.util.ArrayList<>();
        String name = Errors.safe(ContainerOptions.name(container));
        String directoryUri;
        try (EnsembleFileSystem tree = opened) {
            directoryUri = TreeWalk.treeUri(tree, container);
            TreeWalk walk = TreeWalk.of(tree);
            plainFiles = walk.plainFiles.size();
            unlisted = walk.unlisted.size();
            for (TreeWalk.Unlisted u : walk.unlisted) { // one FAIL each; the rest of the tree is verified
                if (json) {
                    unlistedJson.add(JsonReports.failure(u.path().toString(), u.reason()));
                } else {
                    out.println("FAIL " + Errors.safe(u.path().toString()) + ": " + u.reason());
                }
            }
            progress = options.progress("verify " + Errors.safe(String.valueOf(container.getFileName())),
                    walk.containerBytes());
            int done = 0;
            for (TreeWalk.Container c : walk.containers) {
                progress.label("verify " + (++done) + "/" + walk.containers.size() + " "
                        + Errors.safe(String.valueOf(c.path().getFileName())));
                Path root = c.path();
                files = directories = bytes = failures = 0;
                jsonFailures = new java.util.ArrayList<>();
                rootDamage = null;
                uncommittedTail = null;
                String format;
                try {
                    format = tree.containerFormat(root);
                } catch (IOException | RuntimeException e) {
                    if (TreeWalk.turnedPlain(root)) {
                        notContainers.add(root.toString());
                        plainFiles++;
                        if (!json) {
                            progress.close();
                            out.println("NOTE " + Errors.safe(root.toString()) + ": named like a container, but no "
                                    + "format's magic bytes: a plain file, not verified");
                        }
                        continue;
                    }
                    format = null;
                    fail(out, root, Errors.describe(e));
                }
                containers++;
                if (format != null) {
                    checkRoot(out, root, format);
                    walk(out, root);
                }
                bytesRead += bytes;
                boolean sound = failures == 0;
                damaged += sound ? 0 : 1;
                if (json) {
                    Map<String, Object> r = JsonReports.verify(null, format, directories, files, bytes, jsonFailures,
                            rootDamage, uncommittedTail);
                    r.put("container", TreeWalk.fileUri(tree, root));
                    Map<String, Object> withPath = new java.util.LinkedHashMap<>();
                    withPath.put("path", root.toString());
                    withPath.putAll(r);
                    withPath.remove("checked");
                    results.add(withPath);
                } else {
                    progress.close();
                    out.println((sound ? "OK " : "DAMAGED ") + Errors.safe(root.toString()) + ": " + (format == null
                            ? "cannot be opened"
                            : format + ", " + directories + " directories, " + files + " files, " + bytes + " bytes read"
                                    + (sound ? "" : ", " + failures + (failures == 1 ? " failure" : " failures"))));
                }
            }
        } finally {
            progress.close();
        }
        if (json) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("directory", directoryUri);
            m.put("format", "ensemble");
            m.put("sound", damaged == 0 && unlisted == 0);
            m.put("containers", containers);
            m.put("damaged", damaged);
            m.put("plainFiles", plainFiles);
            m.put("notContainers", notContainers);
            m.put("unlisted", unlistedJson);
            m.put("bytesRead", bytesRead);
            m.put("checked", JsonReports.CHECKED_BY_VERIFY);
            m.put("results", results);
            out.println(Json.of(m));
            return damaged == 0 && unlisted == 0 ? 0 : 1;
        }
        out.printf("%s: %d containers, %d OK, %d DAMAGED, %d plain %s (not read), %s%d bytes read: %s%n", name, containers,
                containers - damaged, damaged, plainFiles, plainFiles == 1 ? "file" : "files",
                unlisted == 0 ? "" : unlisted + " not listed (FAIL), ", bytesRead,
                damaged > 0 ? "DAMAGED" : unlisted > 0 ? "FAIL" : "OK");
        return damaged == 0 && unlisted == 0 ? 0 : 1;
    }

    private void walk(PrintStream out, Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (IOException | RuntimeException e) {
                    fail(out, p, Errors.describe(e));
                    continue;
                }
                if (a.isDirectory()) {
                    directories++;
                    walk(out, p);
                } else {
                    files++;
                    check(out, p, a.size());
                }
            }
        } catch (IOException | RuntimeException e) {
            fail(out, dir, "cannot list: " + Errors.describe(e));
        }
    }

    private void check(PrintStream out, Path file, long size) {
        long read = 0;
        try (SeekableByteChannel ch = Files.newByteChannel(file)) {
            int n;
            while ((n = ch.read(buffer.clear())) >= 0) {
                read += n;
                progress.advance(n);
            }
        } catch (IOException | RuntimeException e) {
            bytes += read;
            fail(out, file, Errors.describe(e));
            return;
        }
        bytes += read;
        if (read != size) {
            fail(out, file, "read " + read + " bytes but the listed size is " + size);
        } else if (verbose && !json) {
            progress.close();
            out.println("ok " + file + " " + read);
        }
    }

    private void fail(PrintStream out, Path where, String message) {
        failures++;
        progress.close();
        if (json) {
            jsonFailures.add(JsonReports.failure(where == null ? "" : where.toString(), message));
            return;
        }
        out.println("FAIL " + (where == null ? "" : Errors.safe(where.toString())) + ": " + message);
    }
}
