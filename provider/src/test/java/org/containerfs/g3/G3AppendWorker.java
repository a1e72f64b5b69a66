package org.containerfs.g3;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

/** Run in a child JVM by {@link G3KillTest}: appends frames until it is killed, reporting each committed one. */
public final class G3AppendWorker {
    private G3AppendWorker() {}

    static double[] samples(int frame) {
        double[] d = new double[(frame % 40) * 500];
        for (int i = 0; i < d.length; i++) {
            d[i] = frame + i * 1e-3;
        }
        return d;
    }

    public static void main(String[] args) throws Exception {
        Path file = Paths.get(args[0]);
        try (FileSystem fs = G3TestSupport.open(file, Map.of("create", true))) {
            for (int f = 0; ; f++) {
                Path dir = Files.createDirectory(fs.getPath(String.format("/%06d.Scan", f)));
                if (f > 0) {
                    System.out.println("committed " + (f - 1));
                    System.out.flush();
                }
                G3Blobs.write(dir, "Index", new G3Value.IntValue(f));
                G3Blobs.write(dir, "Samples", new G3Value.VectorDouble(samples(f)));
            }
        }
    }
}
