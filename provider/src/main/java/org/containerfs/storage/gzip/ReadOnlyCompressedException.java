package org.containerfs.storage.gzip;

import java.nio.file.AccessDeniedException;

/**
 * A writable open or a creation asked of a gzip-compressed container: refused before anything is opened for
 * writing, so the file is unchanged (a gzip stream cannot be extended in place; decompress it to write). Writes
 * through a compressed container opened read-only fail as on any read-only file system, with
 * {@link java.nio.file.ReadOnlyFileSystemException}.
 *
 * <p>Why not a {@code ReadOnlyFileSystemException} here too: that is an {@link UnsupportedOperationException},
 * which {@code FileSystems.newFileSystem} (and {@code ContainerFileSystems.open}) take for "not this provider's
 * file" and answer by asking the next provider, ending in a ProviderNotFoundException that hides the reason. An
 * {@link AccessDeniedException}, as for a read-only file or a container read from an object store, reaches
 * the caller with the reason.
 */
public final class ReadOnlyCompressedException extends AccessDeniedException {
    private static final long serialVersionUID = 1L;

    public ReadOnlyCompressedException(String file, String request) {
        super(file, null, request + " refused: a gzip-compressed container is read-only (a gzip stream cannot be "
                + "extended in place); nothing was written. Decompress it (gunzip) to write to it");
    }
}
