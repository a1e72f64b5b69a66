package org.containerfs.storage.gzip;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.InputIdentity;

/**
 * The decompressed bytes of a gzip file (RFC 1952; one member or several, as {@code cat a.gz b.gz} and bgzip
 * write them) as a {@link ContainerInput}: positional, thread-safe reads anywhere in the output, served from
 * the nearest {@link RestartIndex restart point} before the offset, so a read far into the file inflates at
 * most one span plus what it asks for.
 *
 * <p>Opening needs the output's length, so the first open inflates the whole file once (native zlib, finding
 * the deflate block boundaries ahead of it with {@link NativeGzipScan}; on anything zlib refuses, again with
 * the pure-Java {@link JavaInflater}, which names the damage and its compressed offset). That pass makes the
 * restart points; {@link #exportIndex()} gives them to be persisted (the core keeps them in its index cache,
 * beside the format's index) and {@link #open} takes them back, so a later open of the same bytes inflates
 * nothing before the format's first read.
 *
 * <p>Damage: a file that ends inside a member, corrupt deflate data or a member whose trailer (CRC-32, length)
 * does not match fails the open with a {@link ContainerFormatException} naming the file and the compressed
 * offset. Bytes after the last member that are no gzip member are ignored, as zcat ignores them, and shown in
 * {@link #describe()}. Memory is bounded whatever the output's size: the windows by the restart index's
 * budget, the scan by fixed buffers (a gzip bomb costs time, never heap).
 */
public final class GzipInput implements ContainerInput {
    private static final int MAGIC = 0x475A5250; // "GZRP"
    private static final int VERSION = 1;

    /**
     * How to open: {@code span} bytes of output between restart points, {@code windowBudget} bytes of windows
     * at most, {@code nativeScan}: whether the first pass tries native zlib before the Java inflater.
     */
    public record Settings(long span, long windowBudget, boolean nativeScan) {
        public static final Settings DEFAULT = new Settings(RestartIndex.DEFAULT_SPAN, RestartIndex.DEFAULT_WINDOW_BUDGET, true);
    }

    private final ContainerInput compressed;
    private final String name;
    private final ContainerChannel channel;
    private final RestartIndex index;
    private final Settings settings;
    private final long compressedSize;
    private String how = "";
    private long scanInflated;

    private GzipInput(ContainerInput compressed, String name, ContainerChannel channel, RestartIndex index, Settings settings,
            long compressedSize) {
        this.compressed = compressed;
        this.name = name;
        this.channel = channel;
        this.index = index;
        this.settings = settings;
        this.compressedSize = compressedSize;
    }

    /** Whether {@code head} (the first bytes of a file) starts a gzip member: 1f 8b, method 8 (deflate). */
    public static boolean isGzip(ByteBuffer head) {
        return head.remaining() >= 3 && (head.get(head.position()) & 0xFF) == 0x1F
                && (head.get(head.position() + 1) & 0xFF) == 0x8B && head.get(head.position() + 2) == 8;
    }

    /** The name of the compressed file's contents: without {@code .gz} (or {@code .gzip}); {@code .tgz} is no container. */
    public static String innerName(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        for (String ext : new String[] {".gz", ".gzip"}) {
            if (lower.endsWith(ext) && lower.length() > ext.length()) {
                return fileName.substring(0, fileName.length() - ext.length());
            }
        }
        return fileName;
    }

    /**
     * Opens the decompressed view of {@code compressed} (which it closes when closed, or when this fails).
     * {@code persisted}: what {@link #exportIndex()} gave for these same bytes, or null; a copy that is damaged,
     * inconsistent or made with other settings is ignored and the file scanned.
     */
    public static GzipInput open(ContainerInput compressed, Settings settings, byte[] persisted) throws IOException {
        return open(compressed, compressed.uri().toString(), settings, persisted);
    }

