package org.containerfs.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.FormatOptions;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.gzip.GzipInput;
import org.containerfs.storage.gzip.RestartIndex;

/**
 * The decompression layer of the open path: bytes (a file, an object) → decompression → detection → format.
 * A container whose first bytes are a gzip member that no format claims as it is (G3 reads its .g3.gz in one
 * pass of its own) is read through a {@link GzipInput}: the format sees the decompressed bytes, with random
 * access through restart points, and the inner name ({@code conf.lime} of {@code conf.lime.gz}) stands for the
 * file name wherever detection uses one. The restart points are kept in the index cache ({@code gzip-*.cfsidx},
 * beside the format's entry) so that a later open of the same bytes inflates nothing to find them.
 *
 * <p>env: {@code gzipSpan} (bytes of output between restart points, default 4 MiB, at least 32 KiB),
 * {@code gzipWindowMemory} (bytes all restart windows may take, default 64 MiB; past it the points are
 * thinned), {@code gzipNative} (default true: the first pass uses native zlib, falling back to the Java
 * inflater on damage, which then names it).
 */
final class Decompression {
    static final String KIND = "gzip";

    private Decompression() {}

    static GzipInput.Settings settings(FormatOptions options) {
        long span = options.getLong("gzipSpan", RestartIndex.DEFAULT_SPAN);
        long budget = options.getLong("gzipWindowMemory", RestartIndex.DEFAULT_WINDOW_BUDGET);
        if (span < 32 * 1024) {
            throw new IllegalArgumentException("env gzipSpan must be at least 32768 bytes, got " + span);
        }
        if (budget < 64 * 1024) {
            throw new IllegalArgumentException("env gzipWindowMemory must be at least 65536 bytes, got " + budget);
        }
        return new GzipInput.Settings(span, budget, options.getBoolean("gzipNative", true));
    }

    /**
     * The first bytes of the decompressed stream (at most {@link ContainerFormat#PROBE_BYTES}), for detection:
     * inflated from the start with no index; a stream damaged within them gives what came before the damage.
     */
    static ByteBuffer innerHead(ContainerChannel compressed) {
        byte[] head = new byte[ContainerFormat.PROBE_BYTES];
        int n = 0;
        try (InputStream in = new GZIPInputStream(new ChannelStream(compressed), 8192)) {
            int k;
            while (n < head.length && (k = in.read(head, n, head.length - n)) > 0) {
                n += k;
            }
        } catch (IOException | RuntimeException damaged) {
            // judged on what was inflated; the full pass names the damage
        }
        return ByteBuffer.wrap(head, 0, n);
    }

    /**
     * The decompressed view of {@code compressed}, its restart points from the index cache when an entry for these
     * exact bytes is there, else from a scan whose points are then saved. Closes {@code compressed} if it fails.
     */
    static GzipInput open(ContainerInput compressed, String name, FormatOptions options) throws IOException {
        GzipInput.Settings settings;
        try {
            settings = settings(options);
        } catch (RuntimeException e) {
            compressed.close();
            throw e;
        }
        IndexCache cache = IndexCache.of(options);
        IndexCache.Observed observed = null;
        byte[] persisted = null;
        if (cache != null) {
            try {
                observed = IndexCache.observe(compressed);
                persisted = cache.loadLayer(KIND, observed.identity());
            } catch (IOException | RuntimeException noIdentity) {
                observed = null; // no identity, no cache
            }
        }
        GzipInput gz = GzipInput.open(compressed, name, settings, persisted);
        if (cache != null && observed != null && !gz.restartPointsLoaded()) {
            cache.saveLayer(KIND, observed, gz.exportIndex());
        }
        return gz;
    }

    /** Sequential reads of a channel from byte 0, for the head's inflater. */
    private static final class ChannelStream extends InputStream {
        private final ContainerChannel channel;
        private long position;

        ChannelStream(ContainerChannel channel) {
            this.channel = channel;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int n = channel.read(ByteBuffer.wrap(b, off, len), position);
            if (n > 0) {
                position += n;
            }
            return n;
        }
    }
}
