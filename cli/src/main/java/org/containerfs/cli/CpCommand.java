package org.containerfs.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.containerfs.s3.S3Arguments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "cp", mixinStandardHelpOptions = true,
        description = {"Extracts a file, or with -r a directory tree, into <destdir>.",
                "A file lands as <destdir>/<name>, a directory as <destdir>/<name>/..., and the root's contents "
                + "directly in <destdir>. <destdir> is created if missing; existing files are overwritten.",
                "Nothing is ever written outside <destdir>, whatever names the container holds: every target is "
                + "resolved, normalized and checked, and symbolic links inside <destdir> are never followed.",
                "A file that cannot be read completely is reported and removed, and the copy goes on (status 1).",
                "From a directory of containers (one tree), cp -r DIR / DEST makes the same tree under DEST: the "
                + "source's directories and plain files, and every container as a directory of its records."},
        footer = {"", "Example: containerfs cp -r conf.lime /msg02 extracted/"})
final class CpCommand implements Callable<Integer> {
    @ParentCommand
    Containerfs top;

    @Mixin
    ContainerOptions options;

    @Option(names = {"-r", "-R", "--recursive"}, description = "Copy directories and everything below them.")
    boolean recursive;

    @Option(names = {"-v", "--verbose"}, description = "Print each target as it is written.")
    boolean verbose;

    @Parameters(index = "0", paramLabel = "<container>", description = "The container: a local file, an object as s3://bucket/key (read-only), or a local directory, whose containers show as directories of one read-only tree.")
    Path container;

    @Parameters(index = "1", paramLabel = "<path>", description = "The file or directory in the container (/ for everything).")
    String path;

    @Parameters(index = "2", paramLabel = "<destdir>", description = "The directory to extract into.")
    Path destination;

    private int failures;
    private Progress progress;

    @Override
    public Integer call() throws IOException {
        if (S3Arguments.isS3(destination)) {
            throw S3Arguments.refusal(destination, "copying into an object store");
        }
        if (ContainerOptions.isTree(container) && destination.toAbsolutePath().normalize()
                .startsWith(container.toAbsolutePath().normalize())) {
            throw new CliException(destination + ": is inside " + container + ", the directory being copied from; "
                    + "extract somewhere else", 2);
        }
        try (FileSystem fs = options.openContainerOrTree(container)) {
            Path source = ContainerOptions.entry(fs, path);
            boolean directory = Files.readAttributes(source, BasicFileAttributes.class).isDirectory();
            if (directory && !recursive) {
                throw new CliException(source + ": is a directory (use cp -r)");
            }
            ExtractionGuard guard = ExtractionGuard.forDestination(destination);
            // the total from the listing alone (the index), so the bar can say how much is left
            long total = -1;
            if (options.showProgress()) {
                long[] counts = new long[3];
                if (directory) {
                    InfoCommand.count(source, counts);
                }
                total = directory ? counts[2] : Files.size(source);
            }
            progress = options.progress("cp " + Errors.safe(String.valueOf(source)), total);
            List<String> names = new ArrayList<>();
            if (source.getFileName() != null) {
                names.add(source.getFileName().toString());
            }
            if (directory) {
                if (!names.isEmpty()) {
                    makeDirectory(guard.target(names));
                }
                copyTree(guard, source, names);
            } else {
                copyFile(guard, source, names);
            }
        } finally {
            if (progress != null) {
                progress.close();
            }
        }
        return failures == 0 ? 0 : 1;
    }

    private void copyTree(ExtractionGuard guard, Path dir, List<String> names) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                List<String> childNames = new ArrayList<>(names);
                childNames.add(p.getFileName().toString());
                if (Files.isDirectory(p)) {
                    Path target;
                    try {
                        target = guard.target(childNames);
                    } catch (ExtractionGuard.UnsafeTargetException e) {
                        report(p, e, "not extracted, nor anything below it");
                        continue;
                    }
                    makeDirectory(target);
                    copyTree(guard, p, childNames);
                } else {
                    copyFile(guard, p, childNames);
                }
            }
        }
    }

    private static void makeDirectory(Path target) throws IOException {
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.createDirectory(target);
    }

    /** Copies one file; a failure is reported and counted, and the copy goes on with the next file. */
    private void copyFile(ExtractionGuard guard, Path source, List<String> names) {
        Path target = null;
        // the source is opened first: a record that cannot be opened leaves an old copy at the target alone
        try (SeekableByteChannel in = Files.newByteChannel(source)) {
            target = guard.target(names);
            if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new FileSystemException(target.toString(), null, "a directory is in the way");
            }
            // NOFOLLOW_LINKS: a link put in the target's place after the guard's check is not followed either
            OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            try (out) {
                Streams.copy(in, out, progress::advance);
            } catch (IOException | RuntimeException e) {
                // never leave a short file that looks like the whole record
                Files.deleteIfExists(target);
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            report(source, e, "not extracted");
            return;
        }
        progress.item();
        if (verbose) {
            progress.close();
            top.out().println(target);
        }
    }

    private void report(Path source, Exception e, String outcome) {
        failures++;
        progress.close();
        top.out().flush();
        top.err().println("containerfs cp: " + source + ": " + Errors.describe(e) + " (" + outcome + ")");
    }
}
