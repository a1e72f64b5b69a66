package org.containerfs.fuse.lowlevel;

/** Linux errno values the engine itself answers with (the file system's own come from its errno mapping). */
public final class Errno {
    private Errno() {}

    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int EBADF = 9;
    public static final int ENOTDIR = 20;
    public static final int EISDIR = 21;
    public static final int EROFS = 30;
    public static final int ERANGE = 34;
    public static final int ENAMETOOLONG = 36;
    public static final int ENOSYS = 38;
    public static final int ENODATA = 61;
    public static final int ENOTSUP = 95;
    public static final int ENOTCONN = 107;
    public static final int ESTALE = 116;
}
