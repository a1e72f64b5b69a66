package org.containerfs.core;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystems;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;

/**
 * Refuses writes before touching anything: containers are appended to in place under an exclusive
 * file lock, so a writable open or a create needs a file system that has both. Object stores reached
 * through an NIO provider have neither (a "write" there downloads the object and uploads it whole on
 * close, over whatever another writer did). The checks only read: a read-only FileChannel and a shared
 * lock on it, released at once.
 */
final class WriteSupport {
    private WriteSupport() {}

    /**
     * Whether files may be written beside {@code path} (a G3 {@code .zidx} index, say): on a file system
     * where containers could be written, not on an object store. Only reads, and only when asked.
     */
    static boolean allowsWritesBeside(Path path) {
        try {
            check(path, true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Throws {@link AccessDeniedException} saying what was refused, why and what to do, or returns. */
    static void check(Path path, boolean exists) throws IOException {
        if (path.getFileSystem() == FileSystems.getDefault()) {
            return; // local disks: FileChannel, in-place writes and real locks
        }
        String scheme = path.getFileSystem().provider().getScheme();
        FileChannel probe;
        try {
            probe = path.getFileSystem().provider().newFileChannel(path, EnumSet.of(StandardOpenOption.READ));
        } catch (UnsupportedOperationException e) {
            throw refusal(path, exists, "its " + scheme + " file system gives no FileChannel, so the container can "
                    + "neither be locked against a second writer nor written in place");
        } catch (NoSuchFileException e) {
            if (exists) {
                throw e;
            }
            return; // a new container: the file system has FileChannels; its lock is taken once created
        }
        try (probe) {
            FileLock lock = probe.tryLock(0, Long.MAX_VALUE, true);
            if (lock != null) {
                lock.release();
            }
        } catch (OverlappingFileLockException heldInThisJvm) {
            // a lock exists: the one-writer check that follows says who holds it
        } catch (IOException | UnsupportedOperationException e) {
            throw refusal(path, exists, "its " + scheme + " file system refused a file lock (" + e.getMessage()
                    + "), so a second writer could not be shut out");
        }
    }

    private static AccessDeniedException refusal(Path path, boolean exists, String why) {
        return new AccessDeniedException(path.toString(), null, (exists ? "opening the container for writing"
                : "creating a container") + " was refused before anything was changed: " + why + ". Open it "
                + "read-only, or copy it to a local disk, append there and upload the result");
    }
}
