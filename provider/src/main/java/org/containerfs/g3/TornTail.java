package org.containerfs.g3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.storage.gzip.SequentialReader;

/**
 * Tells a writer's torn append from damage that only looks like one. A length field damaged in a committed
 * frame makes the scan see a frame that runs past the end of the file, exactly as a frame cut off by a killed
 * writer does; but a writer appends one frame at a time, so a torn tail holds at most one frame's prefix. A
 * complete frame with a matching CRC starting inside the tail proves committed frames were lost.
 * <p>
 * Bounded for hostile files: only the first {@link #SEARCH_BYTES} bytes of the tail are searched, only at
 * positions where a frame header can start (flag 0 or 1, then version 1 in that byte order), and all candidates
 * together may read at most {@link #READ_BUDGET} bytes; nothing is allocated from a declared length (the scan's
 * own rule). A search that runs out of budget cannot show the tail is one torn frame, so it counts as damage.
 */
final class TornTail {
    /** Bytes of a tail, from its start, where a committed frame is looked for. */
    static final int SEARCH_BYTES = 16 * 1024 * 1024;
    /** Bytes all candidates of one tail may read (headers, keys, and the blobs a CRC check needs). */
    static final long READ_BUDGET = 64L * 1024 * 1024;
    private static final int CHUNK = 64 * 1024;

    private TornTail() {
    }

    /**
     * Why the truncated tail of {@code index} is not one torn frame, or null when it can be one. The tail must
     * be a truncated one of an uncompressed file read through {@code channel} ({@code data} over the same bytes).
     */
    static String evidenceOfDamage(G3Index index, ContainerChannel channel, G3Data data) throws IOException {
        long start = index.nextFrame();
        long searchEnd = Math.min(start + index.tailLength(), start + SEARCH_BYTES);
        BudgetReader reader = new BudgetReader(new PlainReader(channel, start));
        G3Index candidate = new G3Index(index.file());
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK + 4); // 4 more: a version straddling the chunk's end
        for (long at = start + 1; at < searchEnd; at += CHUNK) {
            chunk.clear();
            int got = channel.readUpTo(chunk, at);
            int positions = (int) Math.min(CHUNK, searchEnd - at);
            for (int i = 0; i < positions && i + 5 <= got; i++) {
                int flag = chunk.get(i);
                if (flag != 0 && flag != 1) {
                    continue;
                }
                ByteOrder order = flag == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
                if (chunk.order(order).getInt(i + 1) != 1) {
                    continue;
                }
                long p = at + i;
                reader.seek(p);
                candidate.clear();
                candidate.scan(reader, false, Long.MAX_VALUE, 1);
                if (candidate.frames() == 1 && candidate.crcStored(0) != 0) {
                    // a stored CRC of 0 proves nothing: with init 0 it is the CRC of no bytes or of zero bytes
                    long length = candidate.frameLength(0);
                    if (!reader.take(length)) {
                        return exhausted();
                    }
                    int crc = G3Container.computeCrc(candidate, 0, data, "the frame found at byte " + p);
                    if (crc == candidate.crcStored(0)) {
                        return "a complete frame of " + length + " bytes with a matching CRC-32C starts at byte " + p
                                + ": committed frames were lost";
                    }
                }
                if (reader.exhausted) {
                    return exhausted();
                }
            }
        }
        return null;
    }

    private static String exhausted() {
        return "the search for committed frames in it read its limit of " + READ_BUDGET + " bytes";
    }

    /** The candidates' reads, counted against {@link #READ_BUDGET}; past it reads end as the file would. */
    private static final class BudgetReader implements SequentialReader {
        private final PlainReader in;
        private long left = READ_BUDGET;
        boolean exhausted;

        BudgetReader(PlainReader in) {
            this.in = in;
        }

        void seek(long position) {
            in.seek(position);
        }

        /** Takes {@code n} bytes of the budget; false (and exhausted) if it has fewer. */
        boolean take(long n) {
            if (n > left) {
                exhausted = true;
                return false;
            }
            left -= n;
            return true;
        }

        @Override
        public long position() {
            return in.position();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int allowed = (int) Math.min(len, left);
            if (allowed < len) {
                exhausted = true;
            }
            int n = in.read(b, off, allowed);
            left -= n;
            return n;
        }

        @Override
        public long skip(long n) {
            return in.skip(n); // a seek: reads nothing
        }

        @Override
        public long remaining() {
            return in.remaining();
        }
    }
}
