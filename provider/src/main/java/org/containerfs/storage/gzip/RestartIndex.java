package org.containerfs.storage.gzip;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;

/**
 * Random access into the decompressed bytes of a gzip file (one or several members), zran style: a table of
 * restart points, each the bit offset of a deflate block boundary plus the 32 KiB of output before it, one every
 * {@code span} bytes of output and one at each member's start. A read starts a raw {@link Inflater} at the last
 * point before its offset, primed with that window by {@link Inflater#setDictionary}. A point's block rarely
 * starts on a byte boundary and Java has no inflatePrime, so the inflater is first fed an empty deflate block
 * whose length in bits ends exactly where the point's block starts ({@link EmptyBlockPrefix}): the original
 * bytes then follow unshifted, so stored blocks, whose lengths sit on the original byte boundaries, still line
 * up. A read inflates at most one span plus the bytes asked for, never the file from its start. A few cursors
 * are kept, so sequential reads continue where the last one stopped.
 *
 * <p>Memory: the windows are the index's only large part, at most {@code windowBudget} bytes in all. Where a
 * stream would need more (a gzip bomb: a tiny file of terabytes of output), the spacing of the points is doubled
 * and every other point dropped, as often as needed, so the index stays bounded whatever the output's size.
 *
 * <p>The table is filled by a scan ({@link #collector()}) or from a persisted copy ({@link #readFrom}); the
 * bytes are read through {@code channel}, the compressed file. Shared by the storage layer's
 * {@link GzipInput} and the G3 format's one-pass {@code .g3.gz} open.
 */
public final class RestartIndex {
    /** Default output between restart points. */
    public static final long DEFAULT_SPAN = 4L << 20;
    /** Default bound of all windows together: 2048 full windows. */
    public static final long DEFAULT_WINDOW_BUDGET = 64L << 20;
    private static final int CURSORS = 4;

    private final ContainerChannel channel;
    private final String file;
    private final long span;
    private final long windowBudget;
    /** The spacing points are kept at: {@code span}, doubled each time the windows would exceed their budget. */
    private long keptSpan;
    private long windowBytes;
    // restart points, in output order
    private long[] pointOut = new long[16];
    private long[] pointBit = new long[16];
    private int[] pointMember = new int[16];
    private byte[][] pointWindow = new byte[16][];
    private int points;
    // gzip members: index of each member's first point
    private int[] memberPoint = new int[4];
    private long[] memberOffset = new long[4];
    private int members;
    private long streamSize;
    private String gzipDamage;
    private final ArrayDeque<Cursor> cursors = new ArrayDeque<>();
    /** Bytes inflated by reads since opening (tests and figures: proves reads start near their offset). */
    private final java.util.concurrent.atomic.AtomicLong inflated = new java.util.concurrent.atomic.AtomicLong();

    public RestartIndex(ContainerChannel channel, String file, long span, long windowBudget) {
        if (span < JavaInflater.WINDOW) {
            throw new IllegalArgumentException("restart span must be at least " + JavaInflater.WINDOW + " bytes, got " + span);
        }
        if (windowBudget < 2L * JavaInflater.WINDOW) {
            throw new IllegalArgumentException("window budget must be at least " + 2 * JavaInflater.WINDOW
                    + " bytes, got " + windowBudget);
        }
        this.channel = channel;
        this.file = file;
        this.span = span;
        this.windowBudget = windowBudget;
        this.keptSpan = span;
    }

    /** What a scan hands its members and points to. */
    public JavaInflater.Points collector() {
        return new JavaInflater.Points() {
            @Override
            public void point(int member, long bitOffset, long outOffset, byte[] window) {
                offerPoint(member, bitOffset, outOffset, window);
            }

            @Override
            public void member(int member, long compressedOffset, long outOffset) {
                addMember(compressedOffset);
            }
        };
    }

    /** Sets the decompressed length and the damage a scan met (null: none). */
    public void scanned(long streamSize, String gzipDamage) {
        this.streamSize = streamSize;
        this.gzipDamage = gzipDamage;
        trim();
    }

    /** The spacing the points are kept at now (more than the span asked for only where the window budget ran out). */
    public long keptSpan() {
        return keptSpan;
    }

    /**
     * The most output between a point and the next one (or the end of the stream): what a read may have to
     * inflate before its first byte.
     */
    public long maxGap() {
        long max = 0;
        for (int p = 0; p < points; p++) {
            max = Math.max(max, (p + 1 < points ? pointOut[p + 1] : streamSize) - pointOut[p]);
        }
        return max;
    }

