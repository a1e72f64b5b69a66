package org.containerfs.lime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.IndexSnapshotInput;
import org.containerfs.spi.IndexSnapshotOutput;
import org.containerfs.spi.UnsupportedVersionException;

/**
 * Every record's header facts in parallel primitive arrays (about 25 bytes a record), built by
 * walking the headers. Grows by incremental scans from where the last one stopped.
 */
final class LimeIndex {
    private static final int SMALL_STRIDE = 16 * 1024;
    private static final int WIDE_WINDOW = 256 * 1024;

    /**
     * Each thread's window for walks, reused: a direct buffer is freed only when the garbage collector
     * finds it unreachable, and a process that makes little garbage (a mount daemon opening container
     * after container, or refreshing a growing one) otherwise held a fresh 256 KiB per scan for long.
     */
    private static final ThreadLocal<ByteBuffer> WINDOWS = ThreadLocal.withInitial(
            () -> ByteBuffer.allocateDirect(WIDE_WINDOW));
    private static final int NARROW_WINDOW = 4096;
    private static final int MATCHED_TYPES = 16;
    /**
     * Files from this size on are walked in two halves at once when there are two cores: a walk of 160 MB of
     * small records took 31 ms on one core, about 1.5 times a bare read of the same headers.
     */
    static final long PARALLEL_FROM = 32L << 20;
    /** The first bytes walked alone, to learn whether the records are small enough to be worth a second walk. */
    private static final long LEARN_STRIDE = 1L << 20;

    private final long parallelFrom;
    /** Where the first scan took over the other half's walk (a header offset), -1 if it walked alone: for tests. */
    private long joinedAt = -1;

    long joinedAt() {
        return joinedAt;
    }

    /** Looked at before each window a walk reads: set when nobody waits for this walk any more (it then stops). */
    private volatile boolean abandoned;

    private final String file;
    private long[] headerOffsets = new long[16];
    private long[] lengths = new long[16];
    private byte[] flags = new byte[16];
    private int[] typeIds = new int[16];
    private int records;
    private int[] messageFirst = new int[16];
    private int messages;
    private final List<byte[]> types = new ArrayList<>();
    private final Map<String, Integer> typeIdByKey = new HashMap<>();

    /** Where the next header would start (end of the last record's padding). */
    private long nextHeader;
    /** The file size the running scan reads up to, and where it started: they predict the record count when arrays grow. */
    private long scanSize;
    private long scanStart;
    /** Bytes after the last listed record that do not form a record; 0 if none. */
    private long tailBytes;
    /** What is wrong with the tail, or null; {@link #tailIsUncommitted} if it is a torn append of ours. */
    private String damage;
    private boolean tailIsUncommitted;

    LimeIndex(String file) {
        this(file, PARALLEL_FROM);
    }

    /** An index whose first scan is split in two ({@link #walkInTwo}) for files of at least {@code parallelFrom} bytes. */
    LimeIndex(String file, long parallelFrom) {
        this.file = file;
        this.parallelFrom = Runtime.getRuntime().availableProcessors() >= 2 ? parallelFrom : Long.MAX_VALUE;
    }

    int records() {
        return records;
    }

    int messages() {
        return messages;
    }

    long headerOffset(int r) {
        return headerOffsets[r];
    }

    long length(int r) {
        return lengths[r];
    }

    int flags(int r) {
        return flags[r] & 0xFF;
    }

    byte[] type(int r) {
        return types.get(typeIds[r]);
    }

    /** The number of the distinct type of record {@code r}: equal types have equal numbers. */
    int typeId(int r) {
        return typeIds[r];
    }

    /** The type numbers of records {@code first} to {@code first + count - 1}. */
    int[] typeIds(int first, int count) {
        return Arrays.copyOfRange(typeIds, first, first + count);
    }

    /** Whether records {@code first}... have exactly the type numbers {@code ids}, in that order. */
    boolean hasTypeIds(int first, int[] ids) {
        return Arrays.equals(typeIds, first, first + ids.length, ids, 0, ids.length);
    }

    /** How many distinct types the records have. */
    int typeCount() {
        return types.size();
    }

    int messageFirst(int m) {
        return messageFirst[m];
    }

    /** One past the last record of message {@code m} (0-based). */
    int messageEnd(int m) {
        return m + 1 < messages ? messageFirst[m + 1] : records;
    }

