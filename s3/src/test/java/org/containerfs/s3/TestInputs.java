package org.containerfs.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Map;
import java.util.Random;
import org.containerfs.core.ContainerFileSystems;

/** Containers big enough for request bounds to mean something, made in memory for upload. */
final class TestInputs {
    private TestInputs() {}

    /** A LIME record: 144-byte header (magic, version 1, MB/ME, length, type), payload, padding to 8. */
    static void limeRecord(ByteArrayOutputStream out, boolean mb, boolean me, byte[] payload, String type) {
        ByteBuffer h = ByteBuffer.allocate(144);
        h.putInt(0x456789AB).putShort((short) 1).put((byte) ((mb ? 0x80 : 0) | (me ? 0x40 : 0))).put((byte) 0)
                .putLong(payload.length).put(type.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(h.array());
        out.writeBytes(payload);
        out.writeBytes(new byte[(8 - payload.length % 8) % 8]);
    }

    /** {@code n} records of 16 bytes, ten to a message. */
    static byte[] limeSmallRecords(int n) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(n * 160);
        for (int i = 0; i < n; i++) {
            byte[] payload = ByteBuffer.allocate(16).putLong(i).putLong(~i).array();
            limeRecord(out, i % 10 == 0, i % 10 == 9 || i == n - 1, payload, "rec-" + (i % 3));
        }
        return out.toByteArray();
    }

    /** As an ILDG configuration: two small records, one of {@code bigBytes}, a checksum record. */
    static byte[] limeBigRecord(int bigBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bigBytes + 4096);
        limeRecord(out, true, false, "<xlf-info>plaquette 0.59</xlf-info>".getBytes(StandardCharsets.US_ASCII),
                "xlf-info");
        limeRecord(out, false, false, "<ildgFormat>...</ildgFormat>".getBytes(StandardCharsets.US_ASCII),
                "ildg-format");
        byte[] big = new byte[bigBytes];
        new Random(11).nextBytes(big);
        limeRecord(out, false, false, big, "ildg-binary-data");
        limeRecord(out, false, true, "<scidacChecksum>1</scidacChecksum>".getBytes(StandardCharsets.US_ASCII),
                "scidac-checksum");
        return out.toByteArray();
    }

    /** A HOOMD-like GSD trajectory written by the provider: {@code frames} frames, positions of 1000 particles. */
    static byte[] gsdTrajectory(Path dir, int frames) throws IOException {
        Path file = dir.resolve("traj.gsd");
        Random r = new Random(5);
        try (FileSystem fs = ContainerFileSystems.create(file, "gsd", Map.of("schema", "hoomd", "schemaVersion", "1.4"))) {
            for (int f = 0; f < frames; f++) {
                Files.createDirectory(fs.getPath("/" + f));
                byte[] step = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, f * 1000L).array();
                gsdChunk(fs.getPath("/" + f + "/configuration%2Fstep"), "uint64", 1, step);
                byte[] positions = new byte[1000 * 12];
                r.nextBytes(positions);
                gsdChunk(fs.getPath("/" + f + "/particles%2Fposition"), "float", 3, positions);
            }
        }
        return Files.readAllBytes(file);
    }

    private static void gsdChunk(Path chunk, String type, int m, byte[] data) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(chunk,
                EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                ContainerFileSystems.attribute("gsd:type", type), ContainerFileSystems.attribute("gsd:M", m))) {
            ch.write(ByteBuffer.wrap(data));
        }
    }
}
