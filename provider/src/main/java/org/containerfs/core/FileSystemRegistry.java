package org.containerfs.core;

import java.net.URI;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The open file systems of one provider, by container (for {@code getFileSystem(uri)} and
 * {@code Path.of(uri)}), and the containers open for writing in this JVM. The file lock keeps other
 * processes out, but some file systems grant every lock (jimfs) or have none (zipfs). File systems
 * opened from a {@link org.containerfs.storage.ContainerInput} are never registered.
 */
final class FileSystemRegistry {
    private final Map<Path, ContainerFileSystem> byContainer = new HashMap<>();
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
        if (byContainer.containsKey(key) || !openingByUri.add(key)) {
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

    synchronized void register(Path container, ContainerFileSystem fs) {
        byContainer.putIfAbsent(key(container), fs);
    }

    synchronized void remove(ContainerFileSystem fs) {
        if (fs.containerPath() == null) {
            return; // opened from an input: never registered
        }
        Path key = key(fs.containerPath());
        byContainer.remove(key, fs);
        if (!fs.isReadOnly()) {
            writing.remove(key);
        }
    }

    synchronized ContainerFileSystem get(URI containerfsUri) {
        ContainerFileSystem fs = byContainer.get(key(Paths.get(Uris.containerOf(containerfsUri))));
        if (fs == null) {
            throw new FileSystemNotFoundException(containerfsUri.toString());
        }
        return fs;
    }
}