    long nextHeader() {
        return nextHeader;
    }

    long tailBytes() {
        return tailBytes;
    }

    String damage() {
        return damage;
    }

    boolean tailIsUncommitted() {
        return tailIsUncommitted;
    }

    /** Sets a record's flag byte after the writer changed it on disk. */
    void setFlags(int r, int value) {
        flags[r] = (byte) value;
    }

    /**
     * Walks headers from {@link #nextHeader} to the end of the file: the whole file at open, only the
     * new tail on refresh. A damaged tail is not consumed, so a later scan looks at it again (a live
     * writer may have completed it since).
     */
    void scan(ContainerChannel channel, boolean strict) throws IOException {
        long size = channel.size();
        scanSize = size;
        if (nextHeader >= size) {
            return; // nothing new (or the last record's payload is still incomplete)
        }
        damage = null;
        tailBytes = 0;
        tailIsUncommitted = false;
        if (records > 0) {
            // A writer clears the previous record's ME once a record joins its message: read it again.
            ByteBuffer flag = ByteBuffer.allocate(1);
            if (channel.readUpTo(flag, headerOffsets[records - 1] + LimeHeader.FLAGS_OFFSET) == 1) {
                flags[records - 1] = flag.get(0);
            }
        }
        // direct: a file channel reads into it without the copy through a temporary direct buffer
        // that a heap buffer costs (the whole file passes through this window)
        ByteBuffer window = WINDOWS.get();
        if (records == 0 && nextHeader == 0 && size >= parallelFrom) {
            walkInTwo(channel, strict, size, window);
        }
        if (damage == null) {
            walk(channel, strict, size, Long.MAX_VALUE, window);
        }
    }

    /**
     * The first scan of a large file of small records, on two cores: another thread walks the headers of the
     * second half while this one walks the first, then the two walks are joined where this one reaches a
     * header the other found. A header is found from the middle by its magic number, version and a length
     * that fits the file; a payload that happens to hold such bytes starts the other walk on a false chain,
     * which this walk then never lands on, and it simply goes on alone: the result is always the one
     * sequential walk's (same records, type numbers, messages and damage), only sooner. Files whose first
     * records are large (a big binary record) are walked alone: their headers are few and far apart.
     */
    private void walkInTwo(ContainerChannel channel, boolean strict, long size, ByteBuffer window) throws IOException {
        long middle = (size / 2) & ~7L; // headers start on 8-byte boundaries (payloads are padded to 8)
        walk(channel, strict, size, Math.min(middle, LEARN_STRIDE), window);
        if (damage != null || records == 0 || nextHeader >= middle || nextHeader / records > SMALL_STRIDE) {
            return;
        }
        SecondHalf second = new SecondHalf(channel, middle, size);
        Thread thread = new Thread(second, "containerfs-lime-scan");
        thread.setDaemon(true);
        try {
            thread.start();
        } catch (OutOfMemoryError noThreadLeft) { // the process may start no more threads: one walk does it all
            return;
        }
        boolean joined = false;
        try {
            walk(channel, strict, size, middle, window);
            thread.join();
            joined = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return; // the rest is walked here, alone
        } finally {
            if (!joined) {
                second.walked.abandoned = true; // damage here (or an interrupt): the other walk stops at its next read
            }
        }
        LimeIndex other = second.result;
        while (damage == null && nextHeader < size && other != null) {
            int j = Arrays.binarySearch(other.headerOffsets, 0, other.records, nextHeader);
            if (j >= 0) {
                append(other, j, size);
                return;
            }
            int next = -j - 1; // the other walk's first header past this one: walk up to it and look again
            if (next == other.records) {
                return;
            }
            walk(channel, strict, size, other.headerOffsets[next], window);
        }
    }

