package org.containerfs.differential;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.containerfs.core.ContainerFileSystems;

/**
 * The decompression layer: every input gzipped ({@code <name>.gz}, docs/compressed.md) and opened as any
 * container is, walked through java.nio. Its answer must be the plain file's: the layer below the formats
 * changes where the bytes come from, never what they say (a damaged container is damaged the same way).
 */
final class GzipDoor implements Door {
    private final Path work;

    GzipDoor(Path work) throws IOException {
        this.work = Files.createDirectories(work.resolve("gzip-door"));
    }

    @Override
    public String name() {
        return "gzip";
    }

    @Override
    public Answer answer(Input input) throws Exception {
        Path gz = Files.createDirectories(work.resolve(input.format())).resolve(input.fileName() + ".gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz), 1 << 16)) {
            Files.copy(input.file(), out);
        }
        return NioWalk.openAndWalk(() -> ContainerFileSystems.open(gz));
    }
}
