package org.containerfs.g3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.storage.gzip.BufferedSequentialReader;
import org.containerfs.storage.gzip.SequentialReader;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.spi.UnsupportedVersionException;

/**
 * Every frame's and every entry's facts in parallel primitive arrays, built by one sequential
 * scan of the (decompressed) stream. Keys are interned: telescope files repeat the same few keys in
 * every frame, so a frame entry costs an int key id plus its blob offset and length.
 */
final class G3Index {
    static final int HEADER = 13;
    static final int MIN_ENTRY = 16;
    /** Keys longer than this are refused as damage: a key is held in memory to name its file. */
    static final int MAX_KEY_BYTES = 64 * 1024 * 1024;

    private final String file;

    // frames
    private long[] frameOffset = new long[16];
    private long[] frameLength = new long[16];
    private int[] frameType = new int[16];
    private int[] frameCrc = new int[16];
    private byte[] frameBigEndian = new byte[16];
    private int[] frameFirstEntry = new int[17];
    private int frames;
    // CRC verification state, filled on first read: 0 unknown, 1 good, 2 bad
    private byte[] crcState = new byte[16];
    private int[] crcComputed = new int[16];

    // entries
    private int[] entryKey = new int[16];
    private long[] blobOffset = new long[16];
    private long[] blobLength = new long[16];
    private byte[] entryDuplicate = new byte[16];
    private int entries;

    // interned keys
    private final List<byte[]> keys = new ArrayList<>();
    private final Map<ByteKey, Integer> keyIds = new HashMap<>();

    /** Per key id, the frame number + 1 where it was last seen (duplicate keys in a frame). */
    private int[] seenInFrame = new int[16];
    /** The stream length the running scan reads up to, or -1 (gzip): predicts array sizes. */
    private long scanEnd = -1;

    // where the next frame starts, and what follows the last complete frame
    private long nextFrame;
    private long tailLength;
    private String damage;
    private boolean tailTruncated;
    /** The CRC of the frame being scanned, when the scan reads blobs anyway (gzip). */
    private int scanCrc;

