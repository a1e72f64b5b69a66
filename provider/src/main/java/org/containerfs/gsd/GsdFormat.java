package org.containerfs.gsd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.FormatOptions;

/**
 * GSD (HOOMD-blue's General Simulation Data): a 256-byte header, an index of 32-byte entries and a
 * name list; chunks are raw little-endian arrays. env options: {@code hoomd=true} (frame-0 fallback
 * view), {@code sync=true} (fsync at each commit), and for {@code create=true}: {@code application},
 * {@code schema}, {@code schemaVersion} ("major.minor").
 */
public final class GsdFormat implements ContainerFormat {

    @Override
    public String name() {
        return "gsd";
    }

    @Override
    public List<String> fileExtensions() {
        return List.of("gsd");
    }

    @Override
    public boolean probe(ByteBuffer head, String fileName) {
        // The magic alone: a bad version must reach open() and fail there with its own error.
        return head.remaining() >= 8 && head.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(head.position()) == GsdHeader.MAGIC;
    }

    @Override
    public Container open(ContainerSource source) throws IOException {
        return new GsdContainer(source);
    }

    /** gsd_initialize_file's layout: header, 128 empty index slots at 256, a 1 KiB name list at 4352. */
    @Override
    public Container create(ContainerSource source) throws IOException {
        FormatOptions o = source.options();
        GsdHeader h = new GsdHeader();
        h.version = GsdHeader.V2_0;
        h.application = GsdHeader.utf8(o.getString("application", "containerfs"));
        h.schema = GsdHeader.utf8(o.getString("schema", "none"));
        h.schemaVersion = GsdHeader.parseVersion(o.getString("schemaVersion", "0.0"));
        h.indexLocation = GsdHeader.SIZE;
        h.indexAllocated = GsdHeader.INITIAL_INDEX_ENTRIES;
        h.namelistLocation = GsdHeader.SIZE + GsdHeader.INITIAL_INDEX_ENTRIES * GsdHeader.ENTRY_SIZE;
        h.namelistAllocated = GsdHeader.INITIAL_NAMELIST_BYTES / GsdHeader.NAME_SLOT;
        ByteBuffer file = ByteBuffer.allocate((int) (h.namelistLocation + GsdHeader.INITIAL_NAMELIST_BYTES));
        file.put(h.encode());
        file.clear();
        source.channel().writeFully(file, 0);
        if (o.getBoolean("sync", false)) {
            source.channel().force(true);
        }
        return open(source);
    }
}
