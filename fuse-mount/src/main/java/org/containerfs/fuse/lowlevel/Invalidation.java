package org.containerfs.fuse.lowlevel;

/**
 * Tells the kernel to drop what it caches of an inode ({@code fuse_lowlevel_notify_inval_inode}): when
 * a live container grows, a directory's cached listing and attributes are stale. The call only queues
 * the notification: it is sent from a thread of its own, never from inside a request (the kernel may
 * wait for a lock that request holds, the deadlock libfuse's documentation warns of).
 */
public interface Invalidation {
    /** Drops the kernel's attributes and cached contents (pages, or a directory's listing) of {@code ino}. */
    void invalidateInode(long ino);

    /**
     * Drops the kernel's entry of {@code name} in directory {@code parent} (a name that vanished without
     * an unlink, or a directory that turned out to be a file, so it is looked up afresh); the future is done once the kernel was told (or there was nothing to tell).
     */
    default java.util.concurrent.Future<?> invalidateEntry(long parent, String name) {
        return java.util.concurrent.CompletableFuture.completedFuture(null);
    }

    /** Drops the kernel's cached attributes of {@code ino} only (its cached pages stay). */
    default void invalidateAttributes(long ino) {
        invalidateInode(ino);
    }
}
