package org.containerfs.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.containerfs.ensemble.EnsembleFileSystem;

/**
 * The source side of a tree of containers (a local directory given to info or verify): its directories,
 * its containers and its plain files, found from the listings and one stat per entry, in name order.
 * Nothing here opens a container; the commands then take the containers one at a time.
 */
final class TreeWalk {
    /** A container's own directory in the tree, and its file's size. */
    record Container(Path path, long fileSize) {}

    /** A plain file of the source, with its size. */
    record Plain(Path path, long size) {}

    /** A directory of the source that could not be listed (permission denied, ...), or an entry that could not be stat'ed. */
    record Unlisted(Path path, String reason) {}

    final List<Container> containers = new ArrayList<>();
    final List<Plain> plainFiles = new ArrayList<>();
    /** What the walk could not see: the commands report each as one FAIL and go on with the rest. */
    final List<Unlisted> unlisted = new ArrayList<>();
    long directories;

    private TreeWalk() {}

    static TreeWalk of(EnsembleFileSystem tree) throws IOException {
        TreeWalk walk = new TreeWalk();
        walk.visit(tree, tree.getPath("/"));
        return walk;
    }

    private void visit(EnsembleFileSystem tree, Path dir) throws IOException {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> listed = Files.newDirectoryStream(dir)) {
            listed.forEach(entries::add);
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            unlisted.add(new Unlisted(dir, "cannot list: " + Errors.describe(e)));
            return;
        }
        entries.sort(Comparator.comparing(p -> p.getFileName().toString()));
        for (Path p : entries) {
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class);
            } catch (IOException e) {
                unlisted.add(new Unlisted(p, "cannot stat: " + Errors.describe(e)));
                continue;
            }
            if (a.isDirectory() && tree.isContainerDirectory(p)) {
                containers.add(new Container(p, a.size()));
            } else if (a.isDirectory()) {
                directories++;
                visit(tree, p);
            } else {
                plainFiles.add(new Plain(p, a.size()));
            }
        }
    }

    /** The sum of the containers' file sizes (the progress bar's total). */
    long containerBytes() {
        return containers.stream().mapToLong(Container::fileSize).sum();
    }

    /** How JSON names the tree's top: the argument's URI for a local directory, the prefix's {@code s3://bucket/prefix/}. */
    static String treeUri(EnsembleFileSystem tree, Path argument) {
        return tree.source() != null ? JsonReports.containerUri(argument) : tree.treeSource().uri().toString();
    }

    /** The {@code file:} URI of the source file a container of the tree shows (what single-container documents name). */
    static String fileUri(EnsembleFileSystem tree, Path container) {
        if (tree.source() != null) {
            return tree.source().resolve(container.toString().substring(1)).toUri().toString();
        }
        java.net.URI top = tree.treeSource().uri(); // an S3 prefix: s3://bucket/prefix/ + the path below it
        try {
            return new java.net.URI(top.getScheme(), top.getAuthority(), top.getPath() + container.toString().substring(1),
                    null, null).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException(top + container.toString(), e);
        }
    }

    /**
     * Whether a container whose open failed was a file named like a container that no format claims: the tree
     * shows it as the plain file it is from then on.
     */
    static boolean turnedPlain(Path container) {
        try {
            return Files.readAttributes(container, BasicFileAttributes.class).isRegularFile();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
