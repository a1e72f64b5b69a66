package org.containerfs.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * Writes G3 inputs byte by byte as spt3g lays them out (docs/formats/g3.md sections 2-3), with a
 * plain FileChannel and independent of the provider's writer, so the reader is measured on files it
 * did not make. Every frame is a Scan frame of 10,737 bytes with four keys, little-endian:
 * {@code ScanNumber} (G3Int), {@code Az} (G3VectorDouble: 1000 noisy sine samples), {@code Flags}
 * (G3VectorInt version 2, 8-bit: 1000 values 0-3) and {@code Comment} (G3String, mostly spaces), so
 * 100,000 frames make 1 GiB (within 0.01 %), which gzip -1 compresses to about 75 % as it would noisy scans.
 */
final class G3Inputs {
    static final int FRAME_BYTES = 10_737;
    /** The key random reads fetch. */
    static final String READ_KEY = "Az";
    static final int SAMPLES = 1000;
    private static final int SCAN = 'S';
    private static final int POINTER_FIRST = 0x8000_0001;
    private static final int COMMENT_BYTES = 1458;

    /** Where a frame's {@link #READ_KEY} blob lies in the uncompressed stream. */
    record Layout(long[] readKeyOffsets, int readKeyLength, long bytes) {}

    private G3Inputs() {}

    /** Writes {@code frames} frames into {@code file}, and the same bytes to {@code copy} (a compressor). */
    static Layout write(Path file, int frames, OutputStream copy) throws IOException {
        long[] keyOffsets = new long[frames];
        int keyLength = 0;
        ByteBuffer frame = ByteBuffer.allocate(FRAME_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        double[] az = new double[SAMPLES];
        byte[] flags = new byte[SAMPLES];
        byte[] comment = new byte[COMMENT_BYTES];
        byte[] zeros = new byte[FRAME_BYTES];
        SplittableRandom random = new SplittableRandom(3);
        long at = 0;
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (int f = 0; f < frames; f++) {
                for (int i = 0; i < SAMPLES; i++) {
                    az[i] = Math.sin((f * (double) SAMPLES + i) * 1e-3) + (random.nextDouble() - 0.5) * 2e-3;
                    flags[i] = (byte) random.nextInt(4);
                }
                Arrays.fill(comment, (byte) ' ');
                byte[] text = ("scan " + f).getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(text, 0, comment, 0, text.length);

                frame.clear();
                frame.put((byte) 1).putInt(1).putInt(4).putInt(SCAN);
                long scanNumber = f;
                int crcBytes = entry(frame, "ScanNumber", "G3Int", 1, b -> b.putLong(scanNumber));
                int azStart = frame.position();
                crcBytes += entry(frame, READ_KEY, "G3VectorDouble", 1, b -> {
                    b.putLong(SAMPLES);
                    for (double d : az) {
                        b.putDouble(d);
                    }
                });
                keyOffsets[f] = at + azStart + 8 + READ_KEY.length() + 8;
                keyLength = (int) frame.getLong(azStart + 8 + READ_KEY.length());
                crcBytes += entry(frame, "Flags", "G3VectorInt", 2, b -> b.putInt(8).putLong(SAMPLES).put(flags));
                crcBytes += entry(frame, "Comment", "G3String", 1, b -> b.putLong(comment.length).put(comment));
                frame.putInt(spt3gCrc(frame, crcBytes, zeros));
                if (frame.position() != FRAME_BYTES) {
                    throw new IllegalStateException("a frame has " + frame.position() + " bytes, expected " + FRAME_BYTES);
                }
                frame.flip();
                copy.write(frame.array(), 0, frame.limit());
                while (frame.hasRemaining()) {
                    out.write(frame);
                }
                at += FRAME_BYTES;
            }
        }
        return new Layout(keyOffsets, keyLength, at);
    }

    @FunctionalInterface
    private interface Fields {
        void put(ByteBuffer b);
    }

    /**
     * One entry: u64 key length, key, u64 blob length, blob (endian flag, polymorphic type name, class
     * versions, fields). Returns how many bytes of it the frame CRC covers (key and blob).
     */
    private static int entry(ByteBuffer frame, String key, String type, int classVersion, Fields fields) {
        byte[] k = key.getBytes(StandardCharsets.US_ASCII);
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        frame.putLong(k.length).put(k);
        int lengthAt = frame.position();
        frame.putLong(0);
        int blobStart = frame.position();
        frame.put((byte) 1).putInt(POINTER_FIRST).putLong(t.length).put(t).putInt(POINTER_FIRST)
                .putInt(classVersion).putInt(1);
        fields.put(frame);
        frame.putLong(lengthAt, frame.position() - blobStart);
        return k.length + frame.position() - blobStart;
    }

    /**
     * spt3g's frame CRC: CRC-32C with initial value 0 and no final inversion, over every entry's key
     * bytes then blob bytes. java.util.zip.CRC32C (init and xorout ~0) is affine in the data, so the
     * spt3g value is CRC32C(data) XOR CRC32C(as many zero bytes) (g3.md section 2).
     */
    private static int spt3gCrc(ByteBuffer frame, int crcBytes, byte[] zeros) {
        CRC32C data = new CRC32C();
        int p = 13;
        for (int e = 0; e < 4; e++) {
            int keyLength = (int) frame.getLong(p);
            data.update(frame.array(), p + 8, keyLength);
            p += 8 + keyLength;
            int blobLength = (int) frame.getLong(p);
            data.update(frame.array(), p + 8, blobLength);
            p += 8 + blobLength;
        }
        CRC32C ofZeros = new CRC32C();
        ofZeros.update(zeros, 0, crcBytes);
        return (int) (data.getValue() ^ ofZeros.getValue());
    }
}
