package org.containerfs.storage.gzip;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;

/**
 * A small pure-Java gzip/deflate decoder (RFC 1951/1952) for the one sequential pass over a
 * .g3.gz: unlike {@link java.util.zip.Inflater} it sees deflate block boundaries, where it hands
 * the caller a restart point (bit offset + the last 32 KiB of output). Decodes every member of a
 * multi-member file and checks each member's CRC-32 and length. Memory is fixed (the 32 KiB window
 * and buffers); nothing is allocated from the input.
 */
public final class JavaInflater extends BufferedSequentialReader {
    public static final int WINDOW = 32 * 1024;
    private static final int CHUNK = 256 * 1024;
    private static final int LIMIT = WINDOW + CHUNK;
    static final int[] LBASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83,
        99, 115, 131, 163, 195, 227, 258};
    static final int[] LEXT = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    static final int[] DBASE = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
    static final int[] DEXT = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
        12, 12, 13, 13};
    static final int[] CL_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    private static final Huffman FIXED_LIT;
    private static final Huffman FIXED_DIST;

    static {
        int[] l = new int[288];
        for (int i = 0; i < 288; i++) {
            l[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
        }
        int[] d = new int[30];
        java.util.Arrays.fill(d, 5);
        try {
            FIXED_LIT = Huffman.build(l, 288);
            FIXED_DIST = Huffman.build(d, 30);
        } catch (IllegalStateException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Receives restart points: block boundaries every {@code span} bytes of output, and member starts. */
    public interface Points {
        void point(int member, long bitOffset, long outOffset, byte[] window);

        void member(int member, long compressedOffset, long outOffset);
    }

    private enum State { MEMBER, BLOCK, STORED, CODES, TRAILER, END }

    private final ContainerChannel channel;
    private final String file;
    private final long fileSize;
    private final long span;
    private final Points points;

    private final ByteBuffer in = ByteBuffer.allocate(64 * 1024).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    private long inBase; // file offset of in[0]
    private long bitBuf;
    private int bitCount;

    private final byte[] out = new byte[LIMIT + 512];
    private int wpos; // out[readPos, wpos) is decoded and not yet read
    private int crcFrom; // out[crcFrom..wpos) is not in the member CRC yet
    private long outBase; // logical offset of out[0]

    private State state = State.MEMBER;
    private boolean lastBlock;
    private int storedLeft;
    private Huffman lit;
    private Huffman dist;
    private int member = -1;
    private long memberOut; // logical offset where the current member's output starts
    private final CRC32 crc = new CRC32();
    private long lastPoint = Long.MIN_VALUE / 2;
    private String damage;
    private long damageOffset = -1;
    private boolean trailingGarbage;

    public JavaInflater(ContainerChannel channel, String file, long span, Points points) throws IOException {
        this.channel = channel;
        this.file = file;
        this.fileSize = channel.size();
        this.span = span;
        this.points = points;
        in.limit(0);
        buffer = out;
    }

    /** What ended the stream early (truncation, corrupt data, trailing garbage), or null. */
    public String damage() {
        return damage;
    }

    /** The compressed byte where the damage was met, or -1 when there is none. */
    public long damageOffset() {
        return damageOffset;
    }

    /** Whether the only damage is bytes after the last member that are no gzip member (zcat ignores them). */
    public boolean trailingGarbageOnly() {
        return trailingGarbage;
    }

    static String show(long unsigned32) {
        return String.format(java.util.Locale.ROOT, "%d (0x%08x)", unsigned32 & 0xFFFFFFFFL, unsigned32 & 0xFFFFFFFFL);
    }

    public int members() {
        return member + 1;
    }

    public long compressedEnd() {
        return inBase + in.position() - bitCount / 8;
    }

    @Override
    protected boolean refill() throws IOException {
        return fill();
    }

    /** Decodes more output; false at the end of the stream. */
    private boolean fill() throws IOException {
        if (wpos > WINDOW) {
            int keep = wpos - WINDOW;
            System.arraycopy(out, keep, out, 0, WINDOW);
            outBase += keep;
            wpos = WINDOW;
            readPos = WINDOW;
            crcFrom = WINDOW;
        }
        try {
            while (wpos < LIMIT && state != State.END) {
                step();
            }
        } catch (EndOfInput e) {
            damageOffset = fileSize;
            end("the compressed data ends inside member " + member + " at byte " + fileSize
                    + " (truncated .gz; expected the rest of the member and its 8-byte trailer)");
        } catch (IllegalStateException e) {
            damageOffset = compressedEnd();
            end("corrupt deflate data in member " + member + " near byte " + compressedEnd() + " (expected valid deflate"
                    + " data): " + e.getMessage());
        }
        updateCrc();
        readEnd = wpos;
        return readEnd > readPos;
    }

    private void end(String why) {
        damage = why;
        state = State.END;
    }

    private void step() throws IOException {
        switch (state) {
            case MEMBER -> {
                if (!memberHeader()) {
                    state = State.END;
                }
            }
            case BLOCK -> blockHeader();
            case STORED -> stored();
            case CODES -> codes();
            case TRAILER -> trailer();
            default -> throw new IllegalStateException("decoder finished");
        }
    }

    private boolean memberHeader() throws IOException {
        long at = compressedEnd();
        if (at >= fileSize) {
            return false;
        }
        if (!peekBytesAvailable(2)) {
            garbage(at);
            return false;
        }
        int id1 = bits(8);
        int id2 = bits(8);
        if (id1 != 0x1F || id2 != 0x8B) {
            garbage(at);
            return false;
        }
        int cm = bits(8);
        int flags = bits(8);
        if (cm != 8 || (flags & 0xE0) != 0) {
            throw new IllegalStateException("gzip member at byte " + at + " with method " + cm + " and flags 0x"
                    + Integer.toHexString(flags) + " (expected deflate, no reserved flags)");
        }
        for (int i = 0; i < 6; i++) {
            bits(8); // mtime, xfl, os
        }
        if ((flags & 4) != 0) {
            int xlen = bits(16);
            for (int i = 0; i < xlen; i++) {
                bits(8);
            }
        }
        if ((flags & 8) != 0) {
            while (bits(8) != 0) {
                // file name
            }
        }
        if ((flags & 16) != 0) {
            while (bits(8) != 0) {
                // comment
            }
        }
        if ((flags & 2) != 0) {
            bits(16);
        }
        member++;
        memberOut = outBase + wpos;
        updateCrc();
        crc.reset();
        points.member(member, at, memberOut);
        points.point(member, bitOffset(), memberOut, new byte[0]);
        lastPoint = memberOut;
        state = State.BLOCK;
        return true;
    }

    private void garbage(long at) {
        damageOffset = at;
        trailingGarbage = true;
        damage = (fileSize - at) + " bytes after gzip member " + member + " at byte " + at
                + " are not a gzip member (trailing garbage, ignored as zcat does)";
    }

    private boolean peekBytesAvailable(int n) {
        return fileSize - compressedEnd() >= n;
    }

    private long bitOffset() {
        return (inBase + in.position()) * 8 - bitCount;
    }

    private void blockHeader() throws IOException {
        long outNow = outBase + wpos;
        if (outNow - lastPoint >= span) {
            int w = (int) Math.min(WINDOW, outNow - memberOut);
            byte[] window = java.util.Arrays.copyOfRange(out, wpos - w, wpos);
            points.point(member, bitOffset(), outNow, window);
            lastPoint = outNow;
        }
        lastBlock = bits(1) == 1;
        int type = bits(2);
        switch (type) {
            case 0 -> {
                dropToByte();
                int len = bits(16);
                int nlen = bits(16);
                if ((len ^ 0xFFFF) != nlen) {
                    throw new IllegalStateException("stored block length " + len + " does not match its complement");
                }
                storedLeft = len;
                state = State.STORED;
            }
            case 1 -> {
                lit = FIXED_LIT;
                dist = FIXED_DIST;
                state = State.CODES;
            }
            case 2 -> {
                dynamicTables();
                state = State.CODES;
            }
            default -> throw new IllegalStateException("block type 3 (reserved)");
        }
    }

    private void stored() throws IOException {
        while (storedLeft > 0 && wpos < LIMIT) {
            if (bitCount >= 8) {
                out[wpos++] = (byte) bits(8);
                storedLeft--;
                continue;
            }
            // the bit buffer is empty (bitCount is 0 after a byte-aligned drain); forget any surplus bits of
            // the bytes about to be copied directly
            bitBuf = 0;
            if (!in.hasRemaining() && !refillInput()) {
                throw new EndOfInput();
            }
            int n = Math.min(Math.min(storedLeft, LIMIT - wpos), in.remaining());
            in.get(out, wpos, n);
            wpos += n;
            storedLeft -= n;
        }
        if (storedLeft == 0) {
            state = lastBlock ? State.TRAILER : State.BLOCK;
        }
    }

    private void codes() throws IOException {
        byte[] o = out;
        int w = wpos;
        try {
            while (w < LIMIT) {
                int sym = decode(lit);
                if (sym < 256) {
                    o[w++] = (byte) sym;
                } else if (sym == 256) {
                    state = lastBlock ? State.TRAILER : State.BLOCK;
                    return;
                } else {
                    sym -= 257;
                    if (sym >= 29) {
                        throw new IllegalStateException("invalid length symbol " + (sym + 257));
                    }
                    int len = LBASE[sym] + bits(LEXT[sym]);
                    int ds = decode(dist);
                    if (ds >= 30) {
                        throw new IllegalStateException("invalid distance symbol " + ds);
                    }
                    int d = DBASE[ds] + bits(DEXT[ds]);
                    if (d > w || d > outBase + w - memberOut) {
                        throw new IllegalStateException("distance " + d + " reaches before the start of the member");
                    }
                    int src = w - d;
                    if (d >= len) {
                        System.arraycopy(o, src, o, w, len);
                        w += len;
                    } else {
                        // an overlapping match repeats the last d bytes: copy runs that double each time
                        int left = len;
                        while (left > 0) {
                            int n = Math.min(left, w - src);
                            System.arraycopy(o, src, o, w, n);
                            w += n;
                            left -= n;
                        }
                    }
                }
            }
        } finally {
            wpos = w;
        }
    }

    private void trailer() throws IOException {
        dropToByte();
        long at = compressedEnd();
        long stored = bits(16) | ((long) bits(16) << 16);
        long size = bits(16) | ((long) bits(16) << 16);
        updateCrc();
        long memberSize = outBase + wpos - memberOut;
        if (stored != crc.getValue() || size != (memberSize & 0xFFFFFFFFL)) {
            damageOffset = at;
            end("gzip member " + member + ", trailer at byte " + at + ": expected the data's CRC-32 "
                    + show(crc.getValue()) + " and size " + (memberSize & 0xFFFFFFFFL) + ", found CRC-32 "
                    + show(stored) + " and size " + size);
            return;
        }
        state = State.MEMBER;
    }

    private void updateCrc() {
        if (wpos > crcFrom) {
            crc.update(out, crcFrom, wpos - crcFrom);
        }
        crcFrom = wpos;
    }

    private void dynamicTables() throws IOException {
        int hlit = bits(5) + 257;
        int hdist = bits(5) + 1;
        int hclen = bits(4) + 4;
        if (hlit > 286 || hdist > 30) {
            throw new IllegalStateException("too many length or distance codes");
        }
        int[] cl = new int[19];
        for (int i = 0; i < hclen; i++) {
            cl[CL_ORDER[i]] = bits(3);
        }
        Huffman clh = Huffman.build(cl, 19);
        int[] lengths = new int[hlit + hdist];
        int i = 0;
        while (i < hlit + hdist) {
            int sym = decode(clh);
            i = codeLength(sym, sym < 16 ? 0 : bits(REPEAT_BITS[sym - 16]), lengths, i, lengths.length);
            if (i < 0) {
                throw new IllegalStateException(i == -1 ? "repeat with no previous length" : "code lengths overflow");
            }
        }
        if (lengths[256] == 0) {
            throw new IllegalStateException("no end-of-block code");
        }
        lit = Huffman.build(java.util.Arrays.copyOfRange(lengths, 0, hlit), hlit);
        dist = Huffman.build(java.util.Arrays.copyOfRange(lengths, hlit, hlit + hdist), hdist);
    }

    /** Extra bits of the code-length symbols 16, 17 and 18. */
    static final int[] REPEAT_BITS = {2, 3, 7};

    /**
     * Stores code-length symbol {@code sym} (a length, or 16/17/18: a repeat whose extra bits are
     * {@code extra}) at {@code lengths[i]}; returns the next index, -1 for a repeat of nothing, -2 for
     * a run past {@code end}. Shared by the decoder and {@link BlockFinder}, whose bit sources differ.
     */
    static int codeLength(int sym, int extra, int[] lengths, int i, int end) {
        if (sym < 16) {
            lengths[i] = sym;
            return i + 1;
        }
        if (sym == 16 && i == 0) {
            return -1;
        }
        int value = sym == 16 ? lengths[i - 1] : 0;
        int repeat = sym == 16 ? 3 + extra : sym == 17 ? 3 + extra : 11 + extra;
        if (i + repeat > end) {
            return -2;
        }
        java.util.Arrays.fill(lengths, i, i + repeat, value);
        return i + repeat;
    }

    private int decode(Huffman h) throws IOException {
        if (bitCount < h.maxLength) {
            refillBits();
        }
        int e = h.table[(int) bitBuf & h.mask];
        int len = e & 15;
        if (len == 0 || len > bitCount) {
            if (len == 0) {
                throw new IllegalStateException("invalid Huffman code");
            }
            throw new EndOfInput();
        }
        bitBuf >>>= len;
        bitCount -= len;
        return e >>> 4;
    }

    private int bits(int n) throws IOException {
        if (n == 0) {
            return 0;
        }
        if (bitCount < n) {
            refillBits();
            if (bitCount < n) {
                throw new EndOfInput();
            }
        }
        int v = (int) (bitBuf & ((1L << n) - 1));
        bitBuf >>>= n;
        bitCount -= n;
        return v;
    }

    private void dropToByte() {
        int drop = bitCount & 7;
        bitBuf >>>= drop;
        bitCount -= drop;
    }

    private void refillBits() throws IOException {
        if (in.remaining() >= 8) {
            // eight bytes at once; bits above the whole bytes taken are the next byte's, and OR-ing that
            // byte again later sets the same bits, so the surplus is harmless
            int take = (63 - bitCount) >>> 3;
            bitBuf |= in.getLong(in.position()) << bitCount;
            in.position(in.position() + take);
            bitCount += take << 3;
            return;
        }
        while (bitCount <= 56) {
            if (!in.hasRemaining() && !refillInput()) {
                return;
            }
            bitBuf |= (long) (in.get() & 0xFF) << bitCount;
            bitCount += 8;
        }
    }

    /** Reads the next input chunk; whole bytes still in the bit buffer stay counted by {@link #bitOffset()}. */
    private boolean refillInput() throws IOException {
        long next = inBase + in.position();
        if (next >= fileSize) {
            return false;
        }
        // stored blocks read from the buffer directly, so unread bytes of the bit buffer must come first
        in.clear();
        int n = channel.readUpTo(in, next);
        in.flip();
        inBase = next;
        return n > 0;
    }

    /** Signals that the compressed input ended early. */
    private static final class EndOfInput extends IOException {
        EndOfInput() {
            super(null, null);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    /** A canonical Huffman code as one lookup table indexed by the next (bit-reversed) maxLength bits. */
    static final class Huffman {
        final int[] table;
        final int maxLength;
        final int mask;

        private Huffman(int[] table, int maxLength) {
            this.table = table;
            this.maxLength = maxLength;
            this.mask = (1 << maxLength) - 1;
        }

        static Huffman build(int[] lengths, int n) {
            int[] count = new int[16];
            int max = 0;
            for (int i = 0; i < n; i++) {
                count[lengths[i]]++;
                max = Math.max(max, lengths[i]);
            }
            count[0] = 0;
            int left = 1;
            for (int len = 1; len <= 15; len++) {
                left = (left << 1) - count[len];
                if (left < 0) {
                    throw new IllegalStateException("over-subscribed Huffman code");
                }
            }
            if (max == 0) {
                max = 1; // an empty distance code: any use of it is an error
            }
            int[] next = new int[16];
            int code = 0;
            for (int len = 1; len <= 15; len++) {
                code = (code + count[len - 1]) << 1;
                next[len] = code;
            }
            int[] table = new int[1 << max];
            for (int sym = 0; sym < n; sym++) {
                int len = lengths[sym];
                if (len == 0) {
                    continue;
                }
                int c = next[len]++;
                int rev = Integer.reverse(c) >>> (32 - len);
                for (int i = rev; i < table.length; i += 1 << len) {
                    table[i] = (sym << 4) | len;
                }
            }
            return new Huffman(table, max);
        }
    }
}
