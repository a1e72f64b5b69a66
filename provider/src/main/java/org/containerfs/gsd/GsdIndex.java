package org.containerfs.gsd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;

/**
 * The committed index of a GSD file in parallel primitive arrays (19 bytes an entry) plus the name
 * list. Frames are ranges of entries ({@code frameFirst}), so a frame is found in O(1). Grows by
 * reading only the slots past the known count.
 */
final class GsdIndex {
    private static final int SLOTS_PER_READ = 2048;
    private static final int NAME_WINDOW = 64 * 1024;

    private final String file;
    private GsdHeader header;
    /** The header's bytes as the last load or refresh read them: a change on disk means "refresh". */
    private byte[] headerBytes = new byte[0];
    /** The header on disk matched {@link #headerBytes} with nothing past the committed end (see {@link #changedOnDisk}). */
    private boolean headerSettled;

    // names: id = position in the list
    private byte[][] names = new byte[16][];
    private int nameCount;
    private final Map<String, Integer> idByName = new HashMap<>();
    /** Bytes of the name block in use (v1: 64 a name; v2: through the last name's NUL). */
    private long namelistUsed;

    // entries, in file order
    private long[] location = new long[16];
    /** N: 4 bytes an entry while every N fits an int; {@link #wideCount} takes over when one does not. */
    private int[] count = new int[16];
    private long[] wideCount;
    private int[] width = new int[16]; // M
    private char[] nameId = new char[16];
    private byte[] type = new byte[16];
    private int entries;
    /** Entries of frame f are [frameFirst[f], frameFirst[f+1]). */
    private int[] frameFirst = new int[17];
    private int frames;
    private long lastFrame = -1;
    private int lastId = -1;
    /** Some frame's entries are not in name-id order (v1 write order, or a hand-made file): no binary search. */
    private boolean unsorted;
    /** Two ids carry the same name (a hand-made name list): lookups by name are ambiguous. */
    private boolean repeatedNames;
    /** Name ids in unsigned byte order of their names, for prefix ranges; rebuilt when names were added. */
    private int[] idsByName = new int[0];
    private long dataEnd;

    GsdIndex(String file) {
        this.file = file;
    }

    GsdHeader header() {
        return header;
    }

    void setHeader(GsdHeader h) {
        this.header = h;
        headerSettled = false;
    }

    int entries() {
        return entries;
    }

    int frames() {
        return frames;
    }

    int nameCount() {
        return nameCount;
    }

    byte[] name(int id) {
        return names[id];
    }

    long namelistUsed() {
        return namelistUsed;
    }

    long dataEnd() {
        return dataEnd;
    }

    long location(int e) {
        return location[e];
    }

    long n(int e) {
        return wideCount != null ? wideCount[e] : count[e];
    }

    int m(int e) {
        return width[e];
    }

    int nameIdOf(int e) {
        return nameId[e];
    }

    int type(int e) {
        return type[e];
    }

    long bytes(int e) {
        return n(e) * width[e] * GsdHeader.typeSize(type[e]);
    }

    int frameFirst(int f) {
        return frameFirst[f];
    }

    int frameEnd(int f) {
        return frameFirst[f + 1];
    }

    /** Name id of raw name bytes, or -1. */
    int idOf(byte[] raw) {
        Integer id = idByName.get(key(raw));
        return id == null ? -1 : id;
    }

    static String key(byte[] raw) {
        return new String(raw, StandardCharsets.ISO_8859_1);
    }

    /** Whether {@link #find} and {@link #namesFrom} may be used (entries id-sorted, names unique). */
    boolean searchable() {
        return !unsorted && !repeatedNames;
    }

    /** The entry of name {@code id} in frame {@code f} (the first if repeated), or -1: a binary search, O(log n). */
    int find(int f, int id) {
        if (f < 0 || f >= frames || id < 0) {
            return -1;
        }
        int lo = frameFirst[f];
        int end = frameFirst[f + 1];
        int hi = end;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (nameId[mid] < id) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < end && nameId[lo] == id ? lo : -1;
    }

    /**
     * Name ids in byte order of their names; {@code start[0]} receives the position of the first name
     * not below {@code prefix}, so the names starting with it follow from there (a binary search).
     */
    synchronized int[] namesFrom(byte[] prefix, int[] start) {
        if (idsByName.length != nameCount) {
            Integer[] ids = new Integer[nameCount];
            for (int i = 0; i < nameCount; i++) {
                ids[i] = i;
            }
            Arrays.sort(ids, (a, b) -> Arrays.compareUnsigned(names[a], names[b]));
            idsByName = new int[nameCount];
            for (int i = 0; i < nameCount; i++) {
                idsByName[i] = ids[i];
            }
        }
        int lo = 0;
        int hi = nameCount;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(names[idsByName[mid]], prefix) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        start[0] = lo;
        return idsByName;
    }

