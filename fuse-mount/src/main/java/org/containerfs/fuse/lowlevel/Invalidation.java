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
     * Drops the kernel's cached entry {@code name} of directory {@code parent} (and, with it, the
     * kernel's idea of what that name is: a directory that turned out to be a file is looked up afresh).
     */
    void invalidateEntry(long parent, String name);
}
