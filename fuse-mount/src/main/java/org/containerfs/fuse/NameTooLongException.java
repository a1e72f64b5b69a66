package org.containerfs.fuse;

import java.nio.file.FileSystemException;

/**
 * A path component longer than NAME_MAX (255 bytes), which the kernel passes on to FUSE: ENAMETOOLONG,
 * as every Linux file system answers, rather than the ENOENT a lookup in the tree would give.
 */
public final class NameTooLongException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    public NameTooLongException(String path) {
        super(path, null, "a name longer than " + NioFuseOperations.NAME_MAX + " bytes");
    }
}
