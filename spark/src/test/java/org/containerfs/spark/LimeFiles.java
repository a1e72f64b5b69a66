package org.containerfs.spark;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.containerfs.core.ContainerFileSystems;

/** Test containers written through the provider's own LIME writer. */
final class LimeFiles {
    private LimeFiles() {}

    /** {@code records} records of {@code bytes} bytes each in one message, contents distinct per file and record. */
    static Path write(Path file, int records, int bytes) throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(file, "lime")) {
            Files.createDirectory(fs.getPath("/msg01"));
            for (int r = 1; r <= records; r++) {
                byte[] payload = new byte[bytes];
                for (int i = 0; i < bytes; i++) {
                    payload[i] = (byte) (i * 31 + r * 7 + file.getFileName().hashCode());
                }
                Files.write(fs.getPath("/msg01", String.format("rec%02d.data-%d", r, r % 3)), payload,
                        StandardOpenOption.CREATE_NEW);
            }
        }
        return file;
    }
}
