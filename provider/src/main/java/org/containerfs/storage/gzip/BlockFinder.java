package org.containerfs.storage.gzip;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds a deflate block boundary in compressed bytes without the output that precedes them, as
 * rapidgzip's block finder does: every bit offset is tried as the start of a dynamic-Huffman block
 * (strict: complete codes, as zlib and gzip write them) or of a stored block (its length and the
 * length's complement), the candidate block is decoded symbol by symbol without producing output,
 * and the header after it must be valid too. The boundary reported is the END of the candidate
 * block, whose symbols this decoding saw: the output those symbols add after the boundary's last
 * whole byte ({@link Found#tailOut}) is what a native inflater, fed whole bytes up to there, has not
 * written yet. (A candidate that starts on a byte boundary, as a stored block after a stored block
 * does, is itself reported: nothing of the block before it lies after that boundary.) A false candidate is possible in principle; the caller verifies every boundary against
 * the real output before using it.
 */
final class BlockFinder {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Bytes the caller leaves after the data, so that a 64-bit read near the end stays inside the array. */
    static final int PADDING = 8;
    private static final int MAX_DISTANCE = 32768;
    private static final int RING = 16;
    /** By the first 13 bits at a bit offset (BFINAL, BTYPE, HLIT, HDIST): whether a block can start there. */
    private static final boolean[] MAY_START = new boolean[1 << 13];
    /** Share of the code space a code length takes (in 128ths), 0 for an unused symbol. */
    private static final int[] KRAFT_128 = {0, 64, 32, 16, 8, 4, 2, 1};

    static {
        for (int v = 0; v < MAY_START.length; v++) {
            int type = (v >>> 1) & 3;
            MAY_START[v] = type == 0 || type == 2 && ((v >>> 3) & 31) <= 29 && ((v >>> 8) & 31) <= 29;
        }
    }

    /** A block boundary: {@code bit} from the data's start; {@code finalBlock}: the member's last block ends there. */
    record Found(long bit, long tailOut, boolean finalBlock) {}

    private final byte[] data;
    private final long limitBits;
    private final int[] lengths = new int[286 + 30];
    private final int[] codeLengths = new int[19];
    private JavaInflater.Huffman lit;
    private JavaInflater.Huffman dist;

    private BlockFinder(byte[] data, int length) {
        this.data = data;
        this.limitBits = (long) length * 8;
    }

    /**
     * The end of the first block that starts at or after bit 0 of {@code data[0, length)} and ends
     * inside it (followed by a valid header, or, for a final block, by what can be a gzip trailer), or
     * null if there is none. {@code data} has {@link #PADDING} bytes after {@code length}.
     */
    static Found find(byte[] data, int length) {
        return new BlockFinder(data, length).search();
    }

    private long bits(long at) {
        return (long) LONG_LE.get(data, (int) (at >>> 3)) >>> (at & 7); // at least 57 valid bits
    }

    private Found search() {
        // a dynamic header is at least 17 + 4*3 bits, a stored one 35: stop where neither fits
        for (long p = 0; p + 64 < limitBits; p++) {
            long w = bits(p);
            if (!MAY_START[(int) w & 0x1FFF]) {
                continue; // fixed Huffman, reserved, HLIT > 286 or HDIST > 30
            }
            int type = (int) (w >>> 1) & 3;
            long end;
            if (type == 2) {
                long body = dynamicHeader(p);
                if (body < 0) {
                    continue;
                }
                end = decodeBlock(p, body);
            } else if (type == 0) {
                end = storedBlock(p);
            } else {
                continue;
            }
            if (end < 0) {
                continue;
            }
            boolean last = (w & 1) == 1;
            if (last ? trailerFollows(end) : validHeaderAt(end)) {
                if (!last && (p & 7) == 0) {
                    // the block before ends on a byte boundary: nothing of it is after the last whole byte
                    return new Found(p, 0, false);
                }
                return new Found(end, type == 2 ? tailOut : 0, last);
            }
        }
        return null;
    }

    /** The bit after a stored block starting at {@code p}, or -1. */
    private long storedBlock(long p) {
        long aligned = (p + 3 + 7) & ~7L;
        if (aligned + 32 > limitBits) {
            return -1;
        }
        long w = bits(aligned);
        int len = (int) w & 0xFFFF;
        int nlen = (int) (w >>> 16) & 0xFFFF;
        if ((len ^ 0xFFFF) != nlen || aligned + 32 + 8L * len > limitBits) {
            return -1;
        }
        return aligned + 32 + 8L * len;
    }

    /** Whether a block header that can start a real block (not fixed Huffman, which any bits resemble) is at {@code p}. */
    private boolean validHeaderAt(long p) {
        if (p + 64 > limitBits) {
            return false;
        }
        long w = bits(p);
        int type = (int) (w >>> 1) & 3;
        if (type == 0) {
            return storedBlock(p) >= 0;
        }
        return type == 2 && ((w >>> 3) & 31) <= 29 && ((w >>> 8) & 31) <= 29 && dynamicHeader(p) >= 0;
    }

    /** After a final block: the 8-byte trailer, then the end of the data or another member's magic. */
    private boolean trailerFollows(long end) {
        long aligned = (end + 7) & ~7L;
        long next = aligned + 64;
        if (next > limitBits) {
            return false;
        }
        if (next == limitBits) {
            return true;
        }
        return next + 16 <= limitBits && (bits(next) & 0xFFFF) == 0x8B1F;
    }

    /** Reads the code lengths of a dynamic header at {@code p} into lit/dist; the bit after the header, or -1. */
    private long dynamicHeader(long p) {
        long w = bits(p + 3);
        int hlit = (int) (w & 31) + 257;
        int hdist = (int) ((w >>> 5) & 31) + 1;
        int hclen = (int) ((w >>> 10) & 15) + 4;
        long at = p + 17;
        long cl = bits(at);
        // most bit offsets fail here: the code-length code's lengths must fill the code space exactly
        int space = 0;
        for (int i = 0; i < hclen && space <= 128; i++) {
            space += KRAFT_128[(int) (cl >>> (3 * i)) & 7];
        }
        if (space != 128) {
            return -1;
        }
        java.util.Arrays.fill(codeLengths, 0);
        for (int i = 0; i < hclen; i++) {
            codeLengths[JavaInflater.CL_ORDER[i]] = (int) (cl >>> (3 * i)) & 7;
        }
        at += 3L * hclen;
        JavaInflater.Huffman clh = JavaInflater.Huffman.build(codeLengths, 19);
        int n = hlit + hdist;
        int i = 0;
        while (i < n) {
            if (at + 32 > limitBits) {
                return -1;
            }
            long v = bits(at);
            int e = clh.table[(int) v & clh.mask];
            int len = e & 15;
            int sym = e >>> 4;
            v >>>= len;
            at += len;
            int extraBits = sym < 16 ? 0 : JavaInflater.REPEAT_BITS[sym - 16];
            i = JavaInflater.codeLength(sym, (int) (v & ((1 << extraBits) - 1)), lengths, i, n);
            at += extraBits;
            if (i < 0) {
                return -1;
            }
        }
        if (lengths[256] == 0 || !complete(lengths, hlit)) {
            return -1;
        }
        int[] distLengths = java.util.Arrays.copyOfRange(lengths, hlit, n);
        if (!complete(distLengths, hdist) && !singleCode(distLengths)) {
            return -1;
        }
        try {
            lit = JavaInflater.Huffman.build(java.util.Arrays.copyOf(lengths, hlit), hlit);
            dist = JavaInflater.Huffman.build(distLengths, hdist);
        } catch (IllegalStateException e) {
            return -1;
        }
        return at;
    }

    private long tailOut;

    /**
     * Decodes the block body from {@code at} to its end-of-block symbol without output; returns the bit
     * after it, or -1 if a symbol is invalid or the block does not end inside the data. Sets
     * {@link #tailOut}: the output of symbols that end after the last byte boundary before the end.
     */
    private long decodeBlock(long start, long at) {
        long[] endBit = new long[RING];
        long[] outAfter = new long[RING];
        int count = 0;
        long out = 0;
        while (true) {
            if (at + 64 > limitBits) {
                return -1;
            }
            long w = bits(at);
            int e = lit.table[(int) w & lit.mask];
            int len = e & 15;
            int sym = e >>> 4;
            if (len == 0) {
                return -1;
            }
            w >>>= len;
            long used = len;
            if (sym < 256) {
                out++;
            } else if (sym == 256) {
                long end = at + used;
                long lastByte = end & ~7L;
                if (start >= lastByte) {
                    return -1; // a block inside one byte: the output before it is not ours to count
                }
                long before = 0;
                for (int k = count - 1; k >= Math.max(0, count - RING); k--) {
                    if (endBit[k % RING] <= lastByte) {
                        before = outAfter[k % RING];
                        break;
                    }
                }
                tailOut = out - before;
                return end;
            } else {
                sym -= 257;
                if (sym >= 29) {
                    return -1;
                }
                int extra = JavaInflater.LEXT[sym];
                int length = JavaInflater.LBASE[sym] + (int) (w & ((1 << extra) - 1));
                w >>>= extra;
                used += extra;
                int de = dist.table[(int) w & dist.mask];
                int dl = de & 15;
                int ds = de >>> 4;
                if (dl == 0 || ds >= 30) {
                    return -1;
                }
                w >>>= dl;
                used += dl;
                int dx = JavaInflater.DEXT[ds];
                int distance = JavaInflater.DBASE[ds] + (int) (w & ((1 << dx) - 1));
                used += dx;
                if (distance > MAX_DISTANCE) {
                    return -1;
                }
                out += length;
            }
            at += used;
            endBit[count % RING] = at;
            outAfter[count % RING] = out;
            count++;
        }
    }

    /** Whether the code lengths form a complete prefix code (as zlib's and gzip's encoders always write). */
    private static boolean complete(int[] lengths, int n) {
        int[] count = new int[16];
        for (int i = 0; i < n; i++) {
            count[lengths[i]]++;
        }
        int left = 1;
        for (int len = 1; len <= 15; len++) {
            left = (left << 1) - count[len];
            if (left < 0) {
                return false;
            }
        }
        return left == 0;
    }

    /** One code of one bit (other encoders' way of sending a single distance). */
    private static boolean singleCode(int[] lengths) {
        int codes = 0;
        for (int l : lengths) {
            if (l != 0) {
                codes++;
                if (l != 1) {
                    return false;
                }
            }
        }
        return codes == 1;
    }
}
