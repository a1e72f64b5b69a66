package org.containerfs.core;

import java.io.IOException;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.OpenProgress;

/**
 * The format layer of the open path: the single call of a format's {@code open} or {@code create}, for every
 * container (a file, an input, a decompressed view). A read-only open goes through the persisted
 * {@link IndexCache}, which loads the format's index or saves the one its scan made; an env {@code progress} is
 * told how far the scan has read.
 */
final class FormatOpen {
    private FormatOpen() {}

    /** The format's scan (or, with {@code create}, creation) of the container of {@code source}. */
    static Container open(ContainerFormat format, ContainerSource source, boolean create) throws IOException {
        OpenProgress progress = OpenProgress.in(source.options().asMap());
        ContainerChannel channel = source.channel();
        if (progress != null) {
            channel.observeReads(new ScanProgress(progress, channel.size()));
        }
        try {
            if (create) {
                return format.create(source);
            }
            if (source.writable()) {
                return format.open(source); // a writer changes the index as it appends: no cache
            }
            return IndexCache.open(format, source, IndexCache.observer(source));
        } finally {
            if (progress != null) {
                channel.observeReads(null);
                progress.finished();
            }
        }
    }
}
