package org.containerfs.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.ProviderNotFoundException;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerFormatException;

/** Format detection by the formats' own probes, in provider order. */
final class FormatDetection {
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
                throw new ContainerFormatException(name, 0, null,
                        "a " + p.format().name() + " container", "no " + p.format().name() + " magic bytes");
            }
            return p;
        }
        ContainerFileSystemProvider claimed = detect(head, fileName);
        if (claimed == null) {
            // not damage but another kind of file: the JDK's answer for a file no provider claims, as for a Path
            throw new ProviderNotFoundException(name + " is not a container of any installed format ("
                    + formatNames() + "): no format's magic bytes were found at byte 0"
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
