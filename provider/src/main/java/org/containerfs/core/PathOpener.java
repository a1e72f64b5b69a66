package org.containerfs.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.FormatOptions;
import org.containerfs.spi.OpenProgress;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.PathInput;
import org.containerfs.storage.gzip.GzipInput;
import org.containerfs.storage.gzip.ReadOnlyCompressedException;

/**
 * Opens a container file on any NIO file system: the one place where detection, the writer's locks,
 * registration and the format's open happen, for every provider.
 *
 * <p>Open once: one stat of the file, one channel, one read of its head. When
 * {@code FileSystems.newFileSystem(path)} asks our providers in turn, the first one asked detects the
 * format from that head and hands the same channel to the format that claims it, so the others are
 * never asked (on an object store: one HEAD and one GET to know format and size).
 *
 * <p>Where a persisted index would be loaded and saved: {@link #openContainer}, the single call of a
 * format's {@code open}/{@code create} for files ({@link InputOpener} does the same for inputs).
 */
final class PathOpener {
    private PathOpener() {}

    /** A parsed env: what the caller asked for. */
    private record Request(FormatOptions options, boolean create, boolean writable, String format, boolean byUri) {
        static Request of(Map<String, ?> env, boolean byUri) {
            FormatOptions options = new FormatOptions(env);
            boolean create = options.getBoolean("create", false);
            String accessMode = options.getString("accessMode", create ? "readWrite" : "readOnly");
            boolean writable;
            if (accessMode.equals("readWrite")) {
                writable = true;
            } else if (accessMode.equals("readOnly")) {
                writable = false;
            } else {
                throw new IllegalArgumentException("env accessMode must be readOnly or readWrite, got " + accessMode);
            }
            if (create && !writable) {
                throw new IllegalArgumentException("env create=true cannot be combined with accessMode=readOnly");
            }
            return new Request(options, create, writable, options.getString("format", null), byUri);
        }
    }

    /** @param byUri whether the caller opened it by its URI (see {@link FileSystemRegistry}) */
    static ContainerFileSystem open(ContainerFileSystemProvider asked, Path path, Map<String, ?> env, boolean byUri)
            throws IOException {
        Request request = Request.of(env, byUri);
        ContainerFormat format = asked.format();
        if (request.format() != null && !request.format().equalsIgnoreCase(format.name())) {
            throw new UnsupportedOperationException(path + ": format " + request.format() + " requested, this is "
                    + format.name());
        }
        String fileName = String.valueOf(path.getFileName());
        boolean selected = request.format() != null || FormatDetection.hasExtension(format, fileName);
        BasicFileAttributes attributes = statOrNull(path);
        if (attributes == null) {
            if (request.create() && isGzipName(fileName) && !format.fileExtensions().stream()
                    .anyMatch(ext -> ext.toLowerCase(java.util.Locale.ROOT).endsWith("gz"))) {
                throw new ReadOnlyCompressedException(path.toString(), "creating a container with a .gz name");
            }
            if (!selected) {
                throw new UnsupportedOperationException(path + " does not exist and is not a " + format.name() + " name");
            }
            if (!request.create()) {
                throw new NoSuchFileException(path.toString(), null, "no such container (env create=true makes one)");
            }
            WriteSupport.check(path, false);
            return openFile(asked, path, request, null, null, null);
        }
        if (!attributes.isRegularFile()) {
            // a directory is nobody's container: let FileSystems.newFileSystem ask the next provider
            if (!selected) {
                throw new UnsupportedOperationException(path + " is not a regular file");
            }
            throw new FileSystemException(path.toString(), null, "not a regular file: a " + format.name()
                    + " container is a file");
        }
        // detection reads through a read-only channel: nothing that could change the file is opened
        // before a format claims it; a read-only open goes on with that same channel
        ContainerChannel channel = null;
        try {
            ByteBuffer head = ByteBuffer.allocate(ContainerFormat.PROBE_BYTES);
            if (!request.writable() && blockCache(path, request.options())) {
                BlockCachedInput cached = new BlockCachedInput(PathInput.of(path, true),
                        BlockCacheSettings.of(request.options()));
                channel = ContainerChannel.readOnly(cached);
                cached.readHead(head);
            } else {
                channel = ContainerChannel.open(path, openOptions(false));
                channel.readUpTo(head, 0);
            }
            head.flip();
            if (GzipInput.isGzip(head) && !claimedAsItIs(asked, head, fileName, request)) {
                ContainerChannel compressed = channel;
                channel = null;
                return openDecompressed(asked, path, request, attributes, compressed);
            }
            ContainerFileSystemProvider claimer = claimer(asked, head, fileName, selected, request, path);
            if (request.writable()) {
                channel.close();
                channel = null;
                WriteSupport.check(path, true);
            }
            return openFile(claimer, path, request, attributes, channel, null);
        } catch (IOException | RuntimeException | Error e) {
            if (channel != null) {
                closeQuietly(channel, e);
            }
            throw e;
        }
    }

