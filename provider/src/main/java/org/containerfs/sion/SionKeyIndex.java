package org.containerfs.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.ConcatenatedContent;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.Content;

/**
 * The records of one key-value (INLINE) task stream: {@code key(uint64) len(uint64) bytes[len]}, in
 * the writer's order. The record headers are the index; they are read (16 bytes each, skipping the
 * values) the first time a task's directory is used. SIONlib swaps key and len with the metadata
 * byte order ({@code _lsion_scan_forward_to_key}), so they are decoded in that order.
 */
final class SionKeyIndex {
    static final int HEADER = 16;
    /**
     * Bounds on what one task's index may hold: a stream of tiny records (or of zeros: key 0, length
     * 0, again and again) must not exhaust the heap. Empty records only register their key.
     */
    static final int MAX_RECORDS = 1 << 22;
    static final int MAX_KEYS = 1 << 20;

    private final Content stream;
    /** Distinct keys in order of first appearance. */
    private final long[] keys;
    /** For each distinct key, the indices of its records. */
    private final int[][] recordsOfKey;
    private final long[] recordData;
    private final long[] recordLength;
    private final Map<Long, Integer> keyPosition;

    private SionKeyIndex(Content stream, long[] keys, int[][] recordsOfKey, long[] recordData, long[] recordLength) {
        this.stream = stream;
        this.keys = keys;
        this.recordsOfKey = recordsOfKey;
        this.recordData = recordData;
        this.recordLength = recordLength;
        this.keyPosition = new HashMap<>(keys.length * 2);
        for (int i = 0; i < keys.length; i++) {
            keyPosition.put(keys[i], i);
        }
    }

    static SionKeyIndex scan(Content stream, ByteOrder order, String file, String label) throws IOException {
        long size = stream.size();
        long[] recKey = new long[16];
        long[] recData = new long[16];
        long[] recLen = new long[16];
        int count = 0;
        Map<Long, Integer> keyPosition = new LinkedHashMap<>();
        // Headers are read through a window, so a stream of small records costs few reads.
        ByteBuffer window = ByteBuffer.allocate((int) Math.min(1 << 16, Math.max(HEADER, size))).order(order);
        long windowStart = 0;
        int windowLength = 0;
        long pos = 0;
        while (pos < size) {
            if (size - pos < HEADER) {
                throw new ContainerFormatException(file, pos, label, "a 16-byte key-value record header at stream "
                        + "position " + pos, "only " + (size - pos) + " bytes left in the stream");
            }
            if (pos < windowStart || pos + HEADER > windowStart + windowLength) {
                window.clear().limit((int) Math.min(window.capacity(), size - pos));
                while (window.hasRemaining()) {
                    int n = stream.read(window, pos + window.position());
                    if (n < 0) {
                        throw new ContainerFormatException(file, pos, label, "a 16-byte key-value record header at stream "
                                + "position " + pos, "the stream ends at position " + (pos + window.position()));
                    }
                }
                windowStart = pos;
                windowLength = window.position();
            }
            int at = (int) (pos - windowStart);
            long key = window.getLong(at);
            long len = window.getLong(at + 8);
            long left = size - pos - HEADER;
            if (len < 0 || len > left) {
                throw new ContainerFormatException(file, pos, label, "a key-value record of at most " + left
                        + " bytes at stream position " + pos + " (key " + Long.toUnsignedString(key) + ")",
                        "length " + Long.toUnsignedString(len));
            }
            if (!keyPosition.containsKey(key)) {
                if (keyPosition.size() == MAX_KEYS) {
                    throw new ContainerFormatException(file, pos, label, "at most " + MAX_KEYS + " distinct keys "
                            + "per task (the raw stream stays readable as " + label + "/stream)",
                            "key " + Long.toUnsignedString(key) + ", one more");
                }
                keyPosition.put(key, keyPosition.size());
            }
            if (len > 0) {
                if (count == MAX_RECORDS) {
                    throw new ContainerFormatException(file, pos, label, "at most " + MAX_RECORDS
                            + " non-empty key-value records per task (the raw stream stays readable as "
                            + label + "/stream)", "one more at stream position " + pos);
                }
                if (count == recKey.length) {
                    int grown = count * 2;
                    recKey = Arrays.copyOf(recKey, grown);
                    recData = Arrays.copyOf(recData, grown);
                    recLen = Arrays.copyOf(recLen, grown);
                }
                recKey[count] = key;
                recData[count] = pos + HEADER;
                recLen[count] = len;
                count++;
            }
            pos += HEADER + len;
        }
        // Group the records by key without boxing: count, then fill.
        int keyCount = keyPosition.size();
        long[] keys = new long[keyCount];
        for (Map.Entry<Long, Integer> e : keyPosition.entrySet()) {
            keys[e.getValue()] = e.getKey();
        }
        int[] keyOfRecord = new int[count];
        int[] perKey = new int[keyCount];
        for (int i = 0; i < count; i++) {
            keyOfRecord[i] = keyPosition.get(recKey[i]);
            perKey[keyOfRecord[i]]++;
        }
        int[][] records = new int[keyCount][];
        for (int k = 0; k < keyCount; k++) {
            records[k] = new int[perKey[k]];
            perKey[k] = 0;
        }
        for (int i = 0; i < count; i++) {
            int k = keyOfRecord[i];
            records[k][perKey[k]++] = i;
        }
        return new SionKeyIndex(stream, keys, records, Arrays.copyOf(recData, count), Arrays.copyOf(recLen, count));
    }

    int keyCount() {
        return keys.length;
    }

    long key(int i) {
        return keys[i];
    }

    /** Position of {@code key} among the distinct keys, or -1. */
    int find(long key) {
        Integer p = keyPosition.get(key);
        return p == null ? -1 : p;
    }

    static String fileName(long key) {
        return "key-" + Long.toUnsignedString(key);
    }

    long size(int i) {
        long sum = 0;
        for (int r : recordsOfKey[i]) {
            sum += recordLength[r];
        }
        return sum;
    }

    long[] recordOffsets(int i) {
        return Arrays.stream(recordsOfKey[i]).mapToLong(r -> recordData[r]).toArray();
    }

    long[] recordSizes(int i) {
        return Arrays.stream(recordsOfKey[i]).mapToLong(r -> recordLength[r]).toArray();
    }

    /** The values of key {@code i} concatenated, as views of the task stream (no copy). */
    Content content(int i) {
        List<Content> parts = new ArrayList<>();
        for (int r : recordsOfKey[i]) {
            if (recordLength[r] > 0) {
                parts.add(new Slice(stream, recordData[r], recordLength[r]));
            }
        }
        return parts.size() == 1 ? parts.get(0) : new ConcatenatedContent(parts);
    }

    /** A window of a task stream. */
    private static final class Slice implements Content {
        private final Content stream;
        private final long start;
        private final long length;

        Slice(Content stream, long start, long length) {
            this.stream = stream;
            this.start = start;
            this.length = length;
        }

        @Override
        public long size() {
            return length;
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            if (position >= length) {
                return -1;
            }
            int oldLimit = dst.limit();
            dst.limit(dst.position() + (int) Math.min(dst.remaining(), length - position));
            try {
                return stream.read(dst, start + position);
            } finally {
                dst.limit(oldLimit);
            }
        }
    }
}
