package org.containerfs.fuse.lowlevel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The records of a READDIR and a READDIRPLUS reply, written in Java into the reply buffer: what libfuse's
 * {@code fuse_add_direntry} and {@code fuse_add_direntry_plus} write, byte for byte, without a downcall per
 * entry. The layouts are the kernel's FUSE ABI ({@code include/uapi/linux/fuse.h}, the same on every
 * architecture; fields only ever appended to the end of a struct, never moved): {@code struct fuse_dirent}
 * ({@code ino, off, namelen, type, name}) and {@code struct fuse_direntplus} ({@code struct fuse_entry_out}
 * then a {@code fuse_dirent}), each padded with zeros to a multiple of 8 bytes.
 */
final class Dirents {
    private Dirents() {}

    // struct fuse_attr (88 bytes)
    static final long ATTR_INO = 0;
    static final long ATTR_SIZE = 8;
    static final long ATTR_BLOCKS = 16;
    static final long ATTR_ATIME = 24;
    static final long ATTR_MTIME = 32;
    static final long ATTR_CTIME = 40;
    static final long ATTR_ATIMENSEC = 48;
    static final long ATTR_MTIMENSEC = 52;
    static final long ATTR_CTIMENSEC = 56;
    static final long ATTR_MODE = 60;
    static final long ATTR_NLINK = 64;
    static final long ATTR_UID = 68;
    static final long ATTR_GID = 72;
    static final long ATTR_RDEV = 76;
    static final long ATTR_BLKSIZE = 80;
    static final long ATTR_FLAGS = 84;

    // struct fuse_entry_out (40 bytes, then a fuse_attr: 128)
    static final long ENTRY_NODEID = 0;
    static final long ENTRY_GENERATION = 8;
    static final long ENTRY_VALID = 16;
    static final long ENTRY_ATTR_VALID = 24;
    static final long ENTRY_VALID_NSEC = 32;
    static final long ENTRY_ATTR_VALID_NSEC = 36;
    static final long ENTRY_ATTR = 40;
    static final long ENTRY_OUT_SIZE = 128;

    // struct fuse_dirent (24 bytes, then the name)
    static final long DIRENT_INO = 0;
    static final long DIRENT_OFF = 8;
    static final long DIRENT_NAMELEN = 16;
    static final long DIRENT_TYPE = 20;
    static final long DIRENT_NAME = 24;

    /** Where the name starts in a fuse_direntplus. */
    static final long DIRENTPLUS_NAME = ENTRY_OUT_SIZE + DIRENT_NAME;

    private static final int S_IFMT = 0170000;
    private static final ValueLayout.OfInt INT = Abi.INT;
    private static final ValueLayout.OfLong LONG = Abi.LONG;

