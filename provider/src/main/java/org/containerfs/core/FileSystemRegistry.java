package org.containerfs.core;

import java.net.URI;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The open file systems of one provider, by container, and the containers open for writing in this
 * JVM (the file lock keeps other processes out, but some file systems grant every lock, as jimfs does).
 *
 * <p>The rule for URIs: {@code newFileSystem(uri)} claims the URI, so a second open by the same URI
 * while the first is open is {@link FileSystemAlreadyExistsException}; a file system opened by path
 * claims nothing (as zipfs's), so it never blocks an open by URI, yet its paths' URIs still lead back
 * to it ({@code Path.of(uri)}) while no file system opened by that URI is open. File systems opened
 * from a {@link org.containerfs.storage.ContainerInput} are never registered.
 */
final class FileSystemRegistry {
    private final Map<Path, ContainerFileSystem> byUri = new HashMap<>();
    private final Map<Path, List<ContainerFileSystem>> byPath = new HashMap<>();
    private final Set<Path> writing = new HashSet<>();
    /** Containers being opened through newFileSystem(URI) right now. */
    private final Set<Path> openingByUri = new HashSet<>();

    static Path key(Path container) {
        return container.toAbsolutePath().normalize();
    }

    /**
     * Reserves {@code container} for an open by URI, so that of two threads opening it one gets
     * {@link FileSystemAlreadyExistsException}; no lock is held while the container is scanned.
     */
    synchronized void reserveUri(Path container, URI uri) {
        Path key = key(container);
        if (byUri.containsKey(key) || !openingByUri.add(key)) {
            throw new FileSystemAlreadyExistsException(uri.toString());
        }
    }

    synchronized void releaseUri(Path container) {
        openingByUri.remove(key(container));
    }

    /** Claims the one writer slot of this JVM for {@code container}. */
    synchronized void claimWriting(Path container) throws FileSystemException {
        if (!writing.add(key(container))) {
            throw new FileSystemException(container.toString(), null,
                    "the container is already open for writing in this JVM: one writer at a time");
        }
    }

    synchronized void releaseWriting(Path container) {
        writing.remove(key(container));
    }

    synchronized void register(Path container, ContainerFileSystem fs, boolean openedByUri) {
        Path key = key(container);
        if (openedByUri) {
            byUri.put(key, fs);
        } else {
            byPath.computeIfAbsent(key, k -> new ArrayList<>()).add(fs);
        }
    }

    synchronized void remove(ContainerFileSystem fs) {
        if (fs.containerPath() == null) {
            return; // opened from an input: never registered
        }
        Path key = key(fs.containerPath());
        byUri.remove(key, fs);
        List<ContainerFileSystem> opened = byPath.get(key);
        if (opened != null && opened.remove(fs) && opened.isEmpty()) {
            byPath.remove(key);
        }
        if (!fs.isReadOnly()) {
            writing.remove(key);
        }
    }

    synchronized ContainerFileSystem get(URI containerfsUri) {
        Path key = key(Paths.get(Uris.containerOf(containerfsUri)));
        ContainerFileSystem fs = byUri.get(key);
        if (fs == null) {
            List<ContainerFileSystem> opened = byPath.get(key);
            fs = opened == null ? null : opened.get(0);
        }
        if (fs == null) {
            throw new FileSystemNotFoundException(containerfsUri.toString());
        }
        return fs;
    }
}
