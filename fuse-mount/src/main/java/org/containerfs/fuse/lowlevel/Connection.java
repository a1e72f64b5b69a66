package org.containerfs.fuse.lowlevel;

import java.lang.foreign.MemorySegment;

/** The kernel connection's parameters during init ({@code struct fuse_conn_info}). */
public final class Connection {
    public static final int CAP_ASYNC_READ = 1;
    public static final int CAP_SPLICE_WRITE = 1 << 7;
    public static final int CAP_SPLICE_MOVE = 1 << 8;
    public static final int CAP_SPLICE_READ = 1 << 9;
    public static final int CAP_AUTO_INVAL_DATA = 1 << 12;
    public static final int CAP_READDIRPLUS = 1 << 13;
    public static final int CAP_READDIRPLUS_AUTO = 1 << 14;
    public static final int CAP_WRITEBACK_CACHE = 1 << 16;
    /** The kernel takes ENOSYS from opendir as "no opendir/releasedir needed" (Linux 5.1, libfuse 3.5). */
    public static final int CAP_NO_OPENDIR_SUPPORT = 1 << 24;

    private final MemorySegment conn;

    Connection(MemorySegment conn) {
        this.conn = conn.reinterpret(64);
    }

    public int protocolMajor() {
        return conn.get(Abi.INT, Abi.CONN_PROTO_MAJOR);
    }

    public int protocolMinor() {
        return conn.get(Abi.INT, Abi.CONN_PROTO_MINOR);
    }

    /** What the kernel offers. */
    public int capable() {
        return conn.get(Abi.INT, Abi.CONN_CAPABLE);
    }

    /** What the file system uses (libfuse's defaults until changed). */
    public int want() {
        return conn.get(Abi.INT, Abi.CONN_WANT);
    }

    /** Sets {@code want} to {@code bits}, keeping only what the kernel offers. */
    public void want(int bits) {
        conn.set(Abi.INT, Abi.CONN_WANT, bits & capable());
    }

    /** libfuse 3.14 refuses a {@code -o max_read} that init does not repeat. */
    public void maxRead(int bytes) {
        conn.set(Abi.INT, Abi.CONN_MAX_READ, bytes);
    }
}
