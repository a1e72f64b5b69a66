package org.containerfs.fuse;

import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ReadOnlyFileSystemException;
import org.containerfs.spi.InvalidNameException;
import org.cryptomator.jfuse.api.Errno;

/**
 * The one mapping from Java exceptions to errno values, used by every FUSE operation, so a shell
 * sees the same error for the same cause whatever operation hit it.
 *
 * <table>
 *   <caption>exception to errno</caption>
 *   <tr><td>NoSuchFileException</td><td>ENOENT</td></tr>
 *   <tr><td>FileAlreadyExistsException</td><td>EEXIST</td></tr>
 *   <tr><td>NotDirectoryException</td><td>ENOTDIR</td></tr>
 *   <tr><td>DirectoryNotEmptyException</td><td>ENOTEMPTY</td></tr>
 *   <tr><td>InvalidNameException (a name the container's format can never hold)</td><td>EINVAL</td></tr>
 *   <tr><td>AccessDeniedException (e.g. a refused mutation of a container)</td><td>EACCES</td></tr>
 *   <tr><td>ReadOnlyFileSystemException</td><td>EROFS</td></tr>
 *   <tr><td>FileSystemException "is a directory"</td><td>EISDIR</td></tr>
 *   <tr><td>NameTooLongException (a component of more than 255 bytes)</td><td>ENAMETOOLONG</td></tr>
 *   <tr><td>NonReadable/NonWritable/ClosedChannelException</td><td>EBADF</td></tr>
 *   <tr><td>UnsupportedOperationException</td><td>ENOTSUP</td></tr>
 *   <tr><td>IllegalArgumentException</td><td>EINVAL</td></tr>
 *   <tr><td>OutOfMemoryError</td><td>ENOMEM</td></tr>
 *   <tr><td>any other IOException (damaged data, truncated record, closed file system), anything else</td><td>EIO</td></tr>
 * </table>
 */
public final class ErrnoTable {
    private final int enoent;
    private final int eexist;
    private final int enotdir;
    private final int enotempty;
    private final int einval;
    private final int eacces;
    private final int erofs;
    private final int enametoolong;
    private final int eisdir;
    private final int ebadf;
    private final int eio;
    private final int enotsup;
    private final int enomem;

    /** The values of the platform jfuse runs on (the high-level engine's). */
    public ErrnoTable(Errno errno) {
        this(errno.enoent(), errno.eexist(), errno.enotdir(), errno.enotempty(), errno.einval(), errno.eacces(),
                errno.erofs(), errno.enametoolong(), errno.eisdir(), errno.ebadf(), errno.eio(), errno.enotsup(),
                errno.enomem());
    }

    private ErrnoTable(int enoent, int eexist, int enotdir, int enotempty, int einval, int eacces, int erofs,
            int enametoolong, int eisdir, int ebadf, int eio, int enotsup, int enomem) {
        this.enoent = enoent;
        this.eexist = eexist;
        this.enotdir = enotdir;
        this.enotempty = enotempty;
        this.einval = einval;
        this.eacces = eacces;
        this.erofs = erofs;
        this.enametoolong = enametoolong;
        this.eisdir = eisdir;
        this.ebadf = ebadf;
        this.eio = eio;
        this.enotsup = enotsup;
        this.enomem = enomem;
    }

    /**
     * Linux's values, for the low-level engine (which runs on Linux only): no jfuse class is loaded for them
     * (fuse-mount/README.md, "Start-up and footprint of the daemon").
     */
    public static ErrnoTable linux() {
        return new ErrnoTable(2, 17, 20, 39, 22, 13, 30, 36, 21, 9, 5, 95, 12);
    }

    /** The positive errno for {@code failure}. */
    public int errnoOf(Throwable failure) {
        if (failure instanceof Refusal r) {
            return r.errno;
        }
        if (failure instanceof NoSuchFileException) {
            return enoent;
        }
        if (failure instanceof FileAlreadyExistsException) {
            return eexist;
        }
        if (failure instanceof NotDirectoryException) {
            return enotdir;
        }
        if (failure instanceof DirectoryNotEmptyException) {
            return enotempty;
        }
        if (failure instanceof InvalidNameException) {
            return einval;
        }
        if (failure instanceof AccessDeniedException) {
            return eacces;
        }
        if (failure instanceof ReadOnlyFileSystemException) {
            return erofs;
        }
        if (failure instanceof NameTooLongException) {
            return enametoolong;
        }
        if (failure instanceof FileSystemException fse && "is a directory".equals(fse.getReason())) {
            return eisdir;
        }
        if (failure instanceof NonReadableChannelException || failure instanceof NonWritableChannelException
                || failure instanceof ClosedChannelException) {
            return ebadf;
        }
        if (failure instanceof ClosedFileSystemException) {
            return eio;
        }
        if (failure instanceof UnsupportedOperationException) {
            return enotsup;
        }
        if (failure instanceof IllegalArgumentException) {
            return einval;
        }
        if (failure instanceof OutOfMemoryError) {
            return enomem;
        }
        if (failure instanceof java.io.UncheckedIOException u && u.getCause() != null) {
            return errnoOf(u.getCause());
        }
        if (failure instanceof java.nio.file.DirectoryIteratorException d && d.getCause() != null) {
            return errnoOf(d.getCause());
        }
        return eio;
    }

    // The errno values the mount answers by itself (see Refusal), of the platform jfuse runs on.
    int eexist() {
        return eexist;
    }

    int enoent() {
        return enoent;
    }

    int enotdir() {
        return enotdir;
    }

    int erofs() {
        return erofs;
    }

    int eacces() {
        return eacces;
    }

    int eio() {
        return eio;
    }

    int enotsup() {
        return enotsup;
    }

    int ebadf() {
        return ebadf;
    }

    /** EBUSY: not in jfuse's errno table; Linux's (and macOS's) value. */
    int ebusy() {
        return NioFuseOperations.EBUSY;
    }

    /** The negative value a FUSE operation returns for {@code failure}. */
    public int negative(Throwable failure) {
        return -errnoOf(failure);
    }

    /** Whether a failure is routine (a lookup of a missing or overlong name) and not worth a log line. */
    static boolean routine(Throwable failure) {
        return failure instanceof NoSuchFileException || failure instanceof FileAlreadyExistsException
                || failure instanceof NameTooLongException || failure instanceof Refusal;
    }
}
