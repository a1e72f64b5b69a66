package org.containerfs.spi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;

/**
 * What a format gets to open a container: the physical file and its channel, the env options,
 * whether the file system is writable, and access to sibling files on the same NIO file system
 * (SIONlib multi-file sets).
 */
public final class ContainerSource {
    private final Path path;
    private final ContainerChannel channel;
    private final FormatOptions options;
    private final boolean writable;

    public ContainerSource(Path path, ContainerChannel channel, FormatOptions options, boolean writable) {
        this.path = path;
        this.channel = channel;
        this.options = options;
        this.writable = writable;
    }

    public Path path() {
        return path;
    }

    /** The container's name for error messages. */
    public String name() {
        return path.toString();
    }

    public ContainerChannel channel() {
        return channel;
    }

    public FormatOptions options() {
        return options;
    }

    public boolean writable() {
        return writable;
    }

    /** {@code env strict=true}: damage that a lenient open reports makes the open fail instead. */
    public boolean strict() {
        return options.getBoolean("strict", false);
    }

    /** Opens a file next to the container, read-only. The caller closes it. */
    public ContainerChannel openSibling(String fileName) throws IOException {
        Path sibling = path.resolveSibling(fileName);
        if (!Files.exists(sibling)) {
            throw new NoSuchFileException(sibling.toString(), null, "member file of " + name() + " not found");
        }
        return ContainerChannel.open(sibling, EnumSet.of(StandardOpenOption.READ));
    }

    /** Creates (or replaces) a file next to the container for writing, e.g. a temporary file to rename into place. */
    public Path sibling(String fileName) {
        return path.resolveSibling(fileName);
    }
}
