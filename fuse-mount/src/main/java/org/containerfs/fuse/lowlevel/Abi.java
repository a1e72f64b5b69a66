package org.containerfs.fuse.lowlevel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Byte offsets of the C structs the low-level API exchanges, for Linux on x86_64 and aarch64 (LP64).
 * libfuse keeps its structs stable across 3.x (new fields only replace padding); {@code struct stat}
 * is the C library's and differs between the two architectures.
 */
final class Abi {
    private Abi() {}

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    // struct fuse_file_info: int flags; 32 bits of bit fields; 32 bits of padding; uint64_t fh; ...
    static final long FI_FLAGS = 0;
    static final long FI_BITS = 4;
    static final long FI_FH = 16;
    static final long FI_SIZE = 40;
    /** Bit numbers in FI_BITS: writepage, direct_io, keep_cache, flush, nonseekable, flock_release, cache_readdir. */
    static final int FI_KEEP_CACHE = 1 << 2;
    static final int FI_CACHE_READDIR = 1 << 6;

    // struct fuse_conn_info: nine unsigned ints then reserved space
    static final long CONN_PROTO_MAJOR = 0;
    static final long CONN_PROTO_MINOR = 4;
    static final long CONN_MAX_WRITE = 8;
    static final long CONN_MAX_READ = 12;
    static final long CONN_CAPABLE = 20;
    static final long CONN_WANT = 24;

    // struct fuse_args { int argc; char **argv; int allocated; }
    static final long ARGS_ARGC = 0;
    static final long ARGS_ARGV = 8;
    static final long ARGS_SIZE = 24;

    // struct fuse_buf { size_t size; enum flags; void *mem; int fd; off_t pos; }
    static final long BUF_SIZE = 40;
    static final long BUF_MEM = 16;

    // struct fuse_bufvec { size_t count; size_t idx; size_t off; struct fuse_buf buf[1]; } (fuse_common.h, 3.x)
    static final long BUFVEC_COUNT = 0;
    static final long BUFVEC_IDX = 8;
    static final long BUFVEC_OFF = 16;
    static final long BUFVEC_BUF = 24;
    /** Room for one fuse_buf, with 8 spare bytes for the {@code size_t mem_size} that libfuse 3.17 appends. */
    static final long BUFVEC_SIZE = BUFVEC_BUF + BUF_SIZE + 8;
    // struct fuse_buf fields
    static final long BUF_SIZE_FIELD = 0;
    static final long BUF_FLAGS = 8;
    static final long BUF_FD = 24;
    static final long BUF_POS = 32;
    /** enum fuse_buf_flags: FUSE_BUF_IS_FD, FUSE_BUF_FD_SEEK. */
    static final int BUF_IS_FD = 1 << 1;
    static final int BUF_FD_SEEK = 1 << 2;
    /** enum fuse_buf_copy_flags: FUSE_BUF_SPLICE_MOVE (a hint; used only if the connection wants SPLICE_MOVE). */
    static final int BUF_SPLICE_MOVE = 1 << 3;

    // struct fuse_forget_data { fuse_ino_t ino; uint64_t nlookup; }
    static final long FORGET_DATA_SIZE = 16;

    // struct fuse_lowlevel_ops: 44 function pointers in 3.14 (init .. lseek); later 3.x append more
    static final int OPS_COUNT = 44;

    // struct statvfs (glibc, LP64): unsigned long fields, then f_fsid, f_flag, f_namemax, 6 ints spare
    static final long STATVFS_BSIZE = 0;
    static final long STATVFS_FRSIZE = 8;
    static final long STATVFS_BLOCKS = 16;
    static final long STATVFS_BFREE = 24;
    static final long STATVFS_BAVAIL = 32;
    static final long STATVFS_FILES = 40;
    static final long STATVFS_FFREE = 48;
    static final long STATVFS_FAVAIL = 56;
    static final long STATVFS_NAMEMAX = 80;
    static final long STATVFS_SIZE = 112;

    /** struct stat of the running architecture. */
    static final Stat STAT = Stat.forArchitecture(System.getProperty("os.arch"));

    // struct fuse_entry_param { fuse_ino_t ino; uint64_t generation; struct stat attr; double attr_timeout; double entry_timeout; }
    static final long ENTRY_INO = 0;
    static final long ENTRY_GENERATION = 8;
    static final long ENTRY_ATTR = 16;
    static final long ENTRY_ATTR_TIMEOUT = ENTRY_ATTR + STAT.size;
    static final long ENTRY_ENTRY_TIMEOUT = ENTRY_ATTR_TIMEOUT + 8;
    static final long ENTRY_SIZE = ENTRY_ENTRY_TIMEOUT + 8;

    /** glibc's struct stat: x86_64 has a 64-bit st_nlink before st_mode, aarch64 (asm-generic) the reverse. */
    record Stat(long size, long ino, long nlink, boolean wideNlink, long mode, long uid, long gid, long stSize,
            long blksize, boolean wideBlksize, long blocks, long atime, long mtime, long ctime) {
        static Stat forArchitecture(String arch) {
            return switch (arch) {
                case "amd64", "x86_64" -> new Stat(144, 8, 16, true, 24, 28, 32, 48, 56, true, 64, 72, 88, 104);
                case "aarch64", "arm64" -> new Stat(128, 8, 20, false, 16, 24, 28, 48, 56, false, 64, 72, 88, 104);
                default -> throw new IllegalStateException("the low-level FUSE engine knows struct stat of x86_64 "
                        + "and aarch64 Linux only, not " + arch);
            };
        }

        /** Writes {@code a} at {@code base} of {@code s} (the struct must be zeroed or fully overwritten). */
        void write(MemorySegment s, long base, FileAttributes a) {
            s.asSlice(base, size).fill((byte) 0);
            s.set(LONG, base + ino, a.ino());
            if (wideNlink) {
                s.set(LONG, base + nlink, 1);
            } else {
                s.set(INT, base + nlink, 1);
            }
            s.set(INT, base + mode, a.mode());
            s.set(INT, base + uid, a.uid());
            s.set(INT, base + gid, a.gid());
            s.set(LONG, base + stSize, a.size());
            if (wideBlksize) {
                s.set(LONG, base + blksize, 4096);
            } else {
                s.set(INT, base + blksize, 4096);
            }
            s.set(LONG, base + blocks, a.blocks());
            s.set(LONG, base + atime, a.accessSeconds());
            s.set(LONG, base + atime + 8, a.accessNanos());
            s.set(LONG, base + mtime, a.modifiedSeconds());
            s.set(LONG, base + mtime + 8, a.modifiedNanos());
            s.set(LONG, base + ctime, a.modifiedSeconds());
            s.set(LONG, base + ctime + 8, a.modifiedNanos());
        }
    }
}
