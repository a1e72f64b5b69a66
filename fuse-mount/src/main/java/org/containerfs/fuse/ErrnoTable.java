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
    private final Errno errno;

    public ErrnoTable(Errno errno) {
        this.errno = errno;
    }

    /** The positive errno for {@code failure}. */
    public int errnoOf(Throwable failure) {
        if (failure instanceof Refusal r) {
            return r.errno;
        }
        if (failure instanceof NoSuchFileException) {
            return errno.enoent();
        }
        if (failure instanceof FileAlreadyExistsException) {
            return errno.eexist();
        }
        if (failure instanceof NotDirectoryException) {
            return errno.enotdir();
        }
        if (failure instanceof DirectoryNotEmptyException) {
            return errno.enotempty();
        }
        if (failure instanceof InvalidNameException) {
            return errno.einval();
        }
        if (failure instanceof AccessDeniedException) {
            return errno.eacces();
        }
        if (failure instanceof ReadOnlyFileSystemException) {
            return errno.erofs();
        }
        if (failure instanceof NameTooLongException) {
            return errno.enametoolong();
        }
        if (failure instanceof FileSystemException fse && "is a directory".equals(fse.getReason())) {
            return errno.eisdir();
        }
        if (failure instanceof NonReadableChannelException || failure instanceof NonWritableChannelException
                || failure instanceof ClosedChannelException) {
            return errno.ebadf();
        }
        if (failure instanceof ClosedFileSystemException) {
            return errno.eio();
        }
        if (failure instanceof UnsupportedOperationException) {
            return errno.enotsup();
        }
        if (failure instanceof IllegalArgumentException) {
            return errno.einval();
        }
        if (failure instanceof OutOfMemoryError) {
            return errno.enomem();
        }
        if (failure instanceof java.io.UncheckedIOException u && u.getCause() != null) {
            return errnoOf(u.getCause());
        }
        if (failure instanceof java.nio.file.DirectoryIteratorException d && d.getCause() != null) {
            return errnoOf(d.getCause());
        }
        return errno.eio();
    }

    // The errno values the mount answers by itself (see Refusal), of the platform jfuse runs on.
    int eexist() {
        return errno.eexist();
    }

    int enoent() {
        return errno.enoent();
    }

    int enotdir() {
        return errno.enotdir();
    }

    int erofs() {
        return errno.erofs();
    }

    int eacces() {
        return errno.eacces();
    }

    int eio() {
        return errno.eio();
    }

    int enotsup() {
        return errno.enotsup();
    }

    int ebadf() {
        return errno.ebadf();
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
