package org.containerfs.lime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;

/** LIME (SciDAC/ILDG lattice QCD): records with 144-byte big-endian headers, grouped into messages. */
public final class LimeFormat implements ContainerFormat {

    @Override
    public String name() {
        return "lime";
    }

    @Override
    public List<String> fileExtensions() {
        return List.of("lime", "ildg");
    }

    @Override
    public boolean probe(ByteBuffer head, String fileName) {
        // The magic alone: a version other than 1 must reach open() and fail there with its own error.
        if (head.remaining() >= 4 && head.getInt(head.position()) == LimeHeader.MAGIC) {
            return true;
        }
        // A .lime file whose very first append was torn starts with the writer's reserved zero header.
        return hasLimeName(fileName) && head.remaining() > 0 && allZero(head, Math.min(head.remaining(), LimeHeader.SIZE));
    }

    private boolean hasLimeName(String fileName) {
        String lower = fileName.toLowerCase(java.util.Locale.ROOT);
        return fileExtensions().stream().anyMatch(ext -> lower.endsWith("." + ext));
    }

    private static boolean allZero(ByteBuffer head, int count) {
        for (int i = 0; i < count; i++) {
            if (head.get(head.position() + i) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Container open(ContainerSource source) throws IOException {
        return new LimeContainer(source);
    }

    @Override
    public Container openFromIndex(ContainerSource source, ByteBuffer snapshot, long snapshotSize) throws IOException {
        return LimeContainer.fromSnapshot(source, snapshot, snapshotSize);
    }
}
