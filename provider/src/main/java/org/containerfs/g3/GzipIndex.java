package org.containerfs.g3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.Content;
import org.containerfs.spi.TruncatedDataException;

/**
 * Random access into a .g3.gz (one or several gzip members), zran style. Opening decompresses the
 * file once ({@link JavaInflater}), building the frame index and, every {@code gzipSpan} bytes of
 * output (env, default 4 MiB), a restart point: the bit offset of a deflate block boundary plus the
 * 32 KiB of output before it. A read starts a raw {@link Inflater} at the nearest point before its
 * offset, primed with that window by {@link Inflater#setDictionary}. A point's block rarely starts
 * on a byte boundary and Java has no inflatePrime, so the inflater is first fed an empty deflate
 * block whose length in bits ends exactly where the point's block starts ({@link EmptyBlockPrefix}):
 * the original bytes then follow unshifted, so stored blocks, whose lengths sit on the original
 * byte boundaries, still line up. So a read
 * inflates at most one span plus the bytes asked for, never the file from its start. A few cursors
 * are kept, so sequential reads continue where the last one stopped.
 */
final class GzipIndex implements G3Data {
    static final long DEFAULT_SPAN = 4L << 20;
    /** Largest frame a gzip scan accepts unless env maxFrameBytes says otherwise: what our writer can write. */
    static final long DEFAULT_MAX_FRAME = Integer.MAX_VALUE;
    private static final int CURSORS = 4;

    private final ContainerChannel channel;
    private final String file;
    private final long span;
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
    private String persisted = "";
    /** Whether the scan ran on native zlib; else why it could not (damage: the Java inflater then names it). */
    private boolean nativeScan;
    private String fallback = "";
    private final ArrayDeque<Cursor> cursors = new ArrayDeque<>();
    /** Bytes inflated by random reads since opening (tests and figures: proves reads start near their offset). */
    private final java.util.concurrent.atomic.AtomicLong inflated = new java.util.concurrent.atomic.AtomicLong();

    private GzipIndex(ContainerChannel channel, String file, long span) {
        this.channel = channel;
        this.file = file;
        this.span = span;
    }

    static GzipIndex open(ContainerSource source, G3Index index) throws IOException {
        long span = source.options().getLong("gzipSpan", DEFAULT_SPAN);
        if (span < JavaInflater.WINDOW) {
            throw new IllegalArgumentException("env gzipSpan must be at least " + JavaInflater.WINDOW + " bytes, got " + span);
        }
        GzipIndex gz = new GzipIndex(source.channel(), source.name(), span);
        IndexStore store = IndexStore.of(source);
        if (store != null && store.load(gz, index)) {
            gz.persisted = "loaded " + store.location();
            return gz;
        }
        gz.scan(source, index);
        if (store != null) {
            gz.persisted = store.save(gz, index) ? "saved " + store.location() : "not saved (" + store.location() + ")";
        }
        return gz;
    }

    /**
     * An empty index for a snapshot of the index cache made with restart span {@code span}, or null
     * if this open asks for another span (its points would be spaced otherwise).
     */
    static GzipIndex open(ContainerSource source, G3Index index, long span) {
        long wanted = source.options().getLong("gzipSpan", DEFAULT_SPAN);
        return span == wanted ? new GzipIndex(source.channel(), source.name(), span) : null;
    }

    void loadedFrom(String where) {
        persisted = "loaded from " + where;
    }

    /**
     * After an open served by the index cache: env gzipIndex/gzipIndexDir still asks for the {@code .zidx}
     * (a later open without the cache, another machine, reads it), so write it unless one already holds this index.
     */
    void persistAsAsked(ContainerSource source, G3Index index) throws IOException {
        IndexStore store = IndexStore.of(source);
        if (store != null && !store.holds(span)) {
            persisted += store.save(this, index) ? "; saved " + store.location() : "; not saved (" + store.location() + ")";
        }
    }

