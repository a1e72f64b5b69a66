package org.containerfs.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.ProviderNotFoundException;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerFormatException;

/**
 * The detection layer of the open path: which format opens a container, by the formats' own probes of its first
 * bytes (decompressed, when the decompression layer is in the line) and its name, in provider order.
 */
final class FormatDetection {
    private FormatDetection() {}

    /**
     * The provider whose format claims {@code head}, or null. {@code asked}: the provider an open by Path was asked
     * through, or the requested format's for an input (null: none requested). It wins if its probe claims the head,
     * or the container is empty and {@code requested} or named for it. A requested format is never swapped; an empty
     * file opened by Path is left to the provider its name selects; else whichever of our formats claims the head
     * (for an empty input, the one whose file extension its name has), so that no other provider reads it again.
     */
    static ContainerFileSystemProvider claimant(ByteBuffer head, String fileName, ContainerFileSystemProvider asked,
            boolean requested) {
        boolean empty = head.remaining() == 0;
        if (asked != null) {
            ContainerFormat format = asked.format();
            if (format.probe(head.duplicate(), fileName) || (empty && (requested || hasExtension(format, fileName)))) {
                return asked;
            }
            if (requested || empty) {
                return null;
            }
        }
        return detect(head, fileName);
    }

    /**
     * The refusal of a container no format claims ({@link #claimant} gave null), for the caller to throw: the
     * requested format's {@link ContainerFormatException}. Without one it throws itself: for an open by Path
     * ({@code byPath}) {@link UnsupportedOperationException}, so that {@code FileSystems.newFileSystem} asks its next
     * provider; for an input the JDK's answer for a file no provider claims, {@link ProviderNotFoundException}.
     * {@code name}: the path or the input's URI.
     */
    static IOException unclaimed(ByteBuffer head, String name, ContainerFileSystemProvider asked, boolean requested,
            boolean byPath) {
        if (requested) {
            String format = asked.format().name();
            return new ContainerFormatException(name, 0, null, "a " + format + " container", "no " + format
                    + " magic bytes");
        }
        if (byPath) {
            throw new UnsupportedOperationException(name + " is not a " + asked.format().name() + " container");
        }
        // not damage but another kind of file: the JDK's answer for a file no provider claims, as for a Path
        throw new ProviderNotFoundException(name + " is not a container of any installed format ("
                + formatNames() + "): no format's magic bytes were found at byte 0"
                + (head.remaining() == 0 ? " (the container is empty and its name has no format's extension; "
                + "env format=<name> opens it)" : ""));
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
