package org.containerfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Random;

/**
 * A long deterministic byte stream that is never held in memory: byte {@code p} is byte
 * {@code (p + 7919 * (p / BLOCK)) % BLOCK} of one seeded random block, so every block is the same bytes
 * rotated by its own amount, and a block written at the wrong offset (a wrapped int, a lost or repeated
 * block) reads back different. Written and compared a block at a time.
 */
public final class GeneratedBytes {
    /** One unit past what 32 bits can count: the size the big-unit tests write. */
    public static final long FOUR_GIB_PLUS_ONE = (1L << 32) + 1;

    private static final int BLOCK = 1 << 20;
    private final byte[] pattern = new byte[BLOCK];
    private final long size;

    public GeneratedBytes(long size, long seed) {
        this.size = size;
        new Random(seed).nextBytes(pattern);
    }

    public long size() {
        return size;
    }

    /** Fills {@code block} with the bytes from {@code position} on (at most the rest of the stream); returns the count. */
    private int fill(byte[] block, long position) {
        int n = (int) Math.min(block.length, size - position);
        int rotation = (int) ((position + 7919L * (position / BLOCK)) % BLOCK);
        int first = Math.min(n, BLOCK - rotation);
        System.arraycopy(pattern, rotation, block, 0, first);
        System.arraycopy(pattern, 0, block, first, n - first);
        return n;
    }

    /** Writes the whole stream into {@code out} a block at a time. */
    public void writeTo(WritableByteChannel out) throws IOException {
        byte[] block = new byte[BLOCK];
        for (long p = 0; p < size; ) {
            int n = fill(block, p);
            ByteBuffer b = ByteBuffer.wrap(block, 0, n);
            while (b.hasRemaining()) {
                out.write(b);
            }
            p += n;
        }
    }

    /**
     * Reads {@code in} to its end and fails, naming the first differing offset, unless it is exactly this
     * stream. A short read is not the end: only -1 is.
     */
    public void assertSameAs(ReadableByteChannel in, String what) throws IOException {
        byte[] expected = new byte[BLOCK];
        ByteBuffer got = ByteBuffer.allocate(BLOCK);
        long p = 0;
        while (true) {
            got.clear();
            while (got.hasRemaining() && in.read(got) >= 0) {
                // fill the block, or stop at the end
            }
            got.flip();
            int n = got.remaining();
            if (n == 0) {
                break;
            }
            if (p + n > size) {
                throw new AssertionError(what + ": longer than the " + size + " bytes written (at least " + (p + n) + ")");
            }
            fill(expected, p);
            int differs = java.util.Arrays.mismatch(got.array(), 0, n, expected, 0, n);
            if (differs >= 0) {
                throw new AssertionError(what + ": byte " + (p + differs) + " differs from what was written");
            }
            p += n;
        }
        if (p != size) {
            throw new AssertionError(what + ": " + p + " bytes read back, " + size + " written");
        }
    }
}
