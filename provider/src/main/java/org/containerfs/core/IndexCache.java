package org.containerfs.core;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.zip.CRC32C;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.FormatOptions;
import org.containerfs.storage.InputIdentity;

/**
 * The persisted index cache: after a read-only open, what the format needs to list and locate the
 * container's units ({@link Container#exportIndex()}) is saved in a local directory, keyed by the
 * container's location and stamped with its {@link InputIdentity}. The next open of an unchanged
 * container reads the entry instead of scanning; a container that grew (appends) is accepted when
 * sampled bytes before the cached end are unchanged, and the format scans only the new tail; anything
 * else is scanned again and the entry replaced.
 *
 * <p>Where: env {@code indexCache=<directory>} or {@code indexCache=off}; else the system property
 * {@code containerfs.indexCache} (same values); else {@code $XDG_CACHE_HOME/containerfs/index}, else
 * {@code ~/.cache/containerfs/index}. Entries are written for containers of at least
 * {@code indexCacheMinSize} bytes (env, default 1 MiB: a smaller one scans in a few reads) and never
 * for a container modified in the last two seconds, whose modification time cannot yet tell a later
 * change apart (git's "racily clean" problem). Writable opens neither read nor write entries.
 *
 * <p>An entry is untrusted input. Its CRC-32C catches damage and truncation, its header names the
 * format and the container it belongs to (another one's is foreign), and the format checks the
 * snapshot's consistency when it reads it; whatever fails is ignored with a warning and the container
 * scanned. Entries are written to a temporary file in the directory and renamed into place, so a
 * reader never sees half an entry.
 */
final class IndexCache {
    static final String ENV = "indexCache";
    static final String MIN_SIZE_ENV = "indexCacheMinSize";
    static final String PROPERTY = "containerfs.indexCache";
    static final long DEFAULT_MIN_SIZE = 1 << 20;
    /** Bytes hashed at the start and before the end of the cached extent, to accept a grown container. */
    static final int SAMPLE = 4096;
    /** A container modified this recently may change again within its timestamp's granularity. */
    private static final long SETTLE_MILLIS = 2000;
    private static final long MAGIC = 0x4346_5349_4458_3031L; // "CFSIDX01"
    private static final int MAX_ENTRY = Integer.MAX_VALUE - 64;
    private static final String SUFFIX = ".cfsidx";
    private static final System.Logger LOG = System.getLogger(IndexCache.class.getName());

    /** How the last open through the cache went, per thread: tests and diagnostics. */
    enum Outcome { DISABLED, SCANNED, CACHED, CACHED_AND_TAIL }

    /** Cache directories where a save failed already. */
    private static final java.util.Set<Path> UNWRITABLE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static final ThreadLocal<Outcome> LAST = ThreadLocal.withInitial(() -> Outcome.DISABLED);

    private final Path dir;
    private final long minSize;

    private IndexCache(Path dir, long minSize) {
        this.dir = dir;
        this.minSize = minSize;
    }

    /** What the storage says about the container now, and whether that is settled enough to cache. */
    record Observed(InputIdentity identity, boolean settled) {}

    /** Supplies the container's current identity (asked before and after a scan). */
    interface Observer {
        Observed observe() throws IOException;
    }

    /** The cache the env selects, or null when it is off. */
    static IndexCache of(FormatOptions options) {
        String setting = options.getString(ENV, System.getProperty(PROPERTY));
        long minSize = options.getLong(MIN_SIZE_ENV, DEFAULT_MIN_SIZE);
        if (setting != null && setting.trim().equalsIgnoreCase("off")) {
            return null;
        }
        Path dir;
        try {
            if (setting != null && !setting.isBlank()) {
                dir = Path.of(setting.trim());
            } else {
                String xdg = System.getenv("XDG_CACHE_HOME");
                // the XDG spec: a relative value is invalid and to be ignored
                Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
                        ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
                dir = base.resolve("containerfs").resolve("index");
            }
        } catch (java.nio.file.InvalidPathException e) {
            LOG.log(Level.WARNING, "index cache: " + e.getMessage() + " is no directory; the cache is off");
            return null;
        }
        return new IndexCache(dir, minSize);
    }

    static Outcome lastOutcome() {
        return LAST.get();
    }

    Path directory() {
        return dir;
    }

