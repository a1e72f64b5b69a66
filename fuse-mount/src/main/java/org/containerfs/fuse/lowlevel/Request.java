package org.containerfs.fuse.lowlevel;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * One request of the kernel, answered exactly once by one of the reply methods (libfuse frees the
 * request with the reply). A reply whose request was interrupted meanwhile is dropped by libfuse.
 */
public final class Request {
    private final LowLevelLibrary lib;
    private final MemorySegment req;
    /**
     * All of the address space, made once: a request's {@code fuse_file_info} is read and written at its
     * address here, with no {@code reinterpret} per request (a caller-sensitive call that walks the stack).
     */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    /** The request's {@code struct fuse_file_info *} as libfuse passed it (NULL for requests without one). */
    private final MemorySegment fileInfo;
    private boolean answered;

    Request(LowLevelLibrary lib, MemorySegment req, MemorySegment fileInfo) {
        this.lib = lib;
        this.req = req;
        this.fileInfo = fileInfo;
    }

    boolean answered() {
        return answered;
    }

    private void answer() {
        if (answered) {
            throw new IllegalStateException("a FUSE request answered twice");
        }
        answered = true;
    }

    /** The file handle of an open file or directory (0 if the request carries none). */
    public long fileHandle() {
        return fileInfo.address() == 0 ? 0 : ALL.get(Abi.LONG, fileInfo.address() + Abi.FI_FH);
    }

    /** The open(2) flags of an open request. */
    public int openFlags() {
        return fileInfo.address() == 0 ? 0 : ALL.get(Abi.INT, fileInfo.address() + Abi.FI_FLAGS);
    }

    /** Fails the request with a positive errno (0: success without data, e.g. release). */
    public void error(int errno) {
        answer();
        invoke(() -> (int) lib.replyErr.invokeExact(req, errno));
    }

    /** A name found: the kernel counts one lookup of {@code attributes.ino()} (freed by a forget). */
    public int entry(FileAttributes attributes, long generation, double entryTimeout, double attrTimeout) {
        answer();
        MemorySegment e = Scratch.get().entry;
        writeEntry(e, attributes.ino(), attributes, generation, entryTimeout, attrTimeout);
        return invoke(() -> (int) lib.replyEntry.invokeExact(req, e));
    }

    static void writeEntry(MemorySegment e, long nodeId, FileAttributes attributes, long generation,
            double entryTimeout, double attrTimeout) {
        e.set(Abi.LONG, Abi.ENTRY_INO, nodeId);
        e.set(Abi.LONG, Abi.ENTRY_GENERATION, generation);
        Abi.STAT.write(e, Abi.ENTRY_ATTR, attributes);
        e.set(Abi.DOUBLE, Abi.ENTRY_ATTR_TIMEOUT, attrTimeout);
        e.set(Abi.DOUBLE, Abi.ENTRY_ENTRY_TIMEOUT, entryTimeout);
    }

    public void attributes(FileAttributes attributes, double attrTimeout) {
        answer();
        MemorySegment s = Scratch.get().stat;
        Abi.STAT.write(s, 0, attributes);
        invoke(() -> (int) lib.replyAttr.invokeExact(req, s, attrTimeout));
    }

    /**
     * An open file or directory: {@code keepCache} keeps the kernel's cached pages of the file (or, for
     * a directory, its cached listing) from an earlier open; {@code cacheReaddir} lets the kernel cache
     * a directory's listing.
     */
    public void opened(long handle, boolean keepCache, boolean cacheReaddir) {
        answer();
        long fi = fileInfo.address();
        int bits = ALL.get(Abi.INT, fi + Abi.FI_BITS) & ~(Abi.FI_KEEP_CACHE | Abi.FI_CACHE_READDIR);
        if (keepCache) {
            bits |= Abi.FI_KEEP_CACHE;
        }
        if (cacheReaddir) {
            bits |= Abi.FI_CACHE_READDIR;
        }
        ALL.set(Abi.INT, fi + Abi.FI_BITS, bits);
        ALL.set(Abi.LONG, fi + Abi.FI_FH, handle);
        invoke(() -> (int) lib.replyOpen.invokeExact(req, fileInfo));
    }

