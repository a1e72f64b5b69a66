package org.containerfs.gsd;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * The child JVM of {@link GsdKillTest}: appends frames to a GSD file as fast as it can and prints
 * {@code C <frame>} after each commit returned, until it is killed.
 */
public final class GsdKillChild {
    private GsdKillChild() {}

    /** The chunks of frame {@code f}: name to {type, M, bytes}; deterministic, so the parent can check them. */
    static Map<String, Object[]> frameChunks(int f) {
        Random r = new Random(f * 7919L + 17);
        Map<String, Object[]> chunks = new LinkedHashMap<>();
        chunks.put("configuration/step", new Object[] {"uint64", 1,
            ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, f).array()});
        byte[] pos = new byte[12 * (1 + f % 40)];
        r.nextBytes(pos);
        chunks.put("particles/position", new Object[] {"float", 3, pos});
        byte[] energy = new byte[8];
        r.nextBytes(energy);
        chunks.put("log/energy", new Object[] {"double", 1, energy});
        if (f % 10 == 0) { // a new name now and then, so the name list grows too
            chunks.put("log/extra_quantity_" + f, new Object[] {"int8", 1, new byte[] {(byte) f}});
        }
        return chunks;
    }

    static void appendFrame(FileSystem fs, int f) throws Exception {
        Files.createDirectory(fs.getPath("/" + f));
        for (Map.Entry<String, Object[]> c : frameChunks(f).entrySet()) {
            Object[] v = c.getValue();
            Path p = fs.getPath("/" + f + "/" + c.getKey());
            Files.createDirectories(p.getParent());
            GsdTestSupport.writeChunk(p, (String) v[0], (Integer) v[1], (byte[]) v[2]);
        }
        Files.setAttribute(fs.getPath("/" + f), "gsd:commit", true);
    }

    public static void main(String[] args) throws Exception {
        Path file = Paths.get(args[0]);
        try (FileSystem fs = GsdTestSupport.open(file, Map.of("create", "true"))) {
            int next = (Integer) Files.getAttribute(fs.getPath("/"), "gsd:frames");
            for (int f = next; ; f++) {
                appendFrame(fs, f);
                System.out.println("C " + f);
                System.out.flush();
            }
        }
    }
}