    /** Bytes of all windows together. */
    public long windowBytes() {
        return windowBytes;
    }

    /**
     * A point from a scan: a member's first point is always taken; another only {@link #keptSpan} after the last
     * one taken; when its window would overrun the budget, the spacing doubles and the points between are dropped.
     */
    void offerPoint(int member, long bitOffset, long outOffset, byte[] window) {
        boolean first = members > 0 && memberPoint[members - 1] == points && member == members - 1;
        if (!first && points > 0 && outOffset - pointOut[points - 1] < keptSpan) {
            return;
        }
        while (!first && windowBytes + window.length > windowBudget) {
            keptSpan *= 2;
            thin();
            if (points > 0 && outOffset - pointOut[points - 1] < keptSpan) {
                return;
            }
        }
        addPoint(member, bitOffset, outOffset, window);
    }

    /** Keeps every member's first point and, within a member, points at least {@link #keptSpan} apart. */
    private void thin() {
        int kept = 0;
        int m = 0;
        windowBytes = 0;
        for (int p = 0; p < points; p++) {
            boolean first = false;
            while (m < members && memberPoint[m] == p) {
                memberPoint[m++] = kept;
                first = true;
            }
            if (first || pointOut[p] - pointOut[kept - 1] >= keptSpan) {
                pointOut[kept] = pointOut[p];
                pointBit[kept] = pointBit[p];
                pointMember[kept] = pointMember[p];
                pointWindow[kept] = pointWindow[p];
                windowBytes += pointWindow[p].length;
                kept++;
            }
        }
        while (m < members) {
            memberPoint[m++] = kept; // members whose points are still to come
        }
        for (int p = kept; p < points; p++) {
            pointWindow[p] = null;
        }
        points = kept;
    }

    /** Writes the members and points (with their windows) to {@code out}. */
    public void writeTo(DataOutput out) throws IOException {
        out.writeLong(streamSize);
        out.writeBoolean(gzipDamage != null);
        if (gzipDamage != null) {
            out.writeUTF(gzipDamage.length() > 20000 ? gzipDamage.substring(0, 20000) : gzipDamage);
        }
        out.writeInt(members);
        for (int m = 0; m < members; m++) {
            out.writeLong(memberOffset[m]);
            out.writeInt(memberPoint[m]);
        }
        out.writeInt(points);
        for (int p = 0; p < points; p++) {
            out.writeLong(pointOut[p]);
            out.writeLong(pointBit[p]);
            out.writeInt(pointMember[p]);
            out.writeInt(pointWindow[p].length);
            out.write(pointWindow[p]);
        }
    }

    /**
     * Reads what {@link #writeTo} wrote into this empty index, checked against the compressed file's size
     * {@code fileSize} before it is trusted; {@code limit} bounds every count (the copy's length).
     */
    public void readFrom(DataInput in, long limit, long fileSize) throws IOException {
        long size = in.readLong();
        String damage = in.readBoolean() ? in.readUTF() : null;
        int memberCount = count(in, limit);
        for (int m = 0; m < memberCount; m++) {
            long offset = in.readLong();
            addMember(offset, in.readInt());
        }
        int pointCount = count(in, limit);
        for (int p = 0; p < pointCount; p++) {
            long out = in.readLong();
            long bit = in.readLong();
            int member = in.readInt();
            byte[] window = new byte[count(in, Math.min(limit, JavaInflater.WINDOW))];
            in.readFully(window);
            addPoint(member, bit, out, window);
            if (windowBytes > Math.max(windowBudget, limit)) {
                throw new IOException("restart windows of more than " + windowBudget + " bytes");
            }
        }
        restore(size, damage, fileSize);
    }

