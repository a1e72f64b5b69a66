package org.containerfs.scda;

import org.containerfs.core.ContainerFileSystems;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

/**
 * Child process of {@link ScdaKillTest}: appends sections forever (B, encoded B, A, encoded V in
 * turn), printing "committed N" after each commit, until it is killed.
 */
public final class ScdaAppendLoop {
    private ScdaAppendLoop() {}

    static byte[] payload(int section, int element, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) ("scda\n".charAt((i + section + element) % 5) + (i / 977 + section) % 3);
        }
        return b;
    }

    static int size(int section) {
        return 100_000 + 37 * section;
    }

    public static void main(String[] args) throws Exception {
        Path file = Paths.get(args[0]);
        ScdaFileSystemProvider provider = new ScdaFileSystemProvider();
        try (FileSystem fs = provider.newFileSystem(file, Map.of("create", true))) {
            for (int k = 0; ; k++) {
                String n = String.format("%04d", k);
                switch (k % 4) {
                    case 0, 1 -> {
                        Path p = fs.getPath("/" + n + ".B.block " + k);
                        try (OutputStream out = k % 4 == 0 ? Files.newOutputStream(p)
                                : java.nio.channels.Channels.newOutputStream(Files.newByteChannel(p,
                                        java.util.Set.of(java.nio.file.StandardOpenOption.CREATE_NEW,
                                                java.nio.file.StandardOpenOption.WRITE),
                                        ContainerFileSystems.attribute("scda:encode", true)))) {
                            byte[] data = payload(k, 0, size(k));
                            for (int off = 0; off < data.length; off += 10_000) {
                                out.write(data, off, Math.min(10_000, data.length - off));
                            }
                        }
                    }
                    default -> {
                        Path d = fs.getPath("/" + n + "." + (k % 4 == 2 ? "A" : "V") + ".array " + k);
                        if (k % 4 == 2) {
                            Files.createDirectory(d);
                        } else {
                            Files.createDirectory(d, ContainerFileSystems.attribute("scda:encode", true));
                        }
                        for (int e = 0; e < 20; e++) {
                            Files.write(d.resolve(String.format("%06d", e)), payload(k, e, k % 4 == 2 ? 5000 : 5000 + e));
                        }
                        Files.setAttribute(d, "scda:commit", true);
                    }
                }
                System.out.println("committed " + k);
                System.out.flush();
            }
        }
    }
}