    /**
     * A native buffer of {@code size} bytes for the reply data of a read; fill it from position 0 and
     * pass it to {@link #data(ByteBuffer)}. Valid until the reply.
     */
    public ByteBuffer dataBuffer(int size) {
        return Scratch.get().data(size).asSlice(0, size).asByteBuffer();
    }

    /** Replies with the bytes of {@link #dataBuffer(int)} from 0 to its position. */
    public void data(ByteBuffer filled) {
        answer();
        long length = filled.position();
        MemorySegment s = MemorySegment.ofBuffer(filled.duplicate().position(0)); // ofBuffer starts at the position
        invoke(() -> (int) lib.replyBuf.invokeExact(req, s, length));
    }

    /**
     * Replies to a read with {@code size} bytes of the file open as {@code fd}, from byte {@code position}:
     * {@code fuse_reply_data} on a one-buffer {@code fuse_bufvec} with {@code FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK},
     * so libfuse moves the bytes from the descriptor to the kernel itself (spliced through a pipe when the
     * connection has SPLICE_WRITE and the reply is at least two pages, else read into its own buffer), never
     * through the JVM. A short read of the descriptor (the file shrank) gives a short reply; a failed one,
     * the error.
     */
    public void data(int fd, long position, long size) {
        answer();
        MemorySegment v = Scratch.get().bufvec;
        v.fill((byte) 0);
        v.set(Abi.LONG, Abi.BUFVEC_COUNT, 1);
        v.set(Abi.LONG, Abi.BUFVEC_IDX, 0);
        v.set(Abi.LONG, Abi.BUFVEC_OFF, 0);
        v.set(Abi.LONG, Abi.BUFVEC_BUF + Abi.BUF_SIZE_FIELD, size);
        v.set(Abi.INT, Abi.BUFVEC_BUF + Abi.BUF_FLAGS, Abi.BUF_IS_FD | Abi.BUF_FD_SEEK);
        v.set(Abi.INT, Abi.BUFVEC_BUF + Abi.BUF_FD, fd);
        v.set(Abi.LONG, Abi.BUFVEC_BUF + Abi.BUF_POS, position);
        invoke(() -> (int) lib.replyData.invokeExact(req, v, Abi.BUF_SPLICE_MOVE));
    }

    /** Replies with {@code bytes} (a getxattr value, a listxattr list). */
    public void bytes(byte[] bytes) {
        answer();
        MemorySegment s = Scratch.get().data(bytes.length);
        MemorySegment.copy(bytes, 0, s, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes.length);
        long length = bytes.length;
        invoke(() -> (int) lib.replyBuf.invokeExact(req, s, length));
    }

    /**
     * The extended-attribute convention: a request of {@code size} 0 asks for the length, one too
     * small is answered ERANGE.
     */
    public void xattr(byte[] value, long size) {
        if (size == 0) {
            answer();
            long length = value.length;
            invoke(() -> (int) lib.replyXattr.handle().invokeExact(req, length));
        } else if (size < value.length) {
            error(Errno.ERANGE);
        } else {
            bytes(value);
        }
    }

    public void statfs(long blockSize, long blocks, long free, long files, long nameMax) {
        answer();
        MemorySegment s = Scratch.get().statvfs;
        s.fill((byte) 0);
        s.set(Abi.LONG, Abi.STATVFS_BSIZE, blockSize);
        s.set(Abi.LONG, Abi.STATVFS_FRSIZE, blockSize);
        s.set(Abi.LONG, Abi.STATVFS_BLOCKS, blocks);
        s.set(Abi.LONG, Abi.STATVFS_BFREE, free);
        s.set(Abi.LONG, Abi.STATVFS_BAVAIL, free);
        s.set(Abi.LONG, Abi.STATVFS_FILES, files);
        s.set(Abi.LONG, Abi.STATVFS_FFREE, 0);
        s.set(Abi.LONG, Abi.STATVFS_FAVAIL, 0);
        s.set(Abi.LONG, Abi.STATVFS_NAMEMAX, nameMax);
        invoke(() -> (int) lib.replyStatfs.handle().invokeExact(req, s));
    }

