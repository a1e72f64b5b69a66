package org.containerfs.fuse;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import org.containerfs.core.ContainerFileSystemProvider;

/**
 * Asks the file system, before the mount stages a new file, whether it will ever take that name: the
 * mount gathers a file's bytes before creating it in the file system (see {@link StagedFile}), so
 * without this a name the container refuses would be refused only at close, after a shell's redirect
 * had already reported success. A container answers through its provider's public
 * {@link ContainerFileSystemProvider#checkNewFile} (the same check as its create); any other file
 * system decides at the create itself.
 */
@FunctionalInterface
interface NewFileCheck {
    /** Throws what creating {@code file} would throw, or returns; changes nothing. */
    void check(Path file) throws IOException;

    static NewFileCheck of(FileSystem fs) {
        if (fs.provider() instanceof ContainerFileSystemProvider containers) {
            return containers::checkNewFile;
        }
        return file -> { };
    }
}
