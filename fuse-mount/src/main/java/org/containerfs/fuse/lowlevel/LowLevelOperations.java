package org.containerfs.fuse.lowlevel;

/**
 * What a file system served through the low-level API implements: requests by inode number, each
 * answered once through its {@link Request}. Called on the session's serving threads, concurrently.
 * An exception thrown out of a method is answered EIO by the session (if nothing was answered yet).
 */
public interface LowLevelOperations {
    /** Given before the session starts: how to tell the kernel that something it caches changed. */
    default void attach(Invalidation invalidation) {}

    /** The connection is set up: {@code connection} can still be adjusted. */
    default void init(Connection connection) {}

    /** The session ends (after the last request). */
    default void destroy() {}

    void lookup(Request request, long parent, String name);

    /** The kernel drops {@code count} lookups of {@code ino} (no reply). */
    void forget(long ino, long count);

    void getattr(Request request, long ino);

    void opendir(Request request, long ino);

    /** READDIR or, with {@code listing.plus()}, READDIRPLUS: entries from {@code offset}. */
    void readdir(Request request, long ino, long offset, Request.Listing listing);

    void releasedir(Request request, long ino);

    void open(Request request, long ino);

    void read(Request request, long ino, long size, long offset);

    void release(Request request, long ino);

    void statfs(Request request, long ino);

    void getxattr(Request request, long ino, String name, long size);

    void listxattr(Request request, long ino, long size);

    // ---- writes: served only when writable() (else the slots stay empty and libfuse answers ENOSYS) ----

    /** Whether the session binds the write requests below (create, write, flush, ...). */
    default boolean writable() {
        return false;
    }

    /** The {@code struct stat} fields a SETATTR carries, those named by {@code toSet} ({@link #SET_MODE}, ...). */
    record NewAttributes(int toSet, int mode, int uid, int gid, long size, long accessSeconds, long accessNanos,
            long modifiedSeconds, long modifiedNanos) {}

    /** FUSE_SET_ATTR_* bits of a SETATTR. */
    int SET_MODE = 1, SET_UID = 1 << 1, SET_GID = 1 << 2, SET_SIZE = 1 << 3, SET_ATIME = 1 << 4, SET_MTIME = 1 << 5,
            SET_ATIME_NOW = 1 << 7, SET_MTIME_NOW = 1 << 8;

    default void setattr(Request request, long ino, NewAttributes attributes) {
        request.error(Errno.ENOSYS);
    }

    /** A node made by {@code mknod(2)} (answered with an entry). */
    default void mknod(Request request, long parent, String name, int mode) {
        request.error(Errno.ENOSYS);
    }

    default void mkdir(Request request, long parent, String name, int mode) {
        request.error(Errno.ENOSYS);
    }

    default void unlink(Request request, long parent, String name) {
        request.error(Errno.ENOSYS);
    }

    default void rmdir(Request request, long parent, String name) {
        request.error(Errno.ENOSYS);
    }

    default void rename(Request request, long parent, String name, long newParent, String newName, int flags) {
        request.error(Errno.ENOSYS);
    }

    /** A new file, answered with {@link Request#created}; {@code request.openFlags()} are its open flags. */
    default void create(Request request, long parent, String name, int mode) {
        request.error(Errno.ENOSYS);
    }

    /** {@code data} (valid during the call only) at {@code offset}; answered with {@link Request#written}. */
    default void write(Request request, long ino, java.nio.ByteBuffer data, long offset) {
        request.error(Errno.ENOSYS);
    }

    default void flush(Request request, long ino) {
        request.error(Errno.ENOSYS);
    }

    default void fsync(Request request, long ino, boolean datasync) {
        request.error(Errno.ENOSYS);
    }

    /** {@code value} valid during the call only. */
    default void setxattr(Request request, long ino, String name, java.nio.ByteBuffer value, int flags) {
        request.error(Errno.ENOSYS);
    }
}