    /** A listing reply of at most {@code size} bytes; {@code plus}: entries carry attributes (READDIRPLUS). */
    public Listing listing(long size, boolean plus) {
        return new Listing(size, plus);
    }

    /** Entries of one READDIR/READDIRPLUS reply, added until the kernel's buffer is full. */
    public final class Listing {
        private final MemorySegment buffer;
        private final long capacity;
        private final boolean plus;
        private long used;

        private Listing(long capacity, boolean plus) {
            this.capacity = capacity;
            this.plus = plus;
            this.buffer = Scratch.get().data(capacity);
        }

        public boolean plus() {
            return plus;
        }

        /**
         * Adds a plain entry (name, inode number and type) that continues at {@code nextOffset};
         * false if it does not fit (nothing added).
         */
        public boolean add(String name, long ino, int mode, long nextOffset) {
            return added(Dirents.plain(buffer, used, capacity - used, name, ino, mode, nextOffset));
        }

        /**
         * Adds an entry with its attributes: if it fits, the kernel counts it as a lookup of
         * {@code nodeId} (0 for "." and "..", which the kernel does not look up). Written here, as
         * {@code fuse_add_direntry_plus} would write it (see {@link Dirents}), with no call into libfuse.
         */
        public boolean addPlus(String name, long nodeId, FileAttributes attributes, long generation,
                double entryTimeout, double attrTimeout, long nextOffset) {
            return added(Dirents.plus(buffer, used, capacity - used, name, nodeId, generation,
                    attributes, entryTimeout, attrTimeout, nextOffset));
        }

        private boolean added(long length) {
            if (length > capacity - used) {
                return false;
            }
            used += length;
            return true;
        }

        /** Sends the entries added (none: the end of the directory). */
        public void send() {
            answer();
            long length = used;
            invoke(() -> (int) lib.replyBuf.invokeExact(req, buffer, length));
        }
    }

    private interface IntCall {
        int call() throws Throwable;
    }

    private interface LongCall {
        long call() throws Throwable;
    }

    private static int invoke(IntCall call) {
        try {
            return call.call();
        } catch (Throwable t) {
            throw new IllegalStateException("libfuse reply failed", t);
        }
    }

    private static long invokeLong(LongCall call) {
        try {
            return call.call();
        } catch (Throwable t) {
            throw new IllegalStateException("libfuse call failed", t);
        }
    }

    // ---- the replies of a writable session -------------------------------------------------------

    /**
     * A new file made and opened ({@code fuse_reply_create}): the kernel counts one lookup of
     * {@code attributes.ino()} and keeps {@code handle} as the open file's handle (no cached pages kept).
     */
    public int created(FileAttributes attributes, long generation, double entryTimeout, double attrTimeout,
            long handle) {
        answer();
        MemorySegment e = Scratch.get().entry;
        writeEntry(e, attributes.ino(), attributes, generation, entryTimeout, attrTimeout);
        long fi = fileInfo.address();
        ALL.set(Abi.INT, fi + Abi.FI_BITS, ALL.get(Abi.INT, fi + Abi.FI_BITS) & ~(Abi.FI_KEEP_CACHE | Abi.FI_CACHE_READDIR));
        ALL.set(Abi.LONG, fi + Abi.FI_FH, handle);
        return invoke(() -> (int) lib.replyCreate.handle().invokeExact(req, e, fileInfo));
    }

    /** A write request took {@code count} bytes ({@code fuse_reply_write}). */
    public void written(long count) {
        answer();
        invoke(() -> (int) lib.replyWrite.handle().invokeExact(req, count));
    }
}
