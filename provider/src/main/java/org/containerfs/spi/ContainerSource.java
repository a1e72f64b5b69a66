package org.containerfs.spi;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.function.BooleanSupplier;
import org.containerfs.storage.ContainerInput;

/**
 * What a format gets to open a container: its channel, the env options, whether the file system is
 * writable, and access to sibling files (SIONlib multi-file sets). The container is either a file on
 * an NIO file system ({@link #path()}) or a {@link ContainerInput} ({@link #input()}: an object in a
 * store, always read-only); formats that need a name use {@link #name()} and {@link #fileName()},
 * which work for both.
 */
public final class ContainerSource {
    private final Path path;
    private final ContainerInput input;
    private final ContainerChannel channel;
    private final FormatOptions options;
    private final boolean writable;
    private final BooleanSupplier writesBeside;
    private Boolean mayWriteBeside;
    private volatile String contentsName;

    public ContainerSource(Path path, ContainerChannel channel, FormatOptions options, boolean writable) {
        this(path, channel, options, writable, () -> true);
    }

    /**
     * As above; {@code writesBeside} answers (when first asked) whether files may be written next to the
     * container: false on an object store reached through an NIO provider, where such a "file" would be
     * an upload into the bucket.
     */
    public ContainerSource(Path path, ContainerChannel channel, FormatOptions options, boolean writable,
            BooleanSupplier writesBeside) {
        this.path = path;
        this.input = null;
        this.channel = channel;
        this.options = options;
        this.writable = writable;
        this.writesBeside = writesBeside;
    }

    /**
     * A read-only source whose bytes come from {@code input} through {@code channel} (which reads it,
     * possibly through the core's block cache). Siblings are looked up with {@link ContainerInput#sibling}.
     */
    public ContainerSource(ContainerInput input, ContainerChannel channel, FormatOptions options) {
        this.path = null;
        this.input = input;
        this.channel = channel;
        this.options = options;
        this.writable = false;
        this.writesBeside = () -> false;
    }

    /** The container file, or null when it is read through a {@link ContainerInput}. */
    public Path path() {
        return path;
    }

    /** The input the container is read through, or null when it is a file ({@link #path()}). */
    public ContainerInput input() {
        return input;
    }

    /** The container's name for error messages: its path, or its input's URI. */
    public String name() {
        return path != null ? path.toString() : input.uri().toString();
    }

    /**
     * The container's own file name (the last element of its path or of its object key); for a container the
     * core decompresses, the name of its contents ({@code spikes.sion} of {@code spikes.sion.gz}), so that names
     * derived from it (the other files of a SIONlib set) are those of the uncompressed container.
     */
    public String fileName() {
        if (contentsName != null) {
            return contentsName;
        }
        return path != null ? String.valueOf(path.getFileName()) : lastSegment(input.uri());
    }

    /**
     * Marks this source as the decompressed contents of a compressed file, named {@code fileName} (its name without
     * {@code .gz}): what {@link #fileName()} gives from now on. Set by the core before the format opens it.
     */
    public ContainerSource contentsNamed(String fileName) {
        this.contentsName = fileName;
        return this;
    }

    /** The last path segment of a URI (decoded), or its whole text when it has no path. */
    public static String lastSegment(URI uri) {
        String p = uri.getPath();
        if (p == null || p.isEmpty()) {
            return uri.toString();
        }
        return p.substring(p.lastIndexOf('/') + 1);
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
        if (input != null) {
            return ContainerChannel.readOnly(input.sibling(fileName));
        }
        Path sibling = path.resolveSibling(fileName);
        if (!Files.exists(sibling)) {
            throw new NoSuchFileException(sibling.toString(), null, "member file of " + name() + " not found");
        }
        return ContainerChannel.open(sibling, EnumSet.of(StandardOpenOption.READ));
    }

    /** The name of a file next to the container, for messages (a path, or a URI beside the input's). */
    public String siblingName(String fileName) {
        if (path != null) {
            return path.resolveSibling(fileName).toString();
        }
        String uri = input.uri().toString();
        return uri.substring(0, uri.lastIndexOf('/') + 1) + fileName;
    }

    /**
     * Creates (or replaces) a file next to the container for writing, e.g. a temporary file to rename
     * into place. Refused ({@link ReadOnlyFileSystemException}) where {@link #canWriteBeside()} says no.
     */
    public Path sibling(String fileName) {
        if (!canWriteBeside()) {
            throw new ReadOnlyFileSystemException();
        }
        return path.resolveSibling(fileName);
    }

    /**
     * Whether files may be written next to the container: never for an input, never on an object store;
     * where not, whatever a format persists goes to a local directory (or the core's index cache).
     */
    public synchronized boolean canWriteBeside() {
        if (mayWriteBeside == null) {
            mayWriteBeside = path != null && writesBeside.getAsBoolean();
        }
        return mayWriteBeside;
    }
}
