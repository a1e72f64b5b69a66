package org.containerfs.fuse.lowlevel;

/**
 * What the kernel is told of a file ({@code struct stat}): one link, times in seconds and
 * nanoseconds since the epoch (ctime is mtime).
 *
 * @param ino    the inode number (0 in a plain directory entry whose inode the kernel does not know)
 * @param mode   type and permission bits ({@code S_IFREG | 0444})
 * @param blocks 512-byte blocks the bytes occupy
 */
public record FileAttributes(long ino, int mode, long size, long blocks, int uid, int gid, long modifiedSeconds,
        int modifiedNanos, long accessSeconds, int accessNanos) {
    public static final int S_IFDIR = 0040000;
    public static final int S_IFREG = 0100000;

    public boolean isDirectory() {
        return (mode & 0170000) == S_IFDIR;
    }

    public FileAttributes withIno(long number) {
        return new FileAttributes(number, mode, size, blocks, uid, gid, modifiedSeconds, modifiedNanos, accessSeconds,
                accessNanos);
    }
}
