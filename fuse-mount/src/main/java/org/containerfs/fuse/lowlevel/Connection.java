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

    /** The largest write the kernel may send; libfuse also makes it the largest request of any kind (max_pages). */
    public int maxWrite() {
        return conn.get(Abi.INT, Abi.CONN_MAX_WRITE);
    }

    /**
     * Sets the largest write, from which libfuse derives {@code max_pages}, the most pages the kernel puts in
     * one request: reads included.
     */
    public void maxWrite(int bytes) {
        conn.set(Abi.INT, Abi.CONN_MAX_WRITE, bytes);
    }

    /**
     * The largest read reply libfuse can splice: it sends a reply through a pipe only when the pipe holds the
     * reply, its 16-byte header and three pages more ({@code fuse_send_data_iov}), and a pipe grows to at most
     * {@code pipeMaxSize} bytes ({@code /proc/sys/fs/pipe-max-size}, 1 MiB by default, without
     * CAP_SYS_RESOURCE). A bigger reply falls back to a buffer libfuse allocates per request. The answer: the
     * most whole pages that fit (1,008 KiB for a 1 MiB pipe). Measured with a 1 MiB read-ahead window,
     * 512 KiB requests came out as 128 KiB READs on average and 1,008 KiB ones as 512 KiB READs, at less
     * daemon CPU: the largest that fits, not a power of two.
     */
    public static int splicedReplyLimit(long pipeMaxSize) {
        long page = 4096;
        long pages = Math.max(1, (pipeMaxSize - 16) / page - 3);
        return (int) Math.min(Integer.MAX_VALUE / page * page, pages * page);
    }

    /** libfuse 3.14 refuses a {@code -o max_read} that init does not repeat. */
    public void maxRead(int bytes) {
        conn.set(Abi.INT, Abi.CONN_MAX_READ, bytes);
    }
}