    /** Whether a format reads this gzip file itself (G3's .g3.gz): the requested one, or any of ours. */
    private static boolean claimedAsItIs(ContainerFileSystemProvider asked, ByteBuffer head, String fileName,
            Request request) {
        if (request.format() != null) {
            return asked.format().probe(head.duplicate(), fileName);
        }
        return FormatDetection.detect(head, fileName) != null;
    }

    static boolean isGzipName(String fileName) {
        return !GzipInput.innerName(fileName).equals(fileName);
    }

    /**
     * The decompression layer (see {@link Decompression}): detection on the first decompressed bytes and the inner
     * name, refusal of a writable open, then the format on a {@link GzipInput} over the file. {@code compressed} is
     * the read-only channel detection used; it is closed here.
     */
    private static ContainerFileSystem openDecompressed(ContainerFileSystemProvider asked, Path path, Request request,
            BasicFileAttributes attributes, ContainerChannel compressed) throws IOException {
        ContainerChannel decompressed = null;
        try {
            String innerName = GzipInput.innerName(String.valueOf(path.getFileName()));
            ByteBuffer head = Decompression.innerHead(compressed);
            boolean selected = request.format() != null || FormatDetection.hasExtension(asked.format(), innerName);
            ContainerFileSystemProvider claimer = claimer(asked, head, innerName, selected, request, path);
            if (request.writable()) {
                throw new ReadOnlyCompressedException(path.toString(), "env accessMode=readWrite");
            }
            // an object store's file was read through the block cache for detection: the inflater reads through one too
            ContainerInput input = compressed.readsInput()
                    ? new BlockCachedInput(PathInput.of(path, true), BlockCacheSettings.of(request.options()))
                    : PathInput.of(path);
            compressed.close();
            compressed = null;
            GzipInput gz = Decompression.open(input, path.toString(), request.options());
            decompressed = ContainerChannel.readOnly(gz);
            ContainerFileSystem fs = openFile(claimer, path, request, attributes, decompressed, innerName);
            fs.decompressedBy(gz);
            return fs;
        } catch (IOException | RuntimeException | Error e) {
            if (compressed != null) {
                closeQuietly(compressed, e);
            }
            if (decompressed != null) {
                closeQuietly(decompressed, e);
            }
            throw e;
        }
    }

    /**
     * Which provider opens the file: the one asked if its format claims the head (or the file is
     * empty and named or requested for it); else, unless a format was requested, whichever of our
     * formats does, so that no other provider of ours reads the head again.
     */
    private static ContainerFileSystemProvider claimer(ContainerFileSystemProvider asked, ByteBuffer head,
            String fileName, boolean selected, Request request, Path path) throws IOException {
        ContainerFormat format = asked.format();
        if (format.probe(head.duplicate(), fileName) || (head.remaining() == 0 && selected)) {
            return asked;
        }
        if (request.format() != null) {
            throw new ContainerFormatException(path.toString(), 0, null,
                    "a " + format.name() + " container", "no " + format.name() + " magic bytes");
        }
        ContainerFileSystemProvider other = FormatDetection.detect(head, fileName);
        if (other == null || head.remaining() == 0) {
            throw new UnsupportedOperationException(path + " is not a " + format.name() + " container");
        }
        return other;
    }

