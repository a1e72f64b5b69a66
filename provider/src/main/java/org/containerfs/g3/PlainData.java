package org.containerfs.g3;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.containerfs.spi.ByteRangeContent;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.Content;

/** An uncompressed .g3: positional reads of the container file, zero-copy ranges. */
final class PlainData implements G3Data {
    private final ContainerChannel channel;

    PlainData(ContainerChannel channel) {
        this.channel = channel;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return channel.readUpTo(dst, position);
    }

    @Override
    public Content range(long offset, long length, String label) {
        return ByteRangeContent.stored(channel, offset, length, label);
    }
}
