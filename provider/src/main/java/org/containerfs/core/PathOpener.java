package org.containerfs.core;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.storage.gzip.GzipInput;
import org.containerfs.storage.gzip.ReadOnlyCompressedException;

/**
 * The door of an open by Path or URI, for every provider: parses what was asked, stats the file once, and sends a
 * read-only open down the {@link OpenPipeline} (from a {@code PathInput}), a writable one (an append, a create) to
 * {@link WriterOpen} after the same detection.
 *
 * <p>Open once: one stat of the file, one channel, one read of its head. When
 * {@code FileSystems.newFileSystem(path)} asks our providers in turn, the first one asked detects the format from
 * that head and hands the same channel to the format that claims it, so the others are never asked (on an object
 * store: one HEAD and one GET to know format and size).
 */
final class PathOpener {
    private PathOpener() {}

    /** @param byUri whether the caller opened it by its URI (see {@link FileSystemRegistry}) */
    static ContainerFileSystem open(ContainerFileSystemProvider asked, Path path, Map<String, ?> env, boolean byUri)
            throws IOException {
        OpenRequest request = OpenRequest.of(env, byUri);
        ContainerFormat format = asked.format();
        if (request.format() != null && !request.format().equalsIgnoreCase(format.name())) {
            throw new UnsupportedOperationException(path + ": format " + request.format() + " requested, this is "
                    + format.name());
        }
        BasicFileAttributes attributes = statOrNull(path);
        if (attributes == null || !attributes.isRegularFile()) {
            return refusedOrCreated(asked, path, request, attributes);
        }
        if (!request.writable()) {
            return OpenPipeline.open(asked, path, attributes, request);
        }
        // detection reads through a read-only channel: nothing that could change the file is opened before a
        // format claims it
        OpenPipeline.Detected detected = OpenPipeline.detect(asked, path, attributes, request);
        if (detected.compressed()) {
            throw new ReadOnlyCompressedException(path.toString(), "env accessMode=readWrite");
        }
        WriteSupport.check(path, true);
        return WriterOpen.open(detected.provider(), path, request, true);
    }

    /** A path that is no regular file: a new container when asked to create one, else the refusal saying why. */
    private static ContainerFileSystem refusedOrCreated(ContainerFileSystemProvider asked, Path path,
            OpenRequest request, BasicFileAttributes attributes) throws IOException {
        ContainerFormat format = asked.format();
        String fileName = String.valueOf(path.getFileName());
        boolean selected = request.format() != null || FormatDetection.hasExtension(format, fileName);
        if (attributes == null) {
            if (request.create() && isGzipName(fileName) && !format.fileExtensions().stream()
                    .anyMatch(ext -> ext.toLowerCase(Locale.ROOT).endsWith("gz"))) {
                throw new ReadOnlyCompressedException(path.toString(), "creating a container with a .gz name");
            }
            if (!selected) {
                throw new UnsupportedOperationException(path + " does not exist and is not a " + format.name() + " name");
            }
            if (!request.create()) {
                throw new NoSuchFileException(path.toString(), null, "no such container (env create=true makes one)");
            }
            WriteSupport.check(path, false);
            return WriterOpen.open(asked, path, request, false);
        }
        // a directory is nobody's container: let FileSystems.newFileSystem ask the next provider
        if (!selected) {
            throw new UnsupportedOperationException(path + " is not a regular file");
        }
        throw new FileSystemException(path.toString(), null, "not a regular file: a " + format.name()
                + " container is a file");
    }

    static boolean isGzipName(String fileName) {
        return !GzipInput.innerName(fileName).equals(fileName);
    }

    private static BasicFileAttributes statOrNull(Path path) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return null;
        }
    }
}
