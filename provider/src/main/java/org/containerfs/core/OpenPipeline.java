package org.containerfs.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.FormatOptions;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.PathInput;
import org.containerfs.storage.gzip.GzipInput;

/**
 * The read-only open of every container, one straight line of layers, each a class of its own, each called once
 * and in this order:
 * <ol>
 * <li>storage, where the bytes live: a {@link ContainerInput} ({@link PathInput} for a file opened by Path, the S3
 * or Hadoop module's input for theirs);
 * <li>block cache: {@link BlockCachedInput} in front of a remote input (an object store's; a local file is read
 * directly);
 * <li>decompression: {@link Decompression}, a {@link GzipInput} over a gzip file that no format reads as it is;
 * <li>detection: {@link FormatDetection}, the format whose probe claims the (decompressed) head (a remote input whose
 * exact identity has an {@link IndexCache} entry is not read for it: the entry names the format);
 * <li>format: {@link FormatOpen}, the format's scan through the persisted {@link IndexCache};
 * <li>file system: {@link ContainerFileSystem}, registered in its provider's {@link FileSystemRegistry} when it was
 * opened by Path or URI (a file system of an input is not).
 * </ol>
 * The tree of many containers ({@code org.containerfs.ensemble}) opens each of its containers through here.
 * An open by Path ({@link PathOpener}) comes in once it knows the file exists and is to be read, and its first layer
 * is a {@link PathInput} of the file; {@code ContainerFileSystems.open(input, env)} comes in with the input. A
 * writable open by Path goes as far as detection, then to {@link WriterOpen}: a writer needs the file's own channel
 * and its lock.
 */
final class OpenPipeline {
    private OpenPipeline() {}

    /**
     * Who opens: a file by Path ({@code path}, its stat, the provider {@code FileSystems.newFileSystem} asked), or an
     * input ({@code path} and its stat null; {@code asked} the provider of the format env names, or null).
     */
    record Origin(Path path, BasicFileAttributes attributes, ContainerFileSystemProvider asked, OpenRequest request) {
        static Origin ofInput(OpenRequest request) {
            return new Origin(null, null, request.format() == null ? null
                    : ContainerFileSystems.provider(request.format()), request);
        }

        /** The container's name in messages: its path, or the input's URI. */
        String name(ContainerInput stored) {
            return path != null ? path.toString() : stored.uri().toString();
        }

        /** The name detection reads: the file's name, or the last segment of the input's URI. */
        String fileName(ContainerInput stored) {
            return path != null ? String.valueOf(path.getFileName()) : ContainerSource.lastSegment(stored.uri());
        }
    }

    /** What detection found: the provider whose format opens it, and, when decompressed, the contents' name. */
    record Detected(ContainerFileSystemProvider provider, String contentsName) {
        boolean compressed() {
            return contentsName != null;
        }
    }

    /** A read-only open by Path: the line from its first layer, storage, here a {@link PathInput} of the file. */
    static ContainerFileSystem open(ContainerFileSystemProvider asked, Path path, BasicFileAttributes attributes,
            OpenRequest request) throws IOException {
        return open(PathInput.of(path, remote(path, request.options())), new Origin(path, attributes, asked, request));
    }

    /**
     * The detection of a file to be opened for writing, through a read-only channel (nothing that could change the
     * file is opened before a format claims it), closed again: the writer opens the file's own channel.
     */
    static Detected detect(ContainerFileSystemProvider asked, Path path, BasicFileAttributes attributes,
            OpenRequest request) throws IOException {
        try (PathInput input = PathInput.of(path)) {
            return detect(input, input.channel(), new Origin(path, attributes, asked, request));
        }
    }

    /**
     * env {@code blockCache}: whether a read-only open reads the file through the block cache, as a
     * remote input. Default: for object stores reached through an NIO provider ({@code s3}, {@code s3x},
     * {@code gs} paths), whose objects are replaced whole and never changed in place, so cached
     * bytes cannot go stale; never for a local file, whose FileChannel is read directly.
     */
    static boolean remote(Path path, FormatOptions options) {
        String scheme = path.getFileSystem().provider().getScheme().toLowerCase(Locale.ROOT);
        return options.getBoolean("blockCache", OBJECT_STORE_SCHEMES.contains(scheme));
    }

    private static final Set<String> OBJECT_STORE_SCHEMES = Set.of("s3", "s3x", "s3a", "gs");

    /** {@code ContainerFileSystems.open(input, env)}: the line from its first layer; takes {@code input} over. */
    static ContainerFileSystem open(ContainerInput input, Map<String, ?> env) throws IOException {
        Origin origin;
        try {
            origin = Origin.ofInput(OpenRequest.ofInput(input, env));
        } catch (IOException | RuntimeException | Error e) {
            closeQuietly(input, e);
            throw e;
        }
        return open(input, origin);
    }