    private static int count(DataInput in, long limit) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > limit) {
            throw new IOException("bad count " + n);
        }
        return n;
    }

    /** A member met by the scan: its first restart point is the next one added. */
    public void addMember(long compressedOffset) {
        addMember(compressedOffset, points);
    }

    /** A member of a persisted index, which lists its points after all members. */
    public void addMember(long compressedOffset, int firstPoint) {
        if (members == memberPoint.length) {
            memberPoint = Arrays.copyOf(memberPoint, members * 2);
            memberOffset = Arrays.copyOf(memberOffset, members * 2);
        }
        memberPoint[members] = firstPoint;
        memberOffset[members] = compressedOffset;
        members++;
    }

    public void addPoint(int member, long bitOffset, long outOffset, byte[] window) {
        if (points == pointOut.length) {
            pointOut = Arrays.copyOf(pointOut, Math.max(16, points * 2));
            pointBit = Arrays.copyOf(pointBit, Math.max(16, points * 2));
            pointMember = Arrays.copyOf(pointMember, Math.max(16, points * 2));
            pointWindow = Arrays.copyOf(pointWindow, Math.max(16, points * 2));
        }
        pointOut[points] = outOffset;
        pointBit[points] = bitOffset;
        pointMember[points] = member;
        pointWindow[points] = window;
        windowBytes += window.length;
        points++;
    }

    public void trim() {
        pointOut = Arrays.copyOf(pointOut, points);
        pointBit = Arrays.copyOf(pointBit, points);
        pointMember = Arrays.copyOf(pointMember, points);
        pointWindow = Arrays.copyOf(pointWindow, points);
    }

    public int points() {
        return points;
    }

    public long pointOut(int p) {
        return pointOut[p];
    }

    public long pointBit(int p) {
        return pointBit[p];
    }

    public int pointMember(int p) {
        return pointMember[p];
    }

    public byte[] pointWindow(int p) {
        return pointWindow[p];
    }

    public int members() {
        return members;
    }

    public long memberOffset(int m) {
        return memberOffset[m];
    }

    public int memberPoint(int m) {
        return memberPoint[m];
    }

    public long streamSize() {
        return streamSize;
    }

    public String gzipDamage() {
        return gzipDamage;
    }

    public long span() {
        return span;
    }

    /**
     * Ends loading a persisted index. Its checksum catches damage, not a crafted file, so the structure
     * is checked before it is trusted: a member whose first point lay in an earlier member would make a
     * read inflate that member again and again, a point of a member that does not exist would fail reads.
     */
    public void restore(long streamSize, String gzipDamage, long fileSize) throws IOException {
        this.streamSize = streamSize;
        this.gzipDamage = gzipDamage;
        trim();
        String problem = structureProblem(fileSize);
        if (problem != null) {
            throw new IOException("inconsistent restart index: " + problem);
        }
    }

    /** What contradicts the scan's invariants in the members and points, or null. */
    private String structureProblem(long fileSize) {
        if (streamSize < 0 || (members == 0) != (points == 0)) {
            return "stream size " + streamSize + ", " + members + " members, " + points + " points";
        }
        for (int m = 0; m < members; m++) {
            int first = memberPoint[m];
            int end = m + 1 < members ? memberPoint[m + 1] : points;
            // points belong to members in runs: member m's run ends where member m+1's begins
            if (m == 0 && first != 0 || first >= end) {
                return "member " + m + " starts at point " + first;
            }
            if (memberOffset[m] < 0 || memberOffset[m] >= fileSize || m > 0 && memberOffset[m] <= memberOffset[m - 1]) {
                return "member " + m + " at compressed byte " + memberOffset[m];
            }
            for (int p = first; p < end; p++) {
                boolean inOrder = p == 0 || pointOut[p] >= pointOut[p - 1] && pointBit[p] > pointBit[p - 1];
                if (pointMember[p] != m || !inOrder || pointOut[p] > streamSize || pointBit[p] < memberOffset[m] * 8
                        || pointBit[p] >= fileSize * 8 || pointWindow[p].length > JavaInflater.WINDOW) {
                    return "point " + p + " (member " + pointMember[p] + ", bit " + pointBit[p] + ", output byte "
                            + pointOut[p] + ") in member " + m;
                }
            }
        }
        return null;
    }

    /** Forgets everything (a persisted index that failed to load half-way). */
    public void clear() {
        points = 0;
        members = 0;
        streamSize = 0;
        gzipDamage = null;
        windowBytes = 0;
        keptSpan = span;
        pointOut = new long[16];
        pointBit = new long[16];
        pointMember = new int[16];
        pointWindow = new byte[16][];
    }

    public long inflatedBytes() {
        return inflated.get();
    }


    /** The last restart point at or before {@code position}. */
    private int pointFor(long position) {
        int i = Arrays.binarySearch(pointOut, 0, points, position);
        if (i < 0) {
            i = -i - 2;
        } else {
            // several points can share an offset (an empty member): take the last
            while (i + 1 < points && pointOut[i + 1] == position) {
                i++;
            }
        }
        return Math.max(i, 0);
    }

    /** Reads decompressed bytes from {@code position} until {@code dst} is full or the stream ends; the count (0 at the end). */
    public int read(ByteBuffer dst, long position) throws IOException {
        if (position >= streamSize || !dst.hasRemaining() || points == 0) {
            return 0;
        }
        Cursor c = take(position);
        try {
            c.skipTo(position);
            return c.readInto(dst);
        } finally {
            give(c);
        }
    }

    private Cursor take(long position) {
        int p = pointFor(position);
        synchronized (cursors) {
            for (Iterator<Cursor> it = cursors.iterator(); it.hasNext();) {
                Cursor c = it.next();
                if (c.out <= position && c.out >= pointOut[p]) {
                    it.remove();
                    return c;
                }
            }
        }
        return new Cursor(p);
    }

    private void give(Cursor c) {
        synchronized (cursors) {
            cursors.addFirst(c);
            while (cursors.size() > CURSORS) {
                cursors.removeLast().close();
            }
        }
    }

    /** Frees the inflaters of the kept cursors. */
    public void close() {
        synchronized (cursors) {
            while (!cursors.isEmpty()) {
                cursors.removeLast().close();
            }
        }
    }

    /** One raw inflater positioned somewhere in the decompressed stream. */
    private final class Cursor {
        private final Inflater inflater = new Inflater(true);
        private final ByteBuffer raw = ByteBuffer.allocate(64 * 1024);
        private final byte[] input = new byte[raw.capacity() + EmptyBlockPrefix.MAX_BYTES];
        private final byte[] scratch = new byte[64 * 1024];
        private int member;
        private long nextByte; // next compressed byte to feed
        private int shift; // bits of the byte at nextByte that belong to the block before the point; 0 once fed
        private long out;
        private boolean ended;

        Cursor(int point) {
            start(point);
        }

        private void start(int p) {
            inflater.reset();
            member = pointMember[p];
            nextByte = pointBit[p] >>> 3;
            shift = (int) (pointBit[p] & 7);
            out = pointOut[p];
            ended = false;
            if (pointWindow[p].length > 0) {
                inflater.setDictionary(pointWindow[p]);
            }
        }

        void skipTo(long position) throws IOException {
            while (out < position) {
                int n = inflateInto(scratch, 0, (int) Math.min(scratch.length, position - out));
                if (n == 0) {
                    return;
                }
            }
        }

        int readInto(ByteBuffer dst) throws IOException {
            int total = 0;
            while (dst.hasRemaining()) {
                int n;
                if (dst.hasArray()) {
                    n = inflateInto(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
                    dst.position(dst.position() + n);
                } else {
                    n = inflateInto(scratch, 0, Math.min(scratch.length, dst.remaining()));
                    dst.put(scratch, 0, n);
                }
                if (n == 0) {
                    break;
                }
                total += n;
            }
            return total;
        }

        /** Inflates up to {@code len} bytes; 0 only at the end of the stream. */
        private int inflateInto(byte[] b, int off, int len) throws IOException {
            while (true) {
                if (ended) {
                    return 0;
                }
                if (inflater.finished()) {
                    if (member + 1 >= members) {
                        ended = true;
                        return 0;
                    }
                    start(memberPoint[member + 1]);
                    continue;
                }
                if (inflater.needsInput() && !feed()) {
                    throw new TruncatedDataException(file, nextByte, "gzip member " + member,
                            "more compressed data", "the file ends inside the member");
                }
                try {
                    int n = inflater.inflate(b, off, len);
                    if (n > 0) {
                        out += n;
                        inflated.addAndGet(n);
                        return n;
                    }
                    if (inflater.needsDictionary()) {
                        throw new ContainerFormatException(file, nextByte, "gzip member " + member,
                                "raw deflate data without a preset dictionary", "a request for a dictionary");
                    }
                } catch (DataFormatException e) {
                    throw new ContainerFormatException(file, nextByte, "gzip member " + member,
                            "valid deflate data after the restart point", "invalid data (" + e.getMessage() + ")");
                }
            }
        }

        /**
         * Feeds the next compressed chunk. The first chunk after a point that is not on a byte
         * boundary starts with the empty-block prefix, whose last bits replace the {@code shift} bits
         * of the first byte that belong to the block before the point.
         */
        private boolean feed() throws IOException {
            raw.clear();
            int n = channel.readUpTo(raw, nextByte);
            if (n == 0) {
                return false;
            }
            byte[] r = raw.array();
            if (shift != 0) {
                inflater.setInput(input, 0, EmptyBlockPrefix.primed(shift, r, n, input));
                shift = 0;
            } else {
                inflater.setInput(r, 0, n); // the inflater is done with it before the next feed
            }
            nextByte += n;
            return true;
        }

        void close() {
            inflater.end();
        }
    }
}