    /**
     * The hook of a read-only open: the format's container, from the cache when an entry serves,
     * else by a scan whose result is then saved.
     */
    static Container open(ContainerFormat format, ContainerSource source, Observer observer) throws IOException {
        IndexCache cache = of(source.options());
        if (cache == null) {
            LAST.set(Outcome.DISABLED);
            return format.open(source);
        }
        return cache.openThrough(format, source, observer);
    }

    /**
     * The identity of what {@code source} reads: its input's identity (an object's ETag, a file's
     * modification time), or for a file on an NIO file system its absolute URI, size and modification time.
     */
    static Observer observer(ContainerSource source) {
        if (source.input() == null) {
            return pathObserver(source.path(), source.channel());
        }
        return () -> {
            InputIdentity identity = source.input().identity();
            return new Observed(identity, !isRecentTime(identity.version()));
        };
    }

    /** Whether a version is a time in milliseconds (a file's modification time) within the last seconds. */
    private static boolean isRecentTime(String version) {
        // an ETag or a Hadoop version is no number: it changes whenever the bytes do (and a thrown
        // NumberFormatException per open cost more than the check)
        if (version.isEmpty() || version.length() > 18) { // 18 digits always fit a long
            return false;
        }
        for (int i = 0; i < version.length(); i++) {
            if (version.charAt(i) < '0' || version.charAt(i) > '9') {
                return false;
            }
        }
        return Math.abs(System.currentTimeMillis() - Long.parseLong(version)) < SETTLE_MILLIS;
    }

    /** The identity of a container file on any NIO file system: absolute URI, size, modification time. */
    static Observer pathObserver(Path path, org.containerfs.spi.ContainerChannel channel) {
        return () -> {
            long size = channel.size();
            long modified = Files.getLastModifiedTime(path).toMillis();
            boolean settled = Math.abs(System.currentTimeMillis() - modified) >= SETTLE_MILLIS;
            URI uri = path.toAbsolutePath().normalize().toUri();
            return new Observed(new InputIdentity(uri, size, Long.toString(modified)), settled);
        };
    }

    /**
     * What storage says of {@code input} now: its identity, settled unless its version is a modification time
     * of the last seconds.
     */
    static Observed observe(org.containerfs.storage.ContainerInput input) throws IOException {
        InputIdentity identity = input.identity();
        return new Observed(identity, !isRecentTime(identity.version()));
    }

    /**
     * A layer's own entry below the format's (the restart points of a gzip file: {@code kind} "gzip"), for bytes of
     * exactly this identity; null when there is none, it is damaged or foreign, or it was made for other bytes.
     */
    byte[] loadLayer(String kind, InputIdentity identity) {
        Entry entry = read(entryFile(kind, identity.uri()), kind, identity.uri());
        if (entry == null || !entry.identity.equals(identity)) {
            return null;
        }
        byte[] bytes = new byte[entry.snapshot.remaining()];
        entry.snapshot.duplicate().get(bytes);
        return bytes;
    }

    /**
     * Saves a layer's entry (see {@link #loadLayer}) unless the bytes are smaller than {@code indexCacheMinSize} or
     * changed too recently; a failure is logged, never thrown.
     */
    void saveLayer(String kind, Observed observed, byte[] snapshot) {
        InputIdentity identity = observed.identity();
        if (!observed.settled() || identity.size() < minSize) {
            return;
        }
        try {
            write(entryFile(kind, identity.uri()), entry(kind, identity, new byte[32], snapshot));
        } catch (IOException | RuntimeException e) {
            Level level = UNWRITABLE.add(dir) ? Level.WARNING : Level.DEBUG;
            LOG.log(level, "index cache: could not save the " + kind + " index of " + identity.uri() + " in " + dir
                    + " (" + e.getMessage() + ")");
        }
    }