    /** A name as libfuse takes it: its UTF-8 bytes up to a NUL, if any ({@code strlen}). */
    static byte[] nameBytes(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                return java.util.Arrays.copyOf(bytes, i);
            }
        }
        return bytes;
    }

    /**
     * The length of {@code name} in a record if it is plain ASCII without NUL (written without a byte array
     * by {@link #plain(MemorySegment, long, long, String, long, int, long)} and its kin), else -1.
     */
    static int asciiLength(String name) {
        int n = name.length();
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (c == 0 || c >= 0x80) {
                return -1;
            }
        }
        return n;
    }

    /** {@link #plain(MemorySegment, long, long, byte[], long, int, long)} of a name as libfuse takes it. */
    static long plain(MemorySegment buf, long at, long remaining, String name, long ino, int mode, long nextOffset) {
        int ascii = asciiLength(name);
        if (ascii < 0) {
            return plain(buf, at, remaining, nameBytes(name), ino, mode, nextOffset);
        }
        long length = padded(DIRENT_NAME, ascii);
        if (length <= remaining) {
            dirent(buf, at, null, name, ascii, ino, mode, nextOffset, length - DIRENT_NAME - ascii);
        }
        return length;
    }

    /** {@link #plus(MemorySegment, long, long, byte[], long, long, FileAttributes, double, double, long)} of a name as libfuse takes it. */
    static long plus(MemorySegment buf, long at, long remaining, String name, long nodeId, long generation,
            FileAttributes a, double entryTimeout, double attrTimeout, long nextOffset) {
        int ascii = asciiLength(name);
        if (ascii < 0) {
            return plus(buf, at, remaining, nameBytes(name), nodeId, generation, a, entryTimeout, attrTimeout, nextOffset);
        }
        long length = padded(DIRENTPLUS_NAME, ascii);
        if (length <= remaining) {
            entryOut(buf, at, nodeId, generation, a, entryTimeout, attrTimeout);
            dirent(buf, at + ENTRY_OUT_SIZE, null, name, ascii, a.ino(), a.mode(), nextOffset,
                    length - DIRENTPLUS_NAME - ascii);
        }
        return length;
    }

    /** A record's length: {@code nameOffset + nameLength} rounded up to 8 ({@code FUSE_DIRENT_ALIGN}). */
    static long padded(long nameOffset, int nameLength) {
        return (nameOffset + nameLength + 7) & ~7L;
    }

    /**
     * Writes a plain entry at {@code at} of {@code buf} if it fits in {@code remaining} bytes; returns its
     * padded length either way (more than {@code remaining}: nothing written), as {@code fuse_add_direntry}.
     */
    static long plain(MemorySegment buf, long at, long remaining, byte[] name, long ino, int mode, long nextOffset) {
        long length = padded(DIRENT_NAME, name.length);
        if (length > remaining) {
            return length;
        }
        dirent(buf, at, name, null, name.length, ino, mode, nextOffset, length - DIRENT_NAME - name.length);
        return length;
    }

    /**
     * Writes an entry with its attributes at {@code at} of {@code buf} if it fits in {@code remaining} bytes;
     * returns its padded length either way, as {@code fuse_add_direntry_plus}: node id {@code nodeId}, the
     * inode number {@code a.ino()} (in the attributes and the dirent), timeouts split into seconds and
     * nanoseconds as libfuse does.
     */
    static long plus(MemorySegment buf, long at, long remaining, byte[] name, long nodeId, long generation,
            FileAttributes a, double entryTimeout, double attrTimeout, long nextOffset) {
        long length = padded(DIRENTPLUS_NAME, name.length);
        if (length > remaining) {
            return length;
        }
        entryOut(buf, at, nodeId, generation, a, entryTimeout, attrTimeout);
        dirent(buf, at + ENTRY_OUT_SIZE, name, null, name.length, a.ino(), a.mode(), nextOffset,
                length - DIRENTPLUS_NAME - name.length);
        return length;
    }

    /** A {@code struct fuse_entry_out} at {@code at}, as libfuse's {@code fill_entry} and {@code convert_stat}. */
    private static void entryOut(MemorySegment buf, long at, long nodeId, long generation, FileAttributes a,
            double entryTimeout, double attrTimeout) {
        buf.set(LONG, at + ENTRY_NODEID, nodeId);
        buf.set(LONG, at + ENTRY_GENERATION, generation);
        buf.set(LONG, at + ENTRY_VALID, seconds(entryTimeout));
        buf.set(LONG, at + ENTRY_ATTR_VALID, seconds(attrTimeout));
        buf.set(INT, at + ENTRY_VALID_NSEC, nanos(entryTimeout));
        buf.set(INT, at + ENTRY_ATTR_VALID_NSEC, nanos(attrTimeout));
        long attr = at + ENTRY_ATTR;
        buf.set(LONG, attr + ATTR_INO, a.ino());
        buf.set(LONG, attr + ATTR_SIZE, a.size());
        buf.set(LONG, attr + ATTR_BLOCKS, a.blocks());
        buf.set(LONG, attr + ATTR_ATIME, a.accessSeconds());
        buf.set(LONG, attr + ATTR_MTIME, a.modifiedSeconds());
        buf.set(LONG, attr + ATTR_CTIME, a.modifiedSeconds());
        buf.set(INT, attr + ATTR_ATIMENSEC, a.accessNanos());
        buf.set(INT, attr + ATTR_MTIMENSEC, a.modifiedNanos());
        buf.set(INT, attr + ATTR_CTIMENSEC, a.modifiedNanos());
        buf.set(INT, attr + ATTR_MODE, a.mode());
        buf.set(INT, attr + ATTR_NLINK, 1);
        buf.set(INT, attr + ATTR_UID, a.uid());
        buf.set(INT, attr + ATTR_GID, a.gid());
        buf.set(INT, attr + ATTR_RDEV, 0);
        buf.set(INT, attr + ATTR_BLKSIZE, 4096);
        buf.set(INT, attr + ATTR_FLAGS, 0);
    }

    /** A {@code struct fuse_dirent} and its name: {@code bytes}, else the ASCII {@code text}, of {@code length}. */
    private static void dirent(MemorySegment buf, long at, byte[] bytes, String text, int length, long ino, int mode,
            long nextOffset, long pad) {
        buf.set(LONG, at + DIRENT_INO, ino);
        buf.set(LONG, at + DIRENT_OFF, nextOffset);
        buf.set(INT, at + DIRENT_NAMELEN, length);
        buf.set(INT, at + DIRENT_TYPE, (mode & S_IFMT) >>> 12);
        long name = at + DIRENT_NAME;
        if (bytes != null) {
            MemorySegment.copy(bytes, 0, buf, ValueLayout.JAVA_BYTE, name, length);
        } else {
            for (int i = 0; i < length; i++) {
                buf.set(ValueLayout.JAVA_BYTE, name + i, (byte) text.charAt(i));
            }
        }
        for (long i = 0; i < pad; i++) {
            buf.set(ValueLayout.JAVA_BYTE, name + length + i, (byte) 0);
        }
    }

    /** libfuse's {@code calc_timeout_sec}: whole seconds as an unsigned long, 0 for a negative timeout. */
    static long seconds(double t) {
        if (!(t >= 0.0)) {
            return 0;
        }
        if (t >= 0x1p64) {
            return -1L; // ULONG_MAX
        }
        return t >= 0x1p63 ? (long) (t - 0x1p63) | Long.MIN_VALUE : (long) t;
    }

    /** libfuse's {@code calc_timeout_nsec}: what is left after the whole seconds, in nanoseconds. */
    static int nanos(double t) {
        double whole = !(t >= 0.0) ? 0.0 : t >= 0x1p64 ? 0x1p64 : Math.floor(t);
        double f = t - whole;
        if (!(f >= 0.0)) {
            return 0;
        }
        if (f >= 0.999999999) {
            return 999_999_999;
        }
        return (int) (f * 1.0e9);
    }
}
