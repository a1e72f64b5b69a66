package org.containerfs.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes LIME inputs with a plain FileChannel (independent of the provider's writer, so the reader is
 * measured on files it did not make). Layout: 144-byte big-endian header (magic, version 1, MB/ME
 * flags, payload length, 128-byte type), payload, zero padding to 8 bytes.
 */
public final class LimeInputs {
    public static final int HEADER = 144;
    public static final String BIG_TYPE = "ildg-binary-data";
    public static final String BIG_RECORD = "/msg01/rec01." + BIG_TYPE;

    private LimeInputs() {}

    public static ByteBuffer header(boolean mb, boolean me, long length, String type) {
        ByteBuffer h = ByteBuffer.allocate(HEADER);
        h.putInt(0x456789AB).putShort((short) 1).put((byte) ((mb ? 0x80 : 0) | (me ? 0x40 : 0))).put((byte) 0)
                .putLong(length).put(type.getBytes(StandardCharsets.US_ASCII));
        return h.clear();
    }

    /** {@code n} records of 16 bytes in messages of 10, alternating two types (as ILDG files do). */
    public static void smallRecords(Path file, int n) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer block = ByteBuffer.allocateDirect(160 * 4096);
            for (int i = 0; i < n; i++) {
                if (block.remaining() < 160) {
                    write(ch, block.flip());
                    block.clear();
                }
                block.put(header(i % 10 == 0, i % 10 == 9 || i == n - 1, 16,
                        i % 2 == 0 ? "scidac-record-xml" : BIG_TYPE));
                block.putLong(i).putLong(~i);
            }
            write(ch, block.flip());
        }
    }

    /**
     * {@code n} records of {@code length} bytes (a multiple of 8, at least 8, below 1 MiB) in one message, alternating two types, each
     * payload distinct (its first 8 bytes are the record's number and {@code seed}).
     */
    public static void records(Path file, int n, int length, long seed) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer chunk = payloadChunk();
            ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
            for (int i = 0; i < n; i++) {
                if (block.remaining() < HEADER + length) {
                    write(ch, block.flip());
                    block.clear();
                }
                block.put(header(i == 0, i == n - 1, length, i % 2 == 0 ? "scidac-record-xml" : BIG_TYPE));
                int start = block.position();
                block.put(chunk.clear().limit(length));
                block.putLong(start, seed * 1_000_003L + i);
            }
            write(ch, block.flip());
        }
    }

    /** One record of {@code length} bytes (a multiple of 8) with a non-constant payload. */
    public static void oneRecord(Path file, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            write(ch, header(true, true, length, BIG_TYPE));
            ByteBuffer chunk = payloadChunk();
            for (long w = 0; w < length; w += chunk.capacity()) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), length - w));
                write(ch, chunk);
            }
        }
    }

    /** 1 MiB of patterned bytes in a direct buffer: the unit every read and write scenario moves. */
    public static ByteBuffer payloadChunk() {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        for (int i = 0; i < chunk.capacity(); i++) {
            chunk.put(i, (byte) (i * 31 + (i >>> 12)));
        }
        return chunk;
    }

    private static void write(FileChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