    private void scan(ContainerSource source, G3Index index) throws IOException {
        JavaInflater.Points collect = new JavaInflater.Points() {
            @Override
            public void point(int member, long bitOffset, long outOffset, byte[] window) {
                addPoint(member, bitOffset, outOffset, window);
            }

            @Override
            public void member(int member, long compressedOffset, long outOffset) {
                addMember(compressedOffset);
            }
        };
        long maxFrame = source.options().getLong("maxFrameBytes", DEFAULT_MAX_FRAME);
        if (source.options().getBoolean("gzipNative", true) && channel.size() > 0) {
            // native zlib for a sound stream; on anything else, start over with the Java inflater,
            // which names the damage exactly
            NativeGzipScan fast = new NativeGzipScan(channel, span, collect);
            try {
                index.scan(fast, source.strict(), maxFrame);
                streamSize = fast.position();
                nativeScan = true;
                trim();
                return;
            } catch (NativeGzipScan.Unsupported e) {
                fast.close(); // its thread adds no more points
                fallback = e.getMessage();
                index.clear();
                clear();
            } finally {
                fast.close();
            }
        }
        JavaInflater inflater = new JavaInflater(channel, file, span, collect);
        index.scan(inflater, source.strict(), maxFrame);
        // the frame scan stops at the end of the decompressed stream, having read all of it
        streamSize = inflater.position();
        gzipDamage = inflater.damage();
        if (inflater.members() == 0 && channel.size() > 0) {
            throw new ContainerFormatException(file, 0, null, "a gzip member (magic 1f 8b, deflate)",
                    "a file of " + channel.size() + " bytes that does not start with one");
        }
        if (gzipDamage != null && source.strict()) {
            throw new ContainerFormatException(file, inflater.compressedEnd(), null, "a well-formed gzip stream", gzipDamage);
        }
        trim();
    }

    /** A member met by the scan: its first restart point is the next one added. */
    void addMember(long compressedOffset) {
        addMember(compressedOffset, points);
    }

    /** A member of a persisted index, which lists its points after all members. */
    void addMember(long compressedOffset, int firstPoint) {
        if (members == memberPoint.length) {
            memberPoint = Arrays.copyOf(memberPoint, members * 2);
            memberOffset = Arrays.copyOf(memberOffset, members * 2);
        }
        memberPoint[members] = firstPoint;
        memberOffset[members] = compressedOffset;
        members++;
    }

    void addPoint(int member, long bitOffset, long outOffset, byte[] window) {
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
        points++;
    }

    private void trim() {
        pointOut = Arrays.copyOf(pointOut, points);
        pointBit = Arrays.copyOf(pointBit, points);
        pointMember = Arrays.copyOf(pointMember, points);
        pointWindow = Arrays.copyOf(pointWindow, points);
    }

    int points() {
        return points;
    }

    long pointOut(int p) {
        return pointOut[p];
    }

    long pointBit(int p) {
        return pointBit[p];
    }

    int pointMember(int p) {
        return pointMember[p];
    }

    byte[] pointWindow(int p) {
        return pointWindow[p];
    }

    int members() {
        return members;
    }

    long memberOffset(int m) {
        return memberOffset[m];
    }

    int memberPoint(int m) {
        return memberPoint[m];
    }

    long streamSize() {
        return streamSize;
    }

    String gzipDamage() {
        return gzipDamage;
    }

    long span() {
        return span;
    }

    /**
     * Ends loading a persisted index. Its checksum catches damage, not a crafted file, so the structure
     * is checked before it is trusted: a member whose first point lay in an earlier member would make a
     * read inflate that member again and again, a point of a member that does not exist would fail reads.
     */
    void restore(long streamSize, String gzipDamage, long fileSize) throws IOException {
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
    void clear() {
        points = 0;
        members = 0;
        streamSize = 0;
        gzipDamage = null;
        pointOut = new long[16];
        pointBit = new long[16];
        pointMember = new int[16];
        pointWindow = new byte[16][];
    }

    long inflatedBytes() {
        return inflated.get();
    }

    void describe(Map<String, Object> a) {
        a.put("gzipMembers", members);
        a.put("restartPoints", points);
        a.put("restartSpan", span);
        a.put("gzipDamage", gzipDamage == null ? "" : gzipDamage);
        a.put("restartIndex", persisted);
        a.put("gzipScan", persisted.startsWith("loaded") ? "" : nativeScan ? "native" : "java" + (fallback.isEmpty() ? "" : " (" + fallback + ")"));
        a.put("inflatedBytes", inflated.get());
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

    @Override
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

    @Override
    public Content range(long offset, long length, String label) {
        return new Content() {
            @Override
            public long size() {
                return length;
            }

            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                if (position >= length) {
                    return -1;
                }
                int want = (int) Math.min(dst.remaining(), length - position);
                if (want == 0) {
                    return 0;
                }
                ByteBuffer slice = dst.slice();
                slice.limit(want);
                int n = GzipIndex.this.read(slice, offset + position);
                if (n < want) {
                    throw new TruncatedDataException(file, offset + position + n, label,
                            "the " + length + " bytes it declares from stream byte " + offset,
                            "the decompressed stream ends at byte " + streamSize);
                }
                dst.position(dst.position() + n);
                return n;
            }
        };
    }

    @Override
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