    /** The line from {@code stored} (which it takes over: closed when the file system is, or at once on failure). */
    static ContainerFileSystem open(ContainerInput stored, Origin origin) throws IOException {
        ContainerInput input = stored;
        ContainerChannel channel = null;
        try {
            FormatOptions options = origin.request().options();
            // block cache: only a remote input's reads are requests worth coalescing
            if (stored.remote()) {
                input = BlockCachedInput.cacheIfRemote(stored, BlockCacheSettings.of(options));
            }
            channel = channelOf(input, origin);
            // decompression and detection: which format, and whether it reads decompressed bytes. A remote container
            // whose exact identity (an S3 listing's ETag and size) has an index cache entry is not read for
            // detection: the entry names the format, and the open sends no request at all
            ContainerFileSystemProvider fromEntry = stored.remote()
                    ? IndexCache.formatOfEntry(options, stored, origin.request().format()) : null;
            Detected detected = fromEntry != null ? new Detected(fromEntry, null) : detect(input, channel, origin);
            GzipInput gz = null;
            if (detected.compressed()) {
                // the compressed input now belongs to the inflater, which closes it (also when its open fails)
                ContainerInput compressed = input;
                channel = null;
                input = null;
                gz = Decompression.open(compressed, origin.name(stored), options);
                input = gz;
                channel = ContainerChannel.readOnly(gz);
            }
            // format
            ContainerSource source = source(origin, input, channel, detected);
            Container container = FormatOpen.open(detected.provider().format(), source, false);
            // file system
            return fileSystem(origin, detected.provider(), input, channel, container, gz, stored.remote());
        } catch (IOException | RuntimeException | Error e) {
            if (channel != null) {
                closeQuietly(channel, e);
            } else if (input != null) {
                closeQuietly(input, e);
            }
            throw e;
        }
    }

    /**
     * Detection through {@code channel} (which reads {@code input}): one read of the head, the format that claims
     * it; else, for a gzip member no format reads as it is (G3 reads its .g3.gz itself), the decompression layer's
     * first bytes and the name of the contents, and the format that claims those. Closes nothing.
     */
    private static Detected detect(ContainerInput input, ContainerChannel channel, Origin origin) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(ContainerFormat.PROBE_BYTES);
        if (input instanceof BlockCachedInput cached) {
            cached.readHead(head); // the whole first block in one request: what the format reads next is mostly there
        } else {
            channel.readUpTo(head, 0);
        }
        head.flip();
        String fileName = origin.fileName(input);
        boolean requested = origin.request().format() != null;
        ContainerFileSystemProvider claimant = FormatDetection.claimant(head, fileName, origin.asked(), requested);
        String contentsName = null;
        if (claimant == null && GzipInput.isGzip(head)) {
            contentsName = GzipInput.innerName(fileName);
            head = Decompression.innerHead(channel);
            claimant = FormatDetection.claimant(head, contentsName, origin.asked(), requested);
        }
        if (claimant == null) {
            throw FormatDetection.unclaimed(head, origin.name(input), origin.asked(), requested, origin.path() != null);
        }
        return new Detected(claimant, contentsName);
    }

    /** The channel the layers above read: a local file's own (zero-copy transfers), else one over the input. */
    private static ContainerChannel channelOf(ContainerInput input, Origin origin) {
        if (origin.path() != null && input instanceof PathInput local) {
            return local.channel();
        }
        return ContainerChannel.readOnly(input);
    }

    private static ContainerSource source(Origin origin, ContainerInput input, ContainerChannel channel,
            Detected detected) {
        Path path = origin.path();
        ContainerSource source = path != null
                ? new ContainerSource(path, channel, origin.request().options(), false,
                        () -> WriteSupport.allowsWritesBeside(path))
                : new ContainerSource(input, channel, origin.request().options());
        if (detected.compressed()) {
            source.contentsNamed(detected.contentsName());
        }
        return source;
    }

    /**
     * The file system over the container; one opened by Path is registered. env {@code refresh} defaults to true
     * for a container stored as it is in a local file or input: a decompressed one or an object behind the block
     * cache is not watched for growth unless asked (every check would be a request, or a new inflation).
     */
    private static ContainerFileSystem fileSystem(Origin origin, ContainerFileSystemProvider provider,
            ContainerInput input, ContainerChannel channel, Container container, GzipInput gz, boolean remote)
            throws IOException {
        boolean refresh = origin.request().options().getBoolean("refresh", gz == null && !remote);
        if (origin.path() == null) {
            ContainerFileSystem fs = new ContainerFileSystem(provider, input, channel, container, refresh);
            if (gz != null) {
                fs.decompressedBy(gz);
            }
            return fs;
        }
        ContainerFileSystem fs = new ContainerFileSystem(provider, origin.path(), channel, container, false, refresh,
                null, origin.attributes().lastModifiedTime());
        if (gz != null) {
            fs.decompressedBy(gz);
        }
        provider.registry().register(origin.path(), fs, origin.request().byUri());
        return fs;
    }

    static void closeQuietly(java.io.Closeable closeable, Throwable failure) {
        try {
            closeable.close();
        } catch (IOException suppressed) {
            failure.addSuppressed(suppressed);
        }
    }
}
