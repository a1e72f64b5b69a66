package org.containerfs.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.util.Map;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerFormatException;
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
            channel.readUpTo(head, 0);
            head.flip();
            String fileName = ContainerSource.lastSegment(input.uri());
            ContainerFileSystemProvider provider = FormatDetection.choose(head, fileName,
                    options.getString("format", null), input.uri().toString());
            ContainerSource source = new ContainerSource(input, channel, options);
            Container container = provider.format().open(source);
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

    /** Format detection by the formats' own probes, in provider order. */
    static final class FormatDetection {
        private FormatDetection() {}

        /**
         * The provider whose format claims {@code head}; with {@code requested} that format's provider,
         * after checking its probe (an empty container is taken as the requested format).
         */
        static ContainerFileSystemProvider choose(ByteBuffer head, String fileName, String requested, String name)
                throws IOException {
            if (requested != null) {
                ContainerFileSystemProvider p = ContainerFileSystems.provider(requested);
                if (head.remaining() > 0 && !p.format().probe(head.duplicate(), fileName)) {
                    throw new ContainerFormatException(name, 0,
                            "a " + p.format().name() + " container (its magic bytes were not found)");
                }
                return p;
            }
            ContainerFileSystemProvider claimed = detect(head, fileName);
            if (claimed == null) {
                throw new ContainerFormatException(name, 0, "a container of an installed format ("
                        + formatNames() + "): no format's magic bytes were found"
                        + (head.remaining() == 0 ? " (the container is empty and its name has no format's extension; "
                        + "env format=<name> opens it)" : ""));
            }
            return claimed;
        }

        /**
         * The first provider whose format's probe claims {@code head}; for an empty container, the
         * one whose file extension the name has (an empty file is an empty LIME or G3 container); or null.
         */
        static ContainerFileSystemProvider detect(ByteBuffer head, String fileName) {
            for (ContainerFileSystemProvider p : ContainerFileSystems.providers()) {
                if (head.remaining() > 0 ? p.format().probe(head.duplicate(), fileName)
                        : hasExtension(p.format(), fileName)) {
                    return p;
                }
            }
            return null;
        }

        static boolean hasExtension(ContainerFormat format, String fileName) {
            String name = fileName.toLowerCase(java.util.Locale.ROOT);
            for (String ext : format.fileExtensions()) {
                if (name.endsWith("." + ext)) {
                    return true;
                }
            }
            return false;
        }

        private static String formatNames() {
            StringBuilder sb = new StringBuilder();
            for (ContainerFileSystemProvider p : ContainerFileSystems.providers()) {
                sb.append(sb.length() == 0 ? "" : ", ").append(p.getScheme());
            }
            return sb.toString();
        }
    }
}