    /**
     * Appends records {@code from}... of {@code other}, a walk of the same file, in bulk (a per-record add
     * cost 5 ms for half a million). Its last record is left out if its payload is cut short: the walk that
     * follows reports it.
     */
    private void append(LimeIndex other, int from, long size) {
        int count = other.records - from;
        if (count > 0) {
            int last = other.records - 1;
            long lastEnd = other.headerOffsets[last] + LimeHeader.SIZE + other.lengths[last];
            if (lastEnd < 0 || lastEnd > size) {
                count--;
            }
        }
        if (count <= 0) {
            return;
        }
        joinedAt = other.headerOffsets[from];
        int total = records + count;
        reserve(total);
        System.arraycopy(other.headerOffsets, from, headerOffsets, records, count);
        System.arraycopy(other.lengths, from, lengths, records, count);
        System.arraycopy(other.flags, from, flags, records, count);
        int[] typeIdOf = new int[other.types.size()];
        Arrays.fill(typeIdOf, -1);
        for (int k = 0; k < count; k++) {
            int local = other.typeIds[from + k];
            int id = typeIdOf[local];
            if (id < 0) {
                id = typeIdOf[local] = typeId(other.types.get(local)); // numbered in order of first use, as one walk does
            }
            typeIds[records + k] = id;
            if ((flags[records + k] & LimeHeader.MB) != 0) {
                startMessage(records + k);
            }
        }
        records = total;
        long length = lengths[total - 1];
        nextHeader = headerOffsets[total - 1] + LimeHeader.SIZE + length + LimeHeader.padding(length);
    }

    /** The second half's walk, on its own thread: from the first header found after the middle to the end or to damage. */
    private final class SecondHalf implements Runnable {
        private final ContainerChannel channel;
        private final long middle;
        private final long size;
        final LimeIndex walked = new LimeIndex(file, Long.MAX_VALUE);
        LimeIndex result;

        SecondHalf(ContainerChannel channel, long middle, long size) {
            this.channel = channel;
            this.middle = middle;
            this.size = size;
        }

        @Override
        public void run() {
            try {
                long first = firstHeaderFrom(channel, middle, size);
                if (first >= 0) {
                    walked.nextHeader = first;
                    walked.scanStart = first;
                    walked.scanSize = size;
                    walked.walk(channel, false, size, Long.MAX_VALUE, WINDOWS.get());
                }
            } catch (IOException | RuntimeException e) {
                // what it walked before stays good: every record is added only once its header is checked
            }
            result = walked;
        }
    }

    /**
     * The first 8-byte-aligned position in the {@link #WIDE_WINDOW} bytes from {@code from} that holds a
     * plausible header (magic, version 1, a payload within the file) followed by the end of the file or by
     * another header's magic number; -1 if there is none.
     */
    private static long firstHeaderFrom(ContainerChannel channel, long from, long size) throws IOException {
        ByteBuffer window = ByteBuffer.allocate((int) Math.min(WIDE_WINDOW, size - from));
        int length = channel.readUpTo(window, from);
        for (int at = 0; at + LimeHeader.SIZE <= length; at += 8) {
            if (window.getInt(at) != LimeHeader.MAGIC || (window.getShort(at + 4) & 0xFFFF) != 1) {
                continue;
            }
            long payload = window.getLong(at + 8);
            long dataEnd = from + at + LimeHeader.SIZE + payload;
            if (payload < 0 || dataEnd < 0 || dataEnd > size) {
                continue;
            }
            long next = dataEnd + LimeHeader.padding(payload);
            long nextAt = next - from;
            if (next >= size || (nextAt + 4 <= length && window.getInt((int) nextAt) == LimeHeader.MAGIC)) {
                return from + at;
            }
        }
        return -1;
    }