    /** As {@link #open(ContainerInput, Settings, byte[])}, naming the file {@code name} in messages (a path, say). */
    public static GzipInput open(ContainerInput compressed, String name, Settings settings, byte[] persisted)
            throws IOException {
        ContainerChannel channel = ContainerChannel.readOnly(compressed);
        try {
            long size = channel.size();
            GzipInput gz = new GzipInput(compressed, name, channel, newIndex(channel, name, settings), settings, size);
            if (persisted == null || !gz.load(persisted)) {
                gz.scan();
            }
            return gz;
        } catch (IOException | RuntimeException | Error e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static RestartIndex newIndex(ContainerChannel channel, String name, Settings settings) {
        return new RestartIndex(channel, name, settings.span(), settings.windowBudget());
    }

    private boolean load(byte[] persisted) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(persisted))) {
            if (in.readInt() != MAGIC || in.readInt() != VERSION || in.readLong() != settings.span()
                    || in.readLong() != compressedSize) {
                return false;
            }
            index.readFrom(in, persisted.length, compressedSize);
            if (in.read() != -1) {
                throw new IOException("bytes after the restart index");
            }
            how = "loaded";
            return true;
        } catch (IOException | RuntimeException e) {
            index.clear();
            return false;
        }
    }

    /** The one pass over the whole file that makes the restart points and learns the output's length. */
    private void scan() throws IOException {
        String fallback = "";
        if (settings.nativeScan() && compressedSize > 0) {
            NativeGzipScan fast = new NativeGzipScan(channel, settings.span(), index.collector());
            try {
                drain(fast);
                index.scanned(fast.position(), null);
                scanInflated = fast.position();
                how = "native";
                return;
            } catch (NativeGzipScan.Unsupported e) {
                fast.close(); // its thread adds no more points
                fallback = e.getMessage();
                index.clear();
            } finally {
                fast.close();
            }
        }
        JavaInflater inflater = new JavaInflater(channel, name, settings.span(), index.collector());
        drain(inflater);
        scanInflated = inflater.position();
        if (inflater.members() == 0) {
            throw new ContainerFormatException(name, 0, null, "a gzip member (magic 1f 8b, method 8: deflate)",
                    "no member in " + channel.size() + " bytes");
        }
        if (inflater.damage() != null && !inflater.trailingGarbageOnly()) {
            throw new ContainerFormatException(name, Math.max(0, inflater.damageOffset()), null,
                    "a complete gzip stream", inflater.damage());
        }
        index.scanned(inflater.position(), inflater.damage());
        how = "java" + (fallback.isEmpty() ? "" : " (" + fallback + ")");
    }

    /** Reads the whole decompressed stream once, keeping none of it. */
    private static void drain(BufferedSequentialReader reader) throws IOException {
        while (reader.skip(Long.MAX_VALUE, null) > 0) {
            // skip stops only at the end of the stream
        }
    }

    /** The restart points, to persist: {@link #open} takes them back for the same bytes and settings. */
    public byte[] exportIndex() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeLong(settings.span());
            out.writeLong(compressedSize);
            index.writeTo(out);
        }
        return bytes.toByteArray();
    }

    /** The compressed file this reads. */
    public ContainerInput compressed() {
        return compressed;
    }

    /** Bytes inflated by the opening pass: the output's length after a scan, 0 when the restart points were loaded. */
    public long scanInflatedBytes() {
        return scanInflated;
    }

    /** Whether the restart points came from a persisted copy (no scan). */
    public boolean restartPointsLoaded() {
        return how.equals("loaded");
    }

    /** Bytes inflated by reads since opening. */
    public long inflatedBytes() {
        return index.inflatedBytes();
    }

    /**
     * What the decompression layer did, for a root attribute view: members, restart points and their spacing,
     * how the opening pass ran ({@code native}, {@code java (why)}, {@code loaded}), bytes inflated.
     */
    public Map<String, Object> describe() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("compressedSize", compressedSize);
        a.put("size", index.streamSize());
        a.put("members", index.members());
        a.put("restartPoints", index.points());
        a.put("restartSpan", index.keptSpan());
        a.put("restartGapMax", index.maxGap());
        a.put("windowBytes", index.windowBytes());
        a.put("scan", how);
        a.put("scanInflatedBytes", scanInflated);
        a.put("inflatedBytes", index.inflatedBytes());
        a.put("damage", index.gzipDamage() == null ? "" : index.gzipDamage());
        return a;
    }

    @Override
    public URI uri() {
        return compressed.uri();
    }

    @Override
    public long size() {
        return index.streamSize();
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (position >= index.streamSize()) {
            return -1;
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        int n = index.read(dst, position);
        if (n == 0) {
            throw new ContainerFormatException(name, compressedSize, null, "decompressed byte " + position
                    + " of " + index.streamSize(), "no more bytes (the compressed file changed since it was opened)");
        }
        return n;
    }

    /** The compressed file's identity with the decompressed length: what the format's cached index is keyed by. */
    @Override
    public InputIdentity identity() throws IOException {
        InputIdentity c = compressed.identity();
        return new InputIdentity(c.uri(), index.streamSize(), c.version());
    }

    @Override
    public ContainerInput sibling(String fileName) throws IOException {
        return compressed.sibling(fileName);
    }

    @Override
    public FileTime lastModified() throws IOException {
        return compressed.lastModified();
    }

    /** Local: the compressed input's reads go through whatever cache it has; these are served by inflating. */
    @Override
    public boolean remote() {
        return false;
    }

    @Override
    public void close() throws IOException {
        index.close();
        channel.close();
    }

    @Override
    public String toString() {
        return "gzip:" + compressed;
    }
}