    /**
     * The provider of the one format whose entry was made for exactly {@code input}'s identity (only {@code requested}'s
     * when given), so that the open can skip reading the head to detect the format; null when the cache is off, no
     * entry or more than one matches, the input is empty, or its identity is unknown. The entry's identity includes
     * the store's version (an S3 ETag): a changed object has another and is detected and scanned as usual. An input
     * with an entry of the gzip layer for that identity is compressed: its format entry describes the inflated
     * bytes, and detection goes through the decompression layer (null).
     */
    static ContainerFileSystemProvider formatOfEntry(FormatOptions options, org.containerfs.storage.ContainerInput input,
            String requested) {
        IndexCache cache = of(options);
        if (cache == null) {
            return null;
        }
        InputIdentity identity;
        try {
            identity = input.identity();
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (identity.size() == 0) {
            return null;
        }
        ContainerFileSystemProvider found = null;
        for (ContainerFileSystemProvider p : ContainerFileSystems.providers()) {
            if (requested != null && !p.getScheme().equalsIgnoreCase(requested)) {
                continue;
            }
            String format = p.format().name();
            Entry entry = read(cache.entryFile(format, identity.uri()), format, identity.uri()); // null if none
            if (entry != null && entry.identity.equals(identity)) {
                if (found != null) {
                    return null; // two formats claim these bytes: detection decides
                }
                found = p;
            }
        }
        if (found != null && cache.loadLayer(Decompression.KIND, identity) != null) {
            return null;
        }
        return found;
    }

    private Container openThrough(ContainerFormat format, ContainerSource source, Observer observer) throws IOException {
        Observed before;
        try {
            before = observer.observe();
        } catch (IOException | RuntimeException e) {
            // a file system without modification times, say: no identity, no cache
            LOG.log(Level.DEBUG, () -> "index cache: no identity for " + source.name() + " (" + e + ")");
            LAST.set(Outcome.DISABLED);
            return format.open(source);
        }
        Path file = entryFile(format.name(), before.identity().uri());
        Entry entry = read(file, format.name(), before.identity().uri());
        if (entry != null) {
            Container cached = fromEntry(format, source, entry, before.identity());
            if (cached != null) {
                boolean exact = entry.identity.equals(before.identity());
                LAST.set(exact ? Outcome.CACHED : Outcome.CACHED_AND_TAIL);
                if (!exact) {
                    save(file, format.name(), source, cached, before, observer);
                }
                return cached;
            }
        }
        Container scanned = format.open(source);
        LAST.set(Outcome.SCANNED);
        save(file, format.name(), source, scanned, before, observer);
        return scanned;
    }

    /** The container from a cache entry, or null when the entry cannot serve (changed container, bad snapshot). */
    private Container fromEntry(ContainerFormat format, ContainerSource source, Entry entry, InputIdentity now) {
        InputIdentity was = entry.identity;
        try {
            boolean unchanged = was.equals(now);
            if (!unchanged) {
                if (was.size() >= now.size() || !Arrays.equals(entry.sample, sample(source, was.size()))) {
                    LOG.log(Level.DEBUG, () -> "index cache: " + now.uri() + " changed since its entry, scanning it again");
                    return null;
                }
            }
            return format.openFromIndex(source, entry.snapshot.duplicate(), was.size());
        } catch (IOException | RuntimeException e) {
            // a crafted or stale snapshot: never trusted, and never a reason for the open to fail
            LOG.log(Level.WARNING, "index cache: ignoring the entry of " + now.uri() + " (" + e.getMessage()
                    + "), scanning the container instead");
            return null;
        }
    }

    private void save(Path file, String format, ContainerSource source, Container container, Observed before,
            Observer observer) {
        InputIdentity identity = before.identity();
        if (!before.settled() || identity.size() < minSize) {
            return;
        }
        try {
            byte[] snapshot = container.exportIndex();
            if (snapshot == null) {
                return;
            }
            Observed after = observer.observe();
            if (!after.identity().equals(identity)) {
                return; // it changed while being scanned: the snapshot may describe neither state
            }
            write(file, entry(format, identity, sample(source, identity.size()), snapshot));
        } catch (IOException | RuntimeException e) {
            // once per directory at WARNING (a read-only home would warn at every open), then DEBUG
            Level level = UNWRITABLE.add(dir) ? Level.WARNING : Level.DEBUG;
            LOG.log(level, "index cache: could not save the index of " + identity.uri() + " in " + dir
                    + " (" + e.getMessage() + ")");
        }
    }

    /** SHA-256 of the first and the last {@link #SAMPLE} bytes of the container's first {@code size} bytes. */
    static byte[] sample(ContainerSource source, long size) throws IOException {
        MessageDigest sha = sha256();
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(SAMPLE, size));
        source.channel().readFully(buf, 0);
        sha.update(buf.flip());
        long tail = Math.max(0, size - SAMPLE);
        buf.clear().limit((int) Math.min(SAMPLE, size - tail));
        source.channel().readFully(buf, tail);
        sha.update(buf.flip());
        return sha.digest();
    }