    /**
     * Walks headers from {@link #nextHeader} until the first one at or past {@code limit} (left for the next
     * call) or the end of the file, which ends the scan as {@link #scan} describes.
     */
    private void walk(ContainerChannel channel, boolean strict, long size, long limit, ByteBuffer window)
            throws IOException {
        long windowStart = -1;
        int windowLength = 0;
        long stride = 0;
        long pos = nextHeader;
        while (pos < size && pos < limit) {
            if (size - pos < LimeHeader.SIZE) {
                tailBytes = size - pos;
                tailIsUncommitted = true;
                damage = "a partial header of " + tailBytes + " bytes at byte " + pos
                        + " (ignored, as c-lime treats it as the end of the file)";
                break;
            }
            if (windowStart < 0 || pos < windowStart || pos + LimeHeader.SIZE > windowStart + windowLength) {
                if (abandoned) {
                    break;
                }
                int want = (int) Math.min(stride > 0 && stride <= SMALL_STRIDE ? WIDE_WINDOW : NARROW_WINDOW, size - pos);
                window.clear().limit(want);
                windowLength = channel.readUpTo(window, pos);
                windowStart = pos;
                if (windowLength < LimeHeader.SIZE) {
                    tailBytes = size - pos;
                    tailIsUncommitted = true;
                    damage = "a partial header at byte " + pos;
                    break;
                }
            }
            int at = (int) (pos - windowStart);
            int magic = window.getInt(at);
            if (magic != LimeHeader.MAGIC) {
                tailBytes = size - pos;
                tailIsUncommitted = allZero(window, at, LimeHeader.SIZE);
                damage = tailIsUncommitted
                        ? "an uncommitted append of " + tailBytes + " bytes at byte " + pos + " (a writer stopped before its header)"
                        : String.format("wrong magic number 0x%08x at byte %d (expected 0x456789ab): %d bytes after the last record are not records",
                                magic, pos, tailBytes);
                if (strict && !tailIsUncommitted) {
                    throw new ContainerFormatException(file, pos, "record " + (records + 1),
                            "a LIME header with magic 0x456789ab", String.format("0x%08x", magic));
                }
                break;
            }
            int version = window.getShort(at + 4) & 0xFFFF;
            if (version != 1) {
                throw new UnsupportedVersionException(file, pos + 4, "record " + (records + 1),
                        "LIME version 1 in the record header", "version " + version);
            }
            long length = window.getLong(at + 8);
            if (length < 0) {
                throw new ContainerFormatException(file, pos + 8, "record " + (records + 1),
                        "a data length below 2^63", Long.toUnsignedString(length));
            }
            int typeId = knownType(window, at);
            if (typeId < 0) {
                typeId = typeId(LimeHeader.type(window, at));
            }
            addRecord(pos, length, window.get(at + LimeHeader.FLAGS_OFFSET), typeId);
            long dataEnd = pos + LimeHeader.SIZE + length;
            if (dataEnd < 0 || dataEnd > size) {
                damage = "record " + records + " at byte " + pos + " declares " + length + " bytes but the file ends at byte "
                        + size + " (truncated payload)";
                if (strict) {
                    throw new ContainerFormatException(file, pos + 8, "record " + records,
                            "a payload of " + length + " bytes from byte " + (pos + LimeHeader.SIZE),
                            "the file ends at byte " + size);
                }
                nextHeader = dataEnd < 0 ? Long.MAX_VALUE : dataEnd + LimeHeader.padding(length);
                return;
            }
            long next = dataEnd + LimeHeader.padding(length);
            stride = next - pos;
            pos = next;
        }
        nextHeader = pos; // a damaged tail is looked at again by the next scan
        if (strict && damage != null && !tailIsUncommitted) {
            throw new ContainerFormatException(file, pos, null, "complete LIME records up to the end of the file", damage);
        }
    }

