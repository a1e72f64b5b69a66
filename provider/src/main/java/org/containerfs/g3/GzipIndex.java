package org.containerfs.g3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.Content;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.storage.gzip.JavaInflater;
import org.containerfs.storage.gzip.NativeGzipScan;
import org.containerfs.storage.gzip.RestartIndex;

/**
 * A .g3.gz read in one pass: the frame index is built while the file is inflated once, and the restart
 * points of that same pass ({@link RestartIndex}, the storage layer's, which every other compressed
 * container reads through {@code GzipInput}) serve the reads. G3 keeps this one-pass open of its own because
 * its scan checks every frame's CRC and so reads all output: through the generic layer the first open would
 * inflate the file twice (restart points, then the frames). What is G3's here: the frame scan, {@code .zidx}
 * persistence and the lenient reading of damaged streams (frames before the damage are listed).
 */
final class GzipIndex implements G3Data {
    static final long DEFAULT_SPAN = RestartIndex.DEFAULT_SPAN;
    /** Largest frame a gzip scan accepts unless env maxFrameBytes says otherwise: what our writer can write. */
    static final long DEFAULT_MAX_FRAME = Integer.MAX_VALUE;

    private final ContainerChannel channel;
    private final String file;
    private final long span;
    private final RestartIndex points;
    private String persisted = "";
    /** Whether the scan ran on native zlib; else why it could not (damage: the Java inflater then names it). */
    private boolean nativeScan;
    private String fallback = "";

    private GzipIndex(ContainerChannel channel, String file, long span, long windowBudget) {
        this.channel = channel;
        this.file = file;
        this.span = span;
        this.points = new RestartIndex(channel, file, span, windowBudget);
    }

    static GzipIndex open(ContainerSource source, G3Index index) throws IOException {
        long span = source.options().getLong("gzipSpan", DEFAULT_SPAN);
        if (span < JavaInflater.WINDOW) {
            throw new IllegalArgumentException("env gzipSpan must be at least " + JavaInflater.WINDOW + " bytes, got " + span);
        }
        GzipIndex gz = new GzipIndex(source.channel(), source.name(), span, windowBudget(source));
        IndexStore store = IndexStore.of(source);
        if (store != null && store.load(gz, index)) {
            gz.persisted = "loaded " + store.location();
            return gz;
        }
        gz.scan(source, index);
        if (store != null) {
            gz.persisted = store.save(gz, index) ? "saved " + store.location() : "not saved (" + store.location() + ")";
        }
        return gz;
    }

    /**
     * An empty index for a snapshot of the index cache made with restart span {@code span}, or null
     * if this open asks for another span (its points would be spaced otherwise).
     */
    static GzipIndex open(ContainerSource source, G3Index index, long span) {
        long wanted = source.options().getLong("gzipSpan", DEFAULT_SPAN);
        return span == wanted ? new GzipIndex(source.channel(), source.name(), span, windowBudget(source)) : null;
    }

    /** env {@code gzipWindowMemory}: bytes all restart windows may take (docs/compressed.md), as for every format. */
    private static long windowBudget(ContainerSource source) {
        long budget = source.options().getLong("gzipWindowMemory", RestartIndex.DEFAULT_WINDOW_BUDGET);
        if (budget < 64 * 1024) {
            throw new IllegalArgumentException("env gzipWindowMemory must be at least 65536 bytes, got " + budget);
        }
        return budget;
    }

    void loadedFrom(String where) {
        persisted = "loaded from " + where;
    }

    /**
     * After an open served by the index cache: env gzipIndex/gzipIndexDir still asks for the {@code .zidx}
     * (a later open without the cache, another machine, reads it), so write it unless one already holds this index.
     */
    void persistAsAsked(ContainerSource source, G3Index index) throws IOException {
        IndexStore store = IndexStore.of(source);
        if (store != null && !store.holds(span)) {
            persisted += store.save(this, index) ? "; saved " + store.location() : "; not saved (" + store.location() + ")";
        }
    }

    private void scan(ContainerSource source, G3Index index) throws IOException {
        JavaInflater.Points collect = points.collector();
        long maxFrame = source.options().getLong("maxFrameBytes", DEFAULT_MAX_FRAME);
        if (source.options().getBoolean("gzipNative", true) && channel.size() > 0) {
            // native zlib for a sound stream; on anything else, start over with the Java inflater,
            // which names the damage exactly
            NativeGzipScan fast = new NativeGzipScan(channel, span, collect);
            try {
                index.scan(fast, source.strict(), maxFrame);
                points.scanned(fast.position(), null);
                nativeScan = true;
                return;
            } catch (NativeGzipScan.Unsupported e) {
                fast.close(); // its thread adds no more points
                fallback = e.getMessage();
                index.clear();
                points.clear();
            } finally {
                fast.close();
            }
        }
        JavaInflater inflater = new JavaInflater(channel, file, span, collect);
        index.scan(inflater, source.strict(), maxFrame);
        // the frame scan stops at the end of the decompressed stream, having read all of it
        String gzipDamage = inflater.damage();
        if (inflater.members() == 0 && channel.size() > 0) {
            throw new ContainerFormatException(file, 0, null, "a gzip member (magic 1f 8b, deflate)",
                    "a file of " + channel.size() + " bytes that does not start with one");
        }
        if (gzipDamage != null && source.strict()) {
            throw new ContainerFormatException(file, inflater.compressedEnd(), null, "a well-formed gzip stream", gzipDamage);
        }
        points.scanned(inflater.position(), gzipDamage);
    }

    /** The restart points (and members) of this file. */
    RestartIndex restart() {
        return points;
    }

    long streamSize() {
        return points.streamSize();
    }

    String gzipDamage() {
        return points.gzipDamage();
    }

    long span() {
        return span;
    }

    /** Forgets everything (a persisted index that failed to load half-way). */
    void clear() {
        points.clear();
    }

    long inflatedBytes() {
        return points.inflatedBytes();
    }

    void describe(Map<String, Object> a) {
        a.put("gzipMembers", points.members());
        a.put("restartPoints", points.points());
        a.put("restartSpan", span);
        a.put("gzipDamage", gzipDamage() == null ? "" : gzipDamage());
        a.put("restartIndex", persisted);
        a.put("gzipScan", persisted.startsWith("loaded") ? "" : nativeScan ? "native" : "java" + (fallback.isEmpty() ? "" : " (" + fallback + ")"));
        a.put("inflatedBytes", points.inflatedBytes());
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return points.read(dst, position);
    }

    @Override
    public Content range(long offset, long length, String label) {
        return new Content() {
            @Override
            public long size() {
                return length;
            }

            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                if (position >= length) {
                    return -1;
                }
                int want = (int) Math.min(dst.remaining(), length - position);
                if (want == 0) {
                    return 0;
                }
                ByteBuffer slice = dst.slice();
                slice.limit(want);
                int n = GzipIndex.this.read(slice, offset + position);
                if (n < want) {
                    throw new TruncatedDataException(file, offset + position + n, label,
                            "the " + length + " bytes it declares from stream byte " + offset,
                            "the decompressed stream ends at byte " + points.streamSize());
                }
                dst.position(dst.position() + n);
                return n;
            }
        };
    }

    @Override
    public void close() {
        points.close();
    }
}