    /**
     * env {@code blockCache}: whether a read-only open reads the file through the block cache, as a
     * remote input. Default: for object stores reached through an NIO provider ({@code s3}, {@code s3x},
     * {@code gs} paths), whose objects are replaced whole and never changed in place, so cached
     * bytes cannot go stale; never for a local file, whose FileChannel is read directly.
     */
    static boolean blockCache(Path path, FormatOptions options) {
        String scheme = path.getFileSystem().provider().getScheme().toLowerCase(java.util.Locale.ROOT);
        return options.getBoolean("blockCache", OBJECT_STORE_SCHEMES.contains(scheme));
    }

    private static final Set<String> OBJECT_STORE_SCHEMES = Set.of("s3", "s3x", "s3a", "gs");

    private static BasicFileAttributes statOrNull(Path path) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static Set<StandardOpenOption> openOptions(boolean writable) {
        return writable
                ? EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE)
                : EnumSet.of(StandardOpenOption.READ);
    }

    /**
     * Opens the container with {@code provider}'s format, through {@code detected} if detection already
     * opened one, else through one made here; {@code existing} is the file's stat (null: a new container);
     * {@code contentsName}: for a decompressed container, the name of its contents (else null). Takes the writer's slot and
     * lock, and registers the file system.
     */
    private static ContainerFileSystem openFile(ContainerFileSystemProvider provider, Path path, Request request,
            BasicFileAttributes existing, ContainerChannel detected, String contentsName) throws IOException {
        boolean exists = existing != null;
        FileSystemRegistry registry = provider.registry();
        ContainerFormat format = provider.format();
        if (request.writable()) {
            registry.claimWriting(path);
        }
        ContainerChannel channel = detected;
        FileLock lock = null;
        try {
            // A format that builds a new container beside the target gets a locked staging sibling instead.
            String stagingName = exists ? null : format.creationStagingName(String.valueOf(path.getFileName()));
            if (channel == null) {
                Path channelPath = stagingName == null ? path : path.resolveSibling(stagingName);
                channel = ContainerChannel.open(channelPath, openOptions(request.writable()));
            }
            if (request.writable()) {
                lock = lockForWriting(channel, path);
            }
            ContainerSource source = new ContainerSource(path, channel, request.options(), request.writable(),
                    () -> request.writable() || WriteSupport.allowsWritesBeside(path));
            if (contentsName != null) {
                source.contentsNamed(contentsName);
            }
            boolean empty = request.writable() && (stagingName != null || channel.size() == 0);
            Container container = openContainer(format, source, empty);
            // an object behind the block cache is not watched for growth unless asked: every check is a request
            boolean refresh = request.options().getBoolean("refresh", !channel.readsInput());
            ContainerFileSystem fs = new ContainerFileSystem(provider, path, channel, container, request.writable(),
                    refresh, lock, exists && !request.writable() ? existing.lastModifiedTime() : null);
            registry.register(path, fs, request.byUri());
            return fs;
        } catch (IOException | RuntimeException | Error e) {
            if (channel != null && channel != detected) {
                closeQuietly(channel, e);
            }
            if (request.writable()) {
                registry.releaseWriting(path);
            }
            throw e;
        }
    }

    /** The format's scan (or creation) of the container: where a persisted index would be loaded and saved. */
    static Container openContainer(ContainerFormat format, ContainerSource source, boolean create) throws IOException {
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

    private static FileLock lockForWriting(ContainerChannel channel, Path path) throws IOException {
        if (!channel.supportsLocking()) {
            return null;
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            throw new FileSystemException(path.toString(), null,
                    "the container is already open for writing (by this or another process): one writer at a time");
        }
        return lock;
    }

    static void closeQuietly(ContainerChannel channel, Throwable failure) {
        try {
            channel.close();
        } catch (IOException suppressed) {
            failure.addSuppressed(suppressed);
        }
    }
}
