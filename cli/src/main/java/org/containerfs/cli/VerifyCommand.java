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
        footer = {"", "Exit status: 0 if the container is sound (an uncommitted tail included), 1 if anything failed.",
                "", "Example: containerfs verify conf.lime && echo sound"})
final class VerifyCommand implements Callable<Integer> {
    private static final int BUFFER = 1 << 20;

    @ParentCommand
    Containerfs top;

    @Mixin
    ContainerOptions options;

    @Option(names = {"-v", "--verbose"}, description = "Also print 'ok <path> <bytes>' for every sound file.")
    boolean verbose;

    @Parameters(index = "0", paramLabel = "<container>", description = "The container: a local file, or an object as s3://bucket/key (read-only).")
    Path container;

    @Option(names = "--json", description = "Print one JSON document instead of lines: container, format, sound, "
            + "directories, files, bytesRead, checked, damage (the root's, a list), uncommittedTail (if any), "
            + "failures: [{path, reason}]. Standard output is this one document whatever happens.")
    boolean json;

    private final java.util.List<Map<String, String>> jsonFailures = new java.util.ArrayList<>();
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
        FileSystem fs;
        try {
            fs = options.open(container);
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
        try (fs) {
            Path root = fs.getRootDirectories().iterator().next();
            try {
                Map<String, Object> attributes = ContainerOptions.formatAttributes(root);
                formatName = JsonReports.format(fs);
                rootDamage = attributes.get("damage");
                uncommittedTail = attributes.get("uncommittedTail");
                Object damage = attributes.get("damage");
                if (!Values.isBlank(damage)) {
                    fail(out, root, Values.show(damage));
                }
                Object tail = attributes.get("uncommittedTail");
                if (!Values.isBlank(tail) && !json) { // with --json it is the document's uncommittedTail
                    out.println("NOTE " + Errors.safe(root.toString()) + ": uncommitted tail (no committed byte lost): "
                            + Values.show(tail));
                }
            } catch (IOException | RuntimeException e) {
                fail(out, root, Errors.describe(e));
            }
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
