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

/**
 * Opens a container read through a {@link ContainerInput}: reads its head once, picks the format
 * whose probe claims it (or env {@code format}), and hands that same channel to the format.
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
            ByteBuffer head = ByteBuffer.allocate(ContainerFormat.PROBE_BYTES);
            if (input instanceof BlockCachedInput cached) {
                cached.readHead(head);
            } else {
                channel.readUpTo(head, 0);
            }
            head.flip();
            String fileName = ContainerSource.lastSegment(input.uri());
            ContainerFileSystemProvider provider = FormatDetection.choose(head, fileName,
                    options.getString("format", null), input.uri().toString());
            ContainerSource source = new ContainerSource(input, channel, options);
            Container container = PathOpener.openContainer(provider.format(), source, false);
            return new ContainerFileSystem(provider, input, channel, container,
                    options.getBoolean("refresh", !input.remote()));
        } catch (IOException | RuntimeException | Error e) {
            try {
                if (channel != null) {
                    channel.close();
                } else {
                    input.close();
                }
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
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
