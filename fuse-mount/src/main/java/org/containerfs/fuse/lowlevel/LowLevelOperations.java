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
}