    G3Index(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    int frames() {
        return frames;
    }

    long nextFrame() {
        return nextFrame;
    }

    long tailLength() {
        return tailLength;
    }

    String damage() {
        return damage;
    }

    /** Whether the tail is a cut-off frame (a torn append) rather than bytes that are not a frame. */
    boolean tailTruncated() {
        return tailTruncated;
    }

    long frameOffset(int f) {
        return frameOffset[f];
    }

    long frameLength(int f) {
        return frameLength[f];
    }

    int frameType(int f) {
        return frameType[f];
    }

    int crcStored(int f) {
        return frameCrc[f];
    }

    boolean bigEndian(int f) {
        return frameBigEndian[f] != 0;
    }

    int firstEntry(int f) {
        return frameFirstEntry[f];
    }

    int endEntry(int f) {
        return frameFirstEntry[f + 1];
    }

    int entries() {
        return entries;
    }

    byte[] key(int entry) {
        return keys.get(entryKey[entry]);
    }

    int keyId(int entry) {
        return entryKey[entry];
    }

    /** The interned id of a key, or -1 if no frame has it. */
    int keyIdOf(byte[] key) {
        Integer id = keyIds.get(new ByteKey(key));
        return id == null ? -1 : id;
    }

    long blobOffset(int entry) {
        return blobOffset[entry];
    }

    long blobLength(int entry) {
        return blobLength[entry];
    }

    boolean duplicate(int entry) {
        return entryDuplicate[entry] != 0;
    }

    synchronized int crcState(int f) {
        return crcState[f];
    }

    synchronized int crcComputed(int f) {
        return crcComputed[f];
    }

    synchronized void setCrc(int f, int computed) {
        crcComputed[f] = computed;
        crcState[f] = (byte) (computed == frameCrc[f] ? 1 : 2);
    }

    /**
     * Reads frames from {@code in} (positioned at {@link #nextFrame()}) until the stream ends.
     * A complete frame is added; an incomplete or unreadable tail is recorded in {@link #damage()}
     * (strict: thrown). Nothing is allocated from a declared length or count.
     */
    void scan(SequentialReader in, boolean strict) throws IOException {
        scan(in, strict, Long.MAX_VALUE);
    }

    /**
     * As {@link #scan(SequentialReader, boolean)}, refusing frames that declare more than
     * {@code maxFrameBytes}: for a gzip stream, whose size is unknown until it is inflated, this bounds
     * the work a small hostile file (a gzip bomb) can cause per frame.
     */
    void scan(SequentialReader in, boolean strict, long maxFrameBytes) throws IOException {
        scan(in, strict, maxFrameBytes, Integer.MAX_VALUE);
    }

    /** As {@link #scan(SequentialReader, boolean, long)}, stopping after {@code maxFrames} frames (one, to test a candidate). */
    void scan(SequentialReader in, boolean strict, long maxFrameBytes, int maxFrames) throws IOException {
        damage = null;
        tailLength = 0;
        tailTruncated = false;
        byte[] header = new byte[HEADER];
        byte[] eight = new byte[8];
        List<byte[]> pendingKeys = new ArrayList<>();
        long[] pendingBlob = new long[32];
        int[] pendingIds = new int[16];
        byte[] scratch = new byte[256];
        long total = in.remaining() >= 0 ? in.position() + in.remaining() : -1;
        scanEnd = total;
        // where skipping inflates anyway, the scan checks every frame's CRC on its way
        BufferedSequentialReader inflating = in instanceof BufferedSequentialReader b ? b : null;
        boolean checkCrc = inflating != null;
        while (true) {
            long start = in.position();
            int got = in.read(header, 0, HEADER);
            if (got == 0) {
                nextFrame = start;
                return;
            }
            if (got < HEADER) {
                tail(in, start, "a frame header of " + HEADER + " bytes", "the stream ends " + got + " bytes after its start",
                        strict, true);
                return;
            }
            int endianFlag = header[0] & 0xFF;
            if (endianFlag > 1) {
                tail(in, start, "a frame starting with endian flag 0x00 or 0x01", String.format("0x%02X", endianFlag),
                        strict, false);
                return;
            }
            ByteOrder order = endianFlag == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
            ByteBuffer h = ByteBuffer.wrap(header).order(order);
            int version = h.getInt(1);
            if (version != 1) {
                String expected = "G3Frame class version 1 at byte " + (start + 1);
                String found = Integer.toUnsignedString(version);
                if (frames == 0 || strict) {
                    throw new UnsupportedVersionException(file, start + 1, null, "G3Frame class version 1", found);
                }
                tail(in, start, expected, found, false, false);
                return;
            }
            long count = h.getInt(5) & 0xFFFFFFFFL;
            int type = h.getInt(9);
            if (count > Integer.MAX_VALUE) {
                tail(in, start, "an entry count below 2^31", Long.toString(count), strict, false);
                return;
            }
            long remaining = in.remaining();
            if (remaining >= 0 && count * MIN_ENTRY + 4 > remaining) {
                tail(in, start, "a frame of " + count + " entries (at least " + (HEADER + count * MIN_ENTRY + 4) + " bytes)",
                        "the stream ends " + (remaining + HEADER) + " bytes after its start", strict, true);
                return;
            }
            pendingKeys.clear();
            scanCrc = 0;
            int n = (int) count;
            String problem = null;
            String found = null; // null for a problem cut off by the end of the stream
            boolean truncated = false;
            for (int i = 0; i < n && problem == null; i++) {
                long keyLength = readLength(in, eight, order);
                if (keyLength < 0) {
                    problem = "the length of key " + i + " of the frame at byte " + start;
                    truncated = true;
                    break;
                }
                if (keyLength > MAX_KEY_BYTES) {
                    problem = "a key length of at most " + MAX_KEY_BYTES + " bytes at byte " + (in.position() - 8);
                    found = Long.toUnsignedString(keyLength);
                    truncated = in.remaining() >= 0 && Long.compareUnsigned(keyLength, in.remaining()) > 0;
                    break;
                }
                if (pendingIds.length <= i) {
                    pendingIds = Arrays.copyOf(pendingIds, pendingIds.length * 2);
                }
                // Frames repeat the previous frame's keys in the same order: a key equal to the one at
                // the same place there is that key (no array, no hash look-up); else it is read whole.
                int predicted = predictedKey(i);
                byte[] key;
                if (keyLength <= scratch.length && predicted >= 0) {
                    key = in.read(scratch, 0, (int) keyLength) == keyLength ? scratch : null;
                    if (key != null) {
                        byte[] known = keys.get(predicted);
                        if (Arrays.equals(scratch, 0, (int) keyLength, known, 0, known.length)) {
                            key = known;
                            pendingIds[i] = predicted;
                        } else {
                            key = Arrays.copyOf(scratch, (int) keyLength);
                            pendingIds[i] = -1;
                        }
                    }
                } else {
                    key = readKey(in, (int) keyLength);
                    pendingIds[i] = -1;
                }
                if (key == null) {
                    problem = "key " + i + " (" + keyLength + " bytes) of the frame at byte " + start;
                    truncated = true;
                    break;
                }
                if (checkCrc) {
                    scanCrc = G3Crc.update(scanCrc, key, 0, key.length);
                }
                long blobLen = readLength(in, eight, order);
                if (blobLen < 0) {
                    problem = "the blob length of key " + i + " of the frame at byte " + start;
                    truncated = true;
                    break;
                }
                long blobAt = in.position();
                if (blobAt - start + blobLen > maxFrameBytes || blobLen == Long.MAX_VALUE && maxFrameBytes != Long.MAX_VALUE) {
                    problem = "a frame of at most " + maxFrameBytes + " bytes (env maxFrameBytes)";
                    found = "key " + i + " of the frame at byte " + start + " declares a blob of "
                            + Long.toUnsignedString(blobLen) + " bytes";
                    break;
                }
                if ((checkCrc ? crcSkip(inflating, blobLen) : in.skip(blobLen)) != blobLen) {
                    problem = "a blob of " + Long.toUnsignedString(blobLen) + " bytes at byte " + blobAt
                            + " (key " + i + " of the frame at byte " + start + ")";
                    truncated = true;
                    break;
                }
                if (pendingBlob.length < 2 * (i + 1)) {
                    pendingBlob = Arrays.copyOf(pendingBlob, pendingBlob.length * 2);
                }
                pendingKeys.add(key);
                pendingBlob[2 * i] = blobAt;
                pendingBlob[2 * i + 1] = blobLen;
            }
            if (problem == null && in.read(eight, 0, 4) != 4) {
                problem = "the CRC of the frame at byte " + start;
                truncated = true;
            }
            if (problem != null) {
                tail(in, start, problem, found, strict, truncated);
                return;
            }
            int crc = ByteBuffer.wrap(eight, 0, 4).order(order).getInt();
            addFrame(start, in.position() - start, type, crc, order == ByteOrder.BIG_ENDIAN, pendingKeys.size(), pendingKeys,
                    pendingBlob, pendingIds);
            if (checkCrc) {
                setCrc(frames - 1, scanCrc);
            }
            if (frames >= maxFrames) {
                return;
            }
        }
    }

    /** Skips a blob, continuing {@link #scanCrc} over its bytes where the reader holds them; returns the count skipped. */
    private long crcSkip(BufferedSequentialReader in, long length) throws IOException {
        return in.skip(length, (b, off, len) -> scanCrc = G3Crc.update(scanCrc, b, off, len));
    }

    /** A u64 length, or -1 at the end of the stream; lengths of 2^63 and more are reported as huge. */
    private static long readLength(SequentialReader in, byte[] eight, ByteOrder order) throws IOException {
        if (in.read(eight, 0, 8) != 8) {
            return -1;
        }
        long v = ByteBuffer.wrap(eight).order(order).getLong();
        return v < 0 ? Long.MAX_VALUE : v;
    }

    /** Reads a key, growing the array only as bytes actually arrive (a gzip stream's size is unknown). */
    private static byte[] readKey(SequentialReader in, int length) throws IOException {
        byte[] key = new byte[Math.min(length, 4096)];
        int done = 0;
        while (done < length) {
            if (done == key.length) {
                key = Arrays.copyOf(key, (int) Math.min(length, (long) key.length * 2));
            }
            int n = in.read(key, done, key.length - done);
            if (n <= 0) {
                return null;
            }
            done += n;
        }
        return key;
    }

    /** {@code found}: what the bytes hold instead of {@code expected}; null: the stream ends before it. */
    private void tail(SequentialReader in, long start, String expected, String found, boolean strict, boolean truncated)
            throws IOException {
        long rest = in.remaining();
        long end = rest >= 0 ? in.position() + rest : in.position() + drain(in);
        if (found == null) {
            found = "the stream ends at byte " + end;
        }
        nextFrame = start;
        tailLength = end - start;
        tailTruncated = truncated;
        damage = (truncated ? "truncated tail: " : "unreadable tail: ") + tailLength + " bytes from byte " + start
                + " do not form a frame (expected " + expected + ", found " + found + ")";
        if (strict) {
            if (truncated) {
                throw new TruncatedDataException(file, start, null, expected, found);
            }
            throw new ContainerFormatException(file, start, null, expected, found);
        }
    }

    private static long drain(SequentialReader in) throws IOException {
        long total = 0;
        long n;
        while ((n = in.skip(1L << 40)) > 0) {
            total += n;
        }
        return total;
    }

    /**
     * Adds a complete frame read back from a persisted index: {@code entries} entries whose keys are the ids
     * {@link #intern} gave when the index's key list was loaded, and their blobs.
     */
    void addLoadedFrame(long offset, long length, int type, int crc, boolean bigEndian, int entries, long[] blobs,
            int[] keyIds) {
        addFrame(offset, length, type, crc, bigEndian, entries, null, blobs, keyIds);
    }

    /** The id of the key at place {@code i} of the last frame, or -1: the key a frame's i-th entry most likely has. */
    private int predictedKey(int i) {
        if (frames == 0) {
            return -1;
        }
        int e = frameFirstEntry[frames - 1] + i;
        return e < frameFirstEntry[frames] ? entryKey[e] : -1;
    }

    /** An array length for {@code needed} items that grows once to what the stream's size predicts, not by doubling. */
    private int grown(int current, long needed, long streamPosition) {
        long doubled = Math.max(needed, current * 2L);
        if (scanEnd > 0 && streamPosition > 0 && streamPosition < scanEnd) {
            long predicted = (long) ((double) needed / streamPosition * scanEnd) + 64;
            doubled = Math.max(doubled, Math.min(predicted, current * 16L));
        }
        return (int) Math.min(doubled, Integer.MAX_VALUE - 16);
    }

    /**
     * Adds a complete frame of {@code n} entries; duplicates of a key inside the frame are flagged, the first one
     * wins. Entry i's key is {@code knownIds[i]} where that is an interned id (the scan found it, or a load), else
     * {@code frameKeys.get(i)}, interned here ({@code frameKeys} may be null when every id is known).
     */
    private void addFrame(long offset, long length, int type, int crc, boolean bigEndian, int n, List<byte[]> frameKeys,
            long[] blobs, int[] knownIds) {
        if (frames == frameOffset.length) {
            int cap = grown(frames, frames + 1L, offset);
            frameOffset = Arrays.copyOf(frameOffset, cap);
            frameLength = Arrays.copyOf(frameLength, cap);
            frameType = Arrays.copyOf(frameType, cap);
            frameCrc = Arrays.copyOf(frameCrc, cap);
            frameBigEndian = Arrays.copyOf(frameBigEndian, cap);
            frameFirstEntry = Arrays.copyOf(frameFirstEntry, cap + 1);
            synchronized (this) {
                crcState = Arrays.copyOf(crcState, cap);
                crcComputed = Arrays.copyOf(crcComputed, cap);
            }
        }
        if (entries + n > entryKey.length) {
            int cap = grown(entryKey.length, (long) entries + n, offset);
            entryKey = Arrays.copyOf(entryKey, cap);
            blobOffset = Arrays.copyOf(blobOffset, cap);
            blobLength = Arrays.copyOf(blobLength, cap);
            entryDuplicate = Arrays.copyOf(entryDuplicate, cap);
        }
        for (int i = 0; i < n; i++) {
            int id = knownIds != null && knownIds[i] >= 0 ? knownIds[i] : intern(frameKeys.get(i));
            int e = entries + i;
            entryKey[e] = id;
            blobOffset[e] = blobs[2 * i];
            blobLength[e] = blobs[2 * i + 1];
            // a key met before in this frame: marks hold the frame number + 1 where each key id was last seen
            if (seenInFrame.length <= id) {
                seenInFrame = Arrays.copyOf(seenInFrame, Math.max(id + 1, seenInFrame.length * 2));
            }
            entryDuplicate[e] = (byte) (seenInFrame[id] == frames + 1 ? 1 : 0);
            seenInFrame[id] = frames + 1;
        }
        frameOffset[frames] = offset;
        frameLength[frames] = length;
        frameType[frames] = type;
        frameCrc[frames] = crc;
        frameBigEndian[frames] = (byte) (bigEndian ? 1 : 0);
        frameFirstEntry[frames] = entries;
        entries += n;
        frameFirstEntry[frames + 1] = entries;
        frames++;
        nextFrame = offset + length;
    }

    /** The writer's frame is on disk: index it without reading it back, and forget the old tail. */
    void committed(long offset, long length, int type, int crc, List<byte[]> frameKeys, long[] blobs) {
        addFrame(offset, length, type, crc, false, frameKeys.size(), frameKeys, blobs, null);
        synchronized (this) {
            crcComputed[frames - 1] = crc;
            crcState[frames - 1] = 1;
        }
        damage = null;
        tailLength = 0;
    }

    int intern(byte[] key) {
        ByteKey k = new ByteKey(key);
        Integer id = keyIds.get(k);
        if (id == null) {
            id = keys.size();
            keys.add(key);
            keyIds.put(k, id);
        }
        return id;
    }

    int keyCount() {
        return keys.size();
    }

    byte[] keyById(int id) {
        return keys.get(id);
    }

    /**
     * The truncated tail is not one torn frame but damage ({@code why}: the evidence, e.g. a committed frame
     * inside it): a writer must not cut it off, and the root reports it as damage.
     */
    void tailIsDamage(String why) {
        tailTruncated = false;
        damage = "unreadable tail: " + tailLength + " bytes from byte " + nextFrame + " are not one torn frame ("
                + why + ")";
    }

    /** Sets what follows the last frame, from a persisted index. */
    void restoreTail(long length, boolean truncated, String what) {
        tailLength = length;
        tailTruncated = truncated;
        damage = what;
    }

    /**
     * What contradicts a scan's invariants, or null; checked before a persisted index is trusted, whose
     * offsets decide which bytes a read returns. Frames follow each other from byte 0, each at least a
     * header and a CRC long, their blobs inside them in order, and the last frame plus the tail end the
     * stream of {@code streamEnd} bytes.
     */
    String structureProblem(long streamEnd) {
        long pos = 0;
        for (int f = 0; f < frames; f++) {
            long end = frameOffset[f] + frameLength[f];
            if (frameOffset[f] != pos || frameLength[f] < HEADER + 4 || end < 0 || end > streamEnd) {
                return "frame " + f + " at byte " + frameOffset[f] + " of " + frameLength[f] + " bytes (expected byte " + pos + ")";
            }
            long blobPos = frameOffset[f] + HEADER;
            for (int e = frameFirstEntry[f]; e < frameFirstEntry[f + 1]; e++) {
                long blobEnd = blobOffset[e] + blobLength[e];
                if (blobOffset[e] < blobPos + MIN_ENTRY || blobLength[e] < 0 || blobEnd < 0 || blobEnd > end - 4) {
                    return "entry " + e + " of frame " + f + ": a blob at byte " + blobOffset[e] + " of " + blobLength[e] + " bytes";
                }
                blobPos = blobEnd;
            }
            pos = end;
        }
        if (tailLength < 0 || pos + tailLength != streamEnd || (tailLength == 0) != (damage == null)) {
            return "a tail of " + tailLength + " bytes after byte " + pos + " in a stream of " + streamEnd + " bytes";
        }
        return null;
    }

    /** Forgets everything (a persisted index that failed to load half-way). */
    void clear() {
        seenInFrame = new int[16];
        frames = 0;
        entries = 0;
        frameFirstEntry[0] = 0;
        keys.clear();
        keyIds.clear();
        nextFrame = 0;
        tailLength = 0;
        damage = null;
        tailTruncated = false;
    }

    /** Drops growth slack once a scan is done, so the retained heap is what the frames need. */
    void trim() {
        if (frameOffset.length - frames <= 64 + frames / 64 && entryKey.length - entries <= 64 + entries / 64) {
            return; // grown to the predicted size: a copy would cost more than the little slack it frees
        }
        int f = Math.max(frames, 1);
        frameOffset = Arrays.copyOf(frameOffset, f);
        frameLength = Arrays.copyOf(frameLength, f);
        frameType = Arrays.copyOf(frameType, f);
        frameCrc = Arrays.copyOf(frameCrc, f);
        frameBigEndian = Arrays.copyOf(frameBigEndian, f);
        frameFirstEntry = Arrays.copyOf(frameFirstEntry, f + 1);
        synchronized (this) {
            crcState = Arrays.copyOf(crcState, f);
            crcComputed = Arrays.copyOf(crcComputed, f);
        }
        int e = Math.max(entries, 1);
        entryKey = Arrays.copyOf(entryKey, e);
        blobOffset = Arrays.copyOf(blobOffset, e);
        blobLength = Arrays.copyOf(blobLength, e);
        entryDuplicate = Arrays.copyOf(entryDuplicate, e);
    }

    private static final class ByteKey {
        final byte[] bytes;
        final int hash;

        ByteKey(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ByteKey k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