    static boolean startsWith(byte[] name, byte[] prefix) {
        return name.length >= prefix.length && Arrays.equals(name, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** Reads header, names and index: the whole open. Never reads chunk data. */
    void load(ContainerChannel channel) throws IOException {
        header = readHeader(channel);
        headerBytes = lastHeaderRead;
        headerSettled = false;
        readNames(channel, header, true);
        readEntries(channel, header, channel.size(), true);
    }

    /**
     * The header, checked against the file's size taken after it: a writer puts a moved index or name
     * list in place before the header points to it, so the size read second covers them.
     */
    private GsdHeader readHeader(ContainerChannel channel) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(GsdHeader.SIZE);
        channel.readUpTo(head, 0);
        head.flip();
        lastHeaderRead = Arrays.copyOf(head.array(), head.remaining());
        return GsdHeader.parse(head, file, channel.size());
    }

    private byte[] lastHeaderRead = new byte[0];

    /**
     * Whether the file may hold more than this index: its header differs from the one last read, or
     * the slot after the last known entry is no longer empty. Every commit does one or the other (gsd
     * writes the entries into existing zero slots, after moving the index or name list by a header
     * write when they outgrow their blocks), whatever the file size did, so a reader that looked
     * between a writer's steps learns that it must look again.
     *
     * <p>The header is compared until one look finds it unchanged with no byte past the committed end:
     * from then on a move must first append its new block, which changes the size (the core refreshes
     * on that without asking here), so only the next slot is read: one small read a call, where a walk
     * asks once per directory. Called only after the core found the size unchanged since its last look.
     */
    boolean changedOnDisk(ContainerChannel channel) throws IOException {
        if (!headerSettled) {
            ByteBuffer head = ByteBuffer.allocate(GsdHeader.SIZE);
            int n = channel.readUpTo(head, 0);
            if (n != headerBytes.length || !Arrays.equals(head.array(), 0, n, headerBytes, 0, n)) {
                return true;
            }
            // the size now is the core's known size or more (then the core refreshes at its next look)
            headerSettled = channel.size() == committedEnd();
        }
        GsdHeader h = header;
        if (entries >= h.indexAllocated) {
            return false; // a full index grows by a header write first
        }
        ByteBuffer location = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        long at = h.indexLocation + (long) entries * GsdHeader.ENTRY_SIZE + 16;
        return channel.readUpTo(location, at) == 8 && location.getLong(0) != 0;
    }

    /** Where the last committed structure (data, index, name list) ends. */
    long committedEnd() {
        GsdHeader h = header;
        return Math.max(dataEnd, Math.max(h.indexLocation + h.indexAllocated * GsdHeader.ENTRY_SIZE,
                h.namelistLocation + h.namelistAllocated * GsdHeader.NAME_SLOT));
    }

    /**
     * Live growth: re-reads the header (a writer may have moved index or name list), then only the
     * names and slots past those already known. Returns whether anything was added.
     */
    boolean refresh(ContainerChannel channel) throws IOException {
        GsdHeader h = readHeader(channel);
        byte[] seen = lastHeaderRead;
        if (h.v1Layout() != header.v1Layout()) {
            throw new ContainerFormatException(file, 44, "file header", "the name list layout of version "
                    + GsdHeader.versionString(header.version) + " while the file is open",
                    "version " + GsdHeader.versionString(h.version));
        }
        if (h.indexAllocated < entries) {
            throw new ContainerFormatException(file, 16, "file header", "an index of at least the " + entries
                    + " entries already read", h.indexAllocated + " slots (the file was rewritten, not appended to)");
        }
        header = h;
        headerBytes = seen;
        headerSettled = false;
        int beforeNames = nameCount;
        int before = entries;
        readNames(channel, h, false);
        readEntries(channel, h, channel.size(), false);
        return entries != before || nameCount != beforeNames;
    }

    /**
     * Parses names from {@link #namelistUsed} on. A relocated list is a copy of the old one, so the
     * offset is valid in the new block too.
     */
    private void readNames(ContainerChannel channel, GsdHeader h, boolean strict) throws IOException {
        long blockBytes = h.namelistAllocated * GsdHeader.NAME_SLOT;
        ByteBuffer last = ByteBuffer.allocate(1);
        channel.readFully(last, h.namelistLocation + blockBytes - 1);
        if (last.get(0) != 0) {
            if (strict) {
                throw new ContainerFormatException(file, h.namelistLocation + blockBytes - 1, "name list",
                        "a NUL as the last byte of the name list block (as gsd requires)",
                        String.format("0x%02x", last.get(0) & 0xFF));
            }
            return; // a writer in the middle of replacing the block: look again at the next refresh
        }
        boolean v1 = h.v1Layout();
        long pos = namelistUsed;
        ByteBuffer window = ByteBuffer.allocate((int) Math.min(NAME_WINDOW, blockBytes));
        long windowStart = -1;
        int windowLen = 0;
        ByteArrayOutputStream current = new ByteArrayOutputStream();
        long nameStart = pos;
        while (pos < blockBytes) {
            if (windowStart < 0 || pos >= windowStart + windowLen) {
                window.clear().limit((int) Math.min(window.capacity(), blockBytes - pos));
                windowLen = channel.readUpTo(window, h.namelistLocation + pos);
                windowStart = pos;
                if (windowLen == 0) {
                    throw new TruncatedDataException(file, h.namelistLocation + pos, "name list",
                            "name list bytes up to byte " + (h.namelistLocation + blockBytes),
                            "the file ends at byte " + (h.namelistLocation + pos));
                }
            }
            byte b = window.get((int) (pos - windowStart));
            if (b == 0) {
                if (current.size() == 0) {
                    break; // an empty name ends the list
                }
                if (nameCount >= GsdHeader.MAX_NAMES) {
                    throw new ContainerFormatException(file, h.namelistLocation + nameStart, "name list",
                            "at most 65535 names (ids are 16-bit)", "a 65536th name");
                }
                addName(current.toByteArray());
                current.reset();
                pos = v1 ? nameStart + GsdHeader.NAME_SLOT : pos + 1;
                nameStart = pos;
                namelistUsed = pos;
                continue;
            }
            if (v1 && pos - nameStart >= GsdHeader.NAME_SLOT - 1) {
                // a 64-byte slot without its terminator: gsd reads through it; the slot's last byte ends it
                addName(current.toByteArray());
                current.reset();
                pos = nameStart + GsdHeader.NAME_SLOT;
                nameStart = pos;
                namelistUsed = pos;
                continue;
            }
            current.write(b);
            pos++;
        }
    }

    private void addName(byte[] raw) {
        if (nameCount == names.length) {
            names = Arrays.copyOf(names, nameCount * 2);
        }
        names[nameCount] = raw;
        if (idByName.putIfAbsent(key(raw), nameCount) != null) {
            repeatedNames = true;
        }
        nameCount++;
    }

    /** Adds a name the writer has just made durable. */
    int appendName(byte[] raw, long usedAfter) {
        addName(raw);
        namelistUsed = usedAfter;
        return nameCount - 1;
    }

    private void readEntries(ContainerChannel channel, GsdHeader h, long fileSize, boolean strict) throws IOException {
        long slot = entries;
        if (strict && entries == 0 && h.indexAllocated > location.length) {
            // the slot count is bounded by the file size (checked in the header); a cap keeps a huge
            // mostly-empty index from reserving memory it will not use
            grow((int) Math.min(h.indexAllocated, 1 << 20));
        }
        ByteBuffer buf = ByteBuffer.allocate(GsdHeader.ENTRY_SIZE * SLOTS_PER_READ).order(ByteOrder.LITTLE_ENDIAN);
        while (slot < h.indexAllocated) {
            int want = (int) Math.min(SLOTS_PER_READ, h.indexAllocated - slot);
            buf.clear().limit(want * GsdHeader.ENTRY_SIZE);
            long at = h.indexLocation + slot * GsdHeader.ENTRY_SIZE;
            int got = channel.readUpTo(buf, at);
            if (got < want * GsdHeader.ENTRY_SIZE) {
                throw new TruncatedDataException(file, at + got, "index", "the index of " + h.indexAllocated
                        + " slots to end at byte " + (h.indexLocation + h.indexAllocated * GsdHeader.ENTRY_SIZE),
                        "the file ends at byte " + (at + got));
            }
            for (int i = 0; i < want; i++, slot++) {
                int o = i * GsdHeader.ENTRY_SIZE;
                long loc = buf.getLong(o + 16);
                if (loc == 0) {
                    return; // the first slot with location 0 ends the index
                }
                long frame = buf.getLong(o);
                long n = buf.getLong(o + 8);
                int m = buf.getInt(o + 24);
                int id = buf.getShort(o + 28) & 0xFFFF;
                int t = buf.get(o + 30) & 0xFF;
                int flags = buf.get(o + 31) & 0xFF;
                long entryOffset = h.indexLocation + slot * GsdHeader.ENTRY_SIZE;
                if (id >= nameCount || !fits(loc, n, m, t, fileSize)) {
                    // A writer makes a frame's data and new names durable before the entries that commit
                    // it, so an entry read after our look at the names and the size may be newer than
                    // both: look again once (the names through a fresh header: the list may have moved).
                    if (id >= nameCount) {
                        readNames(channel, readHeader(channel), false);
                    }
                    fileSize = channel.size();
                    if (!strict && id >= nameCount) {
                        return; // its name is not visible yet: the next refresh
                    }
                }
                validate(slot, entryOffset, frame, n, loc, m, id, t, flags, h, fileSize);
                add(frame, n, loc, m, id, t);
            }
        }
    }

    /** Whether an entry's data lies inside a file of {@code fileSize} bytes (false for a bad type or M too). */
    private static boolean fits(long loc, long n, int m, int t, long fileSize) {
        long rowBytes = (long) m * GsdHeader.typeSize(t);
        return rowBytes > 0 && loc >= 0 && n >= 0 && loc <= fileSize && n <= (fileSize - loc) / rowBytes;
    }

    private void validate(long slot, long at, long frame, long n, long loc, int m, int id, int t, int flags,
            GsdHeader h, long fileSize) throws ContainerFormatException {
        // the message prefix is built only for a throw: an open validates every entry
        if (flags != 0) {
            throw new ContainerFormatException(file, at + 31, entry(slot), "flags 0", Integer.toString(flags));
        }
        int size = GsdHeader.typeSize(t);
        if (size == 0) {
            throw new ContainerFormatException(file, at + 30, entry(slot), "a known type id (1-11)", Integer.toString(t));
        }
        if (id >= nameCount) {
            throw new ContainerFormatException(file, at + 28, entry(slot), "a name id below the " + nameCount
                    + " names of the name list", Integer.toString(id));
        }
        if (frame < 0 || frame >= h.indexAllocated || frame > Integer.MAX_VALUE - 2) {
            throw new ContainerFormatException(file, at, entry(slot), "a frame number below the index size "
                    + h.indexAllocated + " (gsd's sanity bound)", Long.toUnsignedString(frame));
        }
        if (frame < lastFrame) {
            throw new ContainerFormatException(file, at, entry(slot), "frame numbers that never decrease",
                    "frame " + frame + " after frame " + lastFrame);
        }
        if (m <= 0) {
            throw new ContainerFormatException(file, at + 24, entry(slot), "M >= 1", Integer.toUnsignedString(m));
        }
        long rowBytes = (long) m * size;
        if (loc < 0 || n < 0 || loc > fileSize || n > (fileSize - loc) / rowBytes) {
            throw new ContainerFormatException(file, at + 16, entry(slot) + " (frame " + frame + ", "
                    + new String(names[id], StandardCharsets.UTF_8) + ")", "data inside the file of " + fileSize + " bytes",
                    "N=" + Long.toUnsignedString(n) + " x M=" + m + " x " + size + " bytes at byte "
                    + Long.toUnsignedString(loc));
        }
    }

    private static String entry(long slot) {
        return "index entry " + slot;
    }

    /** Appends one entry (from the file or just committed by the writer). */
    void add(long frame, long n, long loc, int m, int id, int t) {
        if (entries == location.length) {
            grow(entries * 2);
        }
        while (frames <= frame) {
            if (frames + 2 > frameFirst.length) {
                frameFirst = Arrays.copyOf(frameFirst, Math.max(frameFirst.length * 2, frames + 2));
            }
            frameFirst[frames] = entries;
            frames++;
        }
        if (frame != lastFrame) {
            lastId = -1;
        }
        if (id < lastId) {
            unsorted = true;
        }
        lastId = id;
        lastFrame = frame;
        location[entries] = loc;
        if (wideCount == null && n > Integer.MAX_VALUE) {
            wideCount = new long[location.length];
            for (int i = 0; i < entries; i++) {
                wideCount[i] = count[i];
            }
            count = null;
        }
        if (wideCount != null) {
            wideCount[entries] = n;
        } else {
            count[entries] = (int) n;
        }
        width[entries] = m;
        nameId[entries] = (char) id;
        type[entries] = (byte) t;
        entries++;
        frameFirst[frames] = entries;
        dataEnd = Math.max(dataEnd, loc + n * m * GsdHeader.typeSize(t));
    }

    private void grow(int cap) {
        location = Arrays.copyOf(location, cap);
        if (wideCount != null) {
            wideCount = Arrays.copyOf(wideCount, cap);
        } else {
            count = Arrays.copyOf(count, cap);
        }
        width = Arrays.copyOf(width, cap);
        nameId = Arrays.copyOf(nameId, cap);
        type = Arrays.copyOf(type, cap);
    }

    /** Drops growth slack after the open, so retained heap is what the entries need (19 bytes an entry). */
    void trim() {
        grow(Math.max(entries, 1));
        frameFirst = Arrays.copyOf(frameFirst, frames + 1);
    }
}