    private Path entryFile(String format, URI uri) {
        MessageDigest sha = sha256();
        sha.update(format.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(uri.toString().getBytes(StandardCharsets.UTF_8));
        String name = HexFormat.of().formatHex(sha.digest(), 0, 16);
        return dir.resolve(format.toLowerCase(Locale.ROOT) + "-" + name + SUFFIX);
    }

    /** Cloned for each use: a provider lookup per open ({@code getInstance}) cost more than the hash itself. */
    private static final MessageDigest SHA256_PROTOTYPE = newSha256();

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA256_PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return newSha256();
        }
    }

    /** A decoded entry: the identity it was made for, its sample hash and the format's snapshot. */
    private record Entry(InputIdentity identity, byte[] sample, ByteBuffer snapshot) {}

    /**
     * An entry, in the order it is written: its {@link #head}, the snapshot itself (not copied: 20 MB for a big
     * .g3.gz) and the {@link #checksum} of both.
     */
    static byte[][] entry(String format, InputIdentity identity, byte[] sample, byte[] snapshot) throws IOException {
        byte[] head = head(format, identity, sample, snapshot.length);
        return new byte[][] {head, snapshot, checksum(head, snapshot)};
    }

    /** What precedes the snapshot's bytes in an entry, its length last. */
    private static byte[] head(String format, InputIdentity identity, byte[] sample, int snapshotLength) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeLong(MAGIC);
        writeString(out, format);
        writeString(out, identity.uri().toString());
        out.writeLong(identity.size());
        writeString(out, identity.version());
        out.write(sample);
        out.writeInt(snapshotLength);
        out.flush();
        return bytes.toByteArray();
    }

    /** The entry's last four bytes: the CRC-32C of its head and snapshot. */
    private static byte[] checksum(byte[] head, byte[] snapshot) {
        CRC32C crc = new CRC32C();
        crc.update(head);
        crc.update(snapshot);
        return ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /** The entry in {@code file} if it is sound and belongs to this container; null (with a warning if it was bad) if not. */
    private static Entry read(Path file, String format, URI uri) {
        byte[] raw;
        try {
            try (java.nio.channels.SeekableByteChannel in = Files.newByteChannel(file)) { // one open, no stat
                long size = in.size();
                if (size > MAX_ENTRY) {
                    throw new IOException("entry of " + size + " bytes");
                }
                ByteBuffer all = ByteBuffer.allocate((int) size);
                while (all.hasRemaining() && in.read(all) >= 0) {
                    // reads until the size seen at open
                }
                raw = all.hasRemaining() ? java.util.Arrays.copyOf(all.array(), all.position()) : all.array();
            }
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "index cache: cannot read " + file + " (" + e.getMessage() + "), ignoring it");
            return null;
        }
        try {
            return decode(raw, format, uri);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "index cache: ignoring " + file + ": " + e.getMessage());
            return null;
        }
    }

    static Entry decode(byte[] raw, String format, URI uri) throws IOException {
        if (raw.length < 12) {
            throw new IOException("truncated entry of " + raw.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(raw, 0, raw.length - 4);
        ByteBuffer in = ByteBuffer.wrap(raw);
        if (in.getLong(0) != MAGIC) {
            throw new IOException("not an index cache entry (magic)");
        }
        if (in.getInt(raw.length - 4) != (int) crc.getValue()) {
            throw new IOException("checksum mismatch (damaged or truncated entry)");
        }
        try {
            in.position(8).limit(raw.length - 4);
            String entryFormat = readString(in);
            String entryUri = readString(in);
            if (!entryFormat.equals(format) || !entryUri.equals(uri.toString())) {
                throw new IOException("a foreign entry (" + entryFormat + " index of " + entryUri + ")");
            }
            long size = in.getLong();
            String version = readString(in);
            byte[] sample = new byte[32];
            in.get(sample);
            int length = in.getInt();
            if (length < 0 || length != in.remaining()) {
                throw new IOException("snapshot length " + length + " does not match the entry");
            }
            ByteBuffer snapshot = in.slice().asReadOnlyBuffer();
            return new Entry(new InputIdentity(uri, size, version), sample, snapshot);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new IOException("malformed entry header", e);
        }
    }

    private static String readString(ByteBuffer in) throws IOException {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new IOException("bad string length " + n);
        }
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Writes {@code parts} in order to a temporary file beside {@code file} and renames it into place. */
    private void write(Path file, byte[]... parts) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            try (java.io.OutputStream out = Files.newOutputStream(tmp)) {
                for (byte[] part : parts) {
                    out.write(part);
                }
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
