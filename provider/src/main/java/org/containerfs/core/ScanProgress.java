package org.containerfs.core;

import java.util.function.LongConsumer;
import org.containerfs.spi.OpenProgress;

/** Turns the read offsets of an opening scan into an {@link OpenProgress}'s furthest-byte reports. */
final class ScanProgress implements LongConsumer {
    private final OpenProgress listener;
    private final long total;
    private long furthest;

    ScanProgress(OpenProgress listener, long total) {
        this.listener = listener;
        this.total = total;
    }

    @Override
    public synchronized void accept(long readEnd) {
        if (readEnd > furthest) {
            furthest = readEnd;
            listener.scanned(readEnd, total);
        }
    }
}
