package org.containerfs.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;

/**
 * The sink of a new file whose bytes stream straight into the container at a fixed place (after a
 * reserved header, say): writes are positional and sequential, never buffered. {@link #commit()}
 * runs once, on the first close.
 */
public abstract class AppendSink implements WritableByteChannel {
    private final ContainerChannel channel;
    private final long dataStart;
    private long written;
    private boolean open = true;

    /** Bytes go to {@code channel} from {@code dataStart} on. */
    protected AppendSink(ContainerChannel channel, long dataStart) {
        this.channel = channel;
        this.dataStart = dataStart;
    }

    /** Bytes written so far. */
    protected final long written() {
        return written;
    }

    /** Where the data starts in the container. */
    protected final long dataStart() {
        return dataStart;
    }

    @Override
    public final int write(ByteBuffer src) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        int n = src.remaining();
        channel.writeFully(src, dataStart + written);
        written += n;
        return n;
    }

    @Override
    public final boolean isOpen() {
        return open;
    }

    @Override
    public final void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        commit();
    }

    /** Makes the unit part of the container (padding, header, index...): the format's commit protocol. */
    protected abstract void commit() throws IOException;
}
