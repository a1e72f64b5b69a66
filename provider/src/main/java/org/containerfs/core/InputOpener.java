package org.containerfs.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.util.Map;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.FormatOptions;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.gzip.GzipInput;

/**
 * Opens a container read through a {@link ContainerInput}: reads its head once, picks the format
 * whose probe claims it (or env {@code format}), and hands that same channel to the format. A remote
 * input whose exact identity has a persisted index entry skips the head: the entry names the format.
 */
final class InputOpener {
    private InputOpener() {}

    static ContainerFileSystem open(ContainerInput given, Map<String, ?> env) throws IOException {
        ContainerInput input = given;
        ContainerChannel channel = null;
        try {
            FormatOptions options = new FormatOptions(env);
            refuseWritable(input, options);
            // the one cache layer of this read path; local inputs are read directly
            input = BlockCachedInput.cacheIfRemote(given, BlockCacheSettings.of(options));
            channel = ContainerChannel.readOnly(input);
            // a remote container whose identity (an S3 listing's ETag and size) has an index cache entry: the head
            // is not fetched for detection, the entry names the format (and the open sends no request at all)
            ContainerFileSystemProvider fromEntry = given.remote()
                    ? IndexCache.formatOfEntry(options, given, options.getString("format", null)) : null;
            if (fromEntry != null) {
                return openWith(fromEntry, input, channel, options, null, null);
            }
            ByteBuffer head = ByteBuffer.allocate(ContainerFormat.PROBE_BYTES);
            if (input instanceof BlockCachedInput cached) {
                cached.readHead(head);
            } else {
                channel.readUpTo(head, 0);
            }
            head.flip();
            String fileName = ContainerSource.lastSegment(input.uri());
            String requested = options.getString("format", null);
            GzipInput gz;
            if (GzipInput.isGzip(head) && !claimedAsItIs(head, fileName, requested)) {
                // the decompression layer (see Decompression): detection on the inflated head and the inner name
                head = Decompression.innerHead(channel);
                fileName = GzipInput.innerName(fileName);
                ContainerFileSystemProvider provider = FormatDetection.choose(head, fileName, requested,
                        input.uri().toString());
                // the compressed input now belongs to the inflater, which closes it (also when its open fails)
                ContainerInput compressed = input;
                channel = null;
                input = null;
                gz = Decompression.open(compressed, compressed.uri().toString(), options);
                input = gz;
                channel = ContainerChannel.readOnly(gz);
                return openWith(provider, input, channel, options, gz, fileName);
            }
            ContainerFileSystemProvider provider = FormatDetection.choose(head, fileName, requested,
                    input.uri().toString());
            return openWith(provider, input, channel, options, null, null);
        } catch (IOException | RuntimeException | Error e) {
            try {
                if (channel != null) {
                    channel.close();
                } else if (input != null) {
                    input.close();
                }
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static ContainerFileSystem openWith(ContainerFileSystemProvider provider, ContainerInput input,
            ContainerChannel channel, FormatOptions options, GzipInput gz, String contentsName) throws IOException {
        ContainerSource source = new ContainerSource(input, channel, options);
        if (contentsName != null) {
            source.contentsNamed(contentsName);
        }
        Container container = PathOpener.openContainer(provider.format(), source, false);
        ContainerFileSystem fs = new ContainerFileSystem(provider, input, channel, container,
                options.getBoolean("refresh", gz == null && !input.remote()));
        fs.decompressedBy(gz);
        return fs;
    }

    /** Whether a format reads this gzip input itself (G3's .g3.gz): the requested one, or any of ours. */
    private static boolean claimedAsItIs(ByteBuffer head, String fileName, String requested) {
        if (requested != null) {
            return ContainerFileSystems.provider(requested).format().probe(head.duplicate(), fileName);
        }
        return FormatDetection.detect(head, fileName) != null;
    }

    private static void refuseWritable(ContainerInput input, FormatOptions options) throws IOException {
        boolean create = options.getBoolean("create", false);
        String accessMode = options.getString("accessMode", "readOnly");
        if (create || !accessMode.equals("readOnly")) {
            throw new AccessDeniedException(input.uri().toString(), null, (create ? "env create=true" :
                    "env accessMode=" + accessMode) + " refused: a container read through a ContainerInput is "
                    + "read-only (nothing is ever written to the store); copy it to a local file to append to it");
        }
    }
}