    private static boolean allZero(ByteBuffer b, int from, int count) {
        for (int i = from; i < from + count; i++) {
            if (b.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The id of the type in the header at {@code at} if it is one already seen (compared in the
     * window, so the common case allocates nothing), else -1. A file has few distinct types; past
     * {@link #MATCHED_TYPES} of them only the previous record's type is tried. A known type matches
     * when the field holds its bytes followed by a NUL (or fills the field): no search for the NUL.
     */
    private int knownType(ByteBuffer window, int at) {
        int start = at + 16;
        if (records > 0 && sameType(window, start, typeIds[records - 1])) {
            return typeIds[records - 1];
        }
        int candidates = types.size() <= MATCHED_TYPES ? types.size() : 0;
        for (int id = 0; id < candidates; id++) {
            if (sameType(window, start, id)) {
                return id;
            }
        }
        return -1;
    }

    /** Compared 8 bytes at a time against {@link #typeWords}, in the window (heap or direct) as it is. */
    private boolean sameType(ByteBuffer window, int start, int id) {
        long[] words = typeWords[id];
        int last = words.length - 2;
        for (int i = 0; i < last; i++) {
            if (window.getLong(start + 8 * i) != words[i]) {
                return false;
            }
        }
        return (window.getLong(start + 8 * last) & words[last + 1]) == words[last];
    }

    /**
     * Each distinct type as the big-endian words of its type field: its bytes, the NUL that ends them
     * (none for a type that fills the field), then zeros; the last element is the mask of the bytes
     * the last word must match (those after the NUL may be anything).
     */
    private long[][] typeWords = new long[0][];

    private static long[] typeWords(byte[] type) {
        int significant = Math.min(type.length + 1, LimeHeader.TYPE_FIELD); // the bytes and the NUL
        int count = (significant + 7) / 8;
        long[] words = new long[count + 1];
        for (int i = 0; i < type.length; i++) {
            words[i / 8] |= (type[i] & 0xFFL) << (56 - 8 * (i % 8));
        }
        int inLast = significant - 8 * (count - 1);
        words[count] = inLast == 8 ? -1L : ~(-1L >>> (8 * inLast));
        return words;
    }

    void addRecord(long headerOffset, long length, byte flagByte, byte[] type) {
        addRecord(headerOffset, length, flagByte, typeId(type));
    }

    private void addRecord(long headerOffset, long length, byte flagByte, int typeId) {
        if (records == headerOffsets.length) {
            // the records so far predict how many the rest of the file holds: grow once to that
            // (plus slack), not by doubling and copying every array a dozen times
            long walked = headerOffset - scanStart;
            long expected = walked > 0 ? records + (long) ((double) records / walked * (scanSize - headerOffset)) : 0;
            reserve(Math.max(Math.max(16, records * 2L), Math.min(expected + 64, records * 16L)));
        }
        if ((flagByte & LimeHeader.MB) != 0 || records == 0) {
            startMessage(records);
        }
        headerOffsets[records] = headerOffset;
        lengths[records] = length;
        flags[records] = flagByte;
        typeIds[records] = typeId;
        records++;
    }

    /** Called by the writer once its record is complete on disk. */
    void committed(long headerOffset, long length, int flagByte, byte[] type) {
        addRecord(headerOffset, length, (byte) flagByte, type);
        nextHeader = headerOffset + LimeHeader.SIZE + length + LimeHeader.padding(length);
        damage = null;
        tailBytes = 0;
        tailIsUncommitted = false;
    }

    /** The heap the index holds: its arrays as allocated, and each distinct type (bytes, key, words). */
    long memoryBytes() {
        long b = 256L + 8L * headerOffsets.length + 8L * lengths.length + flags.length + 4L * typeIds.length
                + 4L * messageFirst.length;
        for (byte[] t : types) {
            b += 3L * t.length + 128;
        }
        return b;
    }

    private int typeId(byte[] type) {
        String key = new String(type, java.nio.charset.StandardCharsets.ISO_8859_1);
        Integer id = typeIdByKey.get(key);
        if (id == null) {
            id = types.size();
            types.add(type);
            typeIdByKey.put(key, id);
            typeWords = Arrays.copyOf(typeWords, id + 1);
            typeWords[id] = typeWords(type);
        }
        return id;
    }

    private static final int SNAPSHOT_VERSION = 1;

    /**
     * The index as snapshot bytes: the distinct types, then every record's length, flag byte and type
     * id. Header offsets are not stored: records follow each other from byte 0, so each is the end of
     * the one before, which also makes a snapshot unable to point a record anywhere else.
     */
    byte[] exportSnapshot() {
        IndexSnapshotOutput out = new IndexSnapshotOutput(records * 4 + 64);
        out.writeByte(SNAPSHOT_VERSION);
        out.writeVarLong(types.size());
        for (byte[] t : types) {
            out.writeBytes(t);
        }
        out.writeVarLong(records);
        for (int r = 0; r < records; r++) {
            out.writeVarLong(lengths[r]).writeByte(flags[r]).writeVarLong(typeIds[r]);
        }
        out.writeVarLong(tailBytes).writeByte(tailIsUncommitted ? 1 : 0).writeNullableString(damage);
        return out.toByteArray();
    }

    /**
     * Fills an empty index from a snapshot of the container's first {@code covered} bytes, checking
     * that it describes records a scan of those bytes could have found. Returns false if it records
     * damage that a strict open must report (the caller then scans, which throws).
     */
    boolean importSnapshot(ByteBuffer snapshot, long covered, boolean strict) throws ContainerFormatException {
        IndexSnapshotInput in = new IndexSnapshotInput(snapshot, file);
        int version = in.readByte();
        if (version != SNAPSHOT_VERSION) {
            throw in.inconsistent("LIME snapshot version " + SNAPSHOT_VERSION, "version " + version);
        }
        int typeCount = in.readCount(1, Integer.MAX_VALUE, "type count");
        for (int i = 0; i < typeCount; i++) {
            byte[] t = in.readBytes(LimeHeader.TYPE_FIELD, "type");
            if (typeIdByKey.containsKey(new String(t, java.nio.charset.StandardCharsets.ISO_8859_1))) {
                throw in.inconsistent("distinct record types", "type \""
                        + new String(t, java.nio.charset.StandardCharsets.ISO_8859_1) + "\" twice");
            }
            typeId(t);
        }
        int count = in.readCount(3, covered / LimeHeader.SIZE, "record count (one header per 144 bytes)");
        // sized once: the count is bounded by the snapshot's length (3 bytes a record at least)
        headerOffsets = new long[Math.max(16, count)];
        lengths = new long[headerOffsets.length];
        flags = new byte[headerOffsets.length];
        typeIds = new int[headerOffsets.length];
        long pos = 0;
        for (int r = 0; r < count; r++) {
            if (pos > covered - LimeHeader.SIZE) {
                throw in.inconsistent("record " + (r + 1) + " within the " + covered + " bytes the snapshot covers",
                        "it starts at byte " + pos);
            }
            long length = in.readVarLong();
            byte flag = (byte) in.readByte();
            int type = (int) in.readVarLong(typeCount - 1L, "type id");
            addRecord(pos, length, flag, type);
            long dataEnd = pos + LimeHeader.SIZE + length;
            if (dataEnd < 0) {
                pos = Long.MAX_VALUE;
            } else {
                pos = dataEnd + LimeHeader.padding(length);
            }
            if (pos > covered && r + 1 < count) {
                throw in.inconsistent("a truncated payload only in the last record",
                        "record " + (r + 1) + " of " + count + " ends at byte " + pos);
            }
        }
        nextHeader = pos;
        tailBytes = in.readVarLong(covered, "trailing bytes");
        tailIsUncommitted = in.readByte() != 0;
        damage = in.readNullableString();
        in.end();
        // the ways a scan ends: at the end of the file (or inside the last record's padding), before a tail
        // that is not a record, past the end (truncated payload)
        boolean consistent = damage == null ? tailBytes == 0 && nextHeader >= covered && nextHeader - covered < 8
                : tailBytes > 0 ? nextHeader + tailBytes == covered : nextHeader > covered;
        if (!consistent) {
            throw in.inconsistent("records and tail that end exactly at the " + covered + " bytes the snapshot covers",
                    "records up to byte " + nextHeader + " and " + tailBytes + " tail bytes");
        }
        return !(strict && damage != null && !tailIsUncommitted);
    }

    /** lime_contents numbering: a message starts at every MB=1 record and at the first record. */
    private void startMessage(int record) {
        if (messages == messageFirst.length) {
            messageFirst = Arrays.copyOf(messageFirst, Math.max(16, messages * 2));
        }
        messageFirst[messages++] = record;
    }

    /** Makes room for {@code capacity} records at once (no more than the file could hold is asked). */
    private void reserve(long capacity) {
        int cap = (int) Math.min(Integer.MAX_VALUE - 16, capacity);
        if (cap > headerOffsets.length) {
            headerOffsets = Arrays.copyOf(headerOffsets, cap);
            lengths = Arrays.copyOf(lengths, cap);
            flags = Arrays.copyOf(flags, cap);
            typeIds = Arrays.copyOf(typeIds, cap);
        }
    }

    /** Drops growth slack once a scan is done, so retained heap is what the records need. */
    void trim() {
        if (headerOffsets.length - records <= 64 + records / 64) {
            return; // little slack: a copy would cost more than it frees
        }
        headerOffsets = Arrays.copyOf(headerOffsets, Math.max(records, 1));
        lengths = Arrays.copyOf(lengths, Math.max(records, 1));
        flags = Arrays.copyOf(flags, Math.max(records, 1));
        typeIds = Arrays.copyOf(typeIds, Math.max(records, 1));
        messageFirst = Arrays.copyOf(messageFirst, Math.max(messages, 1));
    }
}
