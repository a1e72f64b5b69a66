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
        return head.remaining() >= 4 && head.getInt(head.position()) == LimeHeader.MAGIC;
    }

    @Override
    public Container open(ContainerSource source) throws IOException {
        return new LimeContainer(source);
    }
}
