package org.containerfs.core;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import org.containerfs.storage.ContainerInput;

/**
 * Entry points that consider only containerfs providers. {@code FileSystems.newFileSystem(path)}
 * works for existing containers, but with {@code create=true} the JDK's zip provider, asked first,
 * would happily create a zip file: creating goes through here (or a {@code lime:file:...} URI).
 */
public final class ContainerFileSystems {
    private ContainerFileSystems() {}

    /**
     * The containerfs providers, one per format: the JDK's installed ones (found on the system class
     * path), then those registered beside this class in its own class loader (a jar given to Spark with
     * {@code --jars}, a plug-in loader), which the JDK never looks at.
     */
    public static List<ContainerFileSystemProvider> providers() {
        List<ContainerFileSystemProvider> out = new ArrayList<>();
        Set<String> schemes = new HashSet<>();
        for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
            if (p instanceof ContainerFileSystemProvider c && schemes.add(c.getScheme())) {
                out.add(c);
            }
        }
        for (ContainerFileSystemProvider c : LocallyRegistered.PROVIDERS) {
            if (schemes.add(c.getScheme())) {
                out.add(c);
            }
        }
        return out;
    }

    /** Loaded once, on first use: the providers the JDK did not install (see {@link #providers()}). */
    private static final class LocallyRegistered {
        static final List<ContainerFileSystemProvider> PROVIDERS = load();

        private static List<ContainerFileSystemProvider> load() {
            if (ContainerFileSystems.class.getClassLoader() == ClassLoader.getSystemClassLoader()) {
                return List.of(); // the JDK already found them all
            }
            // only ours are instantiated: another registered provider may be broken or costly to create
            return ServiceLoader.load(FileSystemProvider.class, ContainerFileSystems.class.getClassLoader()).stream()
                    .filter(p -> ContainerFileSystemProvider.class.isAssignableFrom(p.type()))
                    .map(p -> (ContainerFileSystemProvider) p.get())
                    .toList();
        }
    }

    /** The provider of one format ({@code lime}, {@code gsd}, ...). */
    public static ContainerFileSystemProvider provider(String format) {
        for (ContainerFileSystemProvider p : providers()) {
            if (p.getScheme().equalsIgnoreCase(format)) {
                return p;
            }
        }
        throw new ProviderNotFoundException("no containerfs provider for format " + format);
    }

    /** Opens an existing container read-only, detecting its format by magic bytes. */
    public static FileSystem open(Path container) throws IOException {
        return open(container, Map.of());
    }

    /** Opens an existing container, detecting its format by magic bytes (env as for newFileSystem). */
    public static FileSystem open(Path container, Map<String, ?> env) throws IOException {
        for (ContainerFileSystemProvider p : providers()) {
            try {
                return p.newFileSystem(container, env);
            } catch (UnsupportedOperationException notThisFormat) {
                // try the next format
            }
        }
        throw new ProviderNotFoundException(container + " is not a container of any installed format");
    }

    /**
     * Opens the container behind {@code input} read-only, detecting its format by the formats' probes
     * of its first bytes (read once; env {@code format=<name>} forces one). Everything the format reads
     * goes through {@code input} (siblings of a SIONlib multi-file set through
     * {@link ContainerInput#sibling}); nothing is ever written to its store. Paths of the file system
     * have URIs {@code <format>:<input uri>!<path>}, and its {@code containerPath()} is null
     * ({@code containerUri()} is the input's URI); it is not registered under that URI.
     *
     * <p>The file system takes {@code input} over: it closes it when it is closed, or at once if the
     * open fails. env: as for {@code newFileSystem}, except that {@code create} and
     * {@code accessMode=readWrite} are refused; {@code refresh} defaults to {@code !input.remote()}.
     */
    public static FileSystem open(ContainerInput input, Map<String, ?> env) throws IOException {
        return OpenPipeline.open(input, env == null ? Map.of() : env);
    }

    /**
     * {@code input} behind the block cache a container's open puts in front of it (env {@code blockCacheBytes},
     * {@code blockCacheReadAhead}, ...: the same keys, the same defaults) when it is remote; a local input as it
     * is. For bytes read beside the containers (a plain file of a tree): small reads in order are coalesced and
     * read ahead as a container's are. Closing the result closes {@code input}.
     */
    public static ContainerInput blockCached(ContainerInput input, Map<String, ?> env) {
        return BlockCachedInput.cacheIfRemote(input,
                BlockCacheSettings.of(new org.containerfs.spi.FormatOptions(env == null ? Map.of() : env)));
    }

    /**
     * A read-only tree over directory {@code dir} (on any NIO file system) and everything below it:
     * its directories and plain files as they are, every container shown as a directory of its own
     * name holding the container's tree ({@code /run1/conf.1000.lime/msg02/rec04.ildg-binary-data}).
     * A container is opened only when a path inside it is used, and at most env {@code cacheContainers}
     * (default 256) are kept open; env {@code containerNames} (a regular expression) adds names taken
     * for containers; every other env key goes to each container's open. docs/ensemble.md says more.
     */
    public static org.containerfs.ensemble.EnsembleFileSystem openTree(Path dir, Map<String, ?> env)
            throws IOException {
        return org.containerfs.ensemble.EnsembleFileSystem.open(dir, env);
    }

    /**
     * The same tree over any {@link org.containerfs.ensemble.TreeSource}: a directory, or an S3 prefix
     * through the s3 module ({@code S3Containers.openTree(URI.create("s3://bucket/prefix/"), env)}). The tree
     * takes the source over and closes it when it is closed.
     */
    public static org.containerfs.ensemble.EnsembleFileSystem openTree(org.containerfs.ensemble.TreeSource source,
            Map<String, ?> env) throws IOException {
        return org.containerfs.ensemble.EnsembleFileSystem.open(source, env);
    }

    /** Creates a new container of {@code format} (or opens an existing one) for appending. */
    public static FileSystem create(Path container, String format, Map<String, ?> env) throws IOException {
        Map<String, Object> all = new HashMap<>(env);
        all.put("create", true);
        all.put("format", format);
        return provider(format).newFileSystem(container, all);
    }

    /** Creates a new container of {@code format} for appending. */
    public static FileSystem create(Path container, String format) throws IOException {
        return create(container, format, Map.of());
    }

    /**
     * Where the bytes of the file at {@code path} are stored, if they are exactly one contiguous range of a
     * file on the default file system: then a reader may read {@code [offset, offset + length)} of that file
     * itself (a FUSE mount splices it to the kernel, a tool maps or copies it) and gets the same bytes as
     * {@code Files.newByteChannel(path)}. Present only when all of these hold:
     * <ul>
     * <li>{@code path} is a file of a container file system (or of a tree of {@link #openTree}, inside a
     * container), and that container was opened from a Path of the default file system: not from a
     * {@link ContainerInput} (S3, HDFS), not decompressed from a {@code .gz}, not on another NIO file system;
     * <li>its format stores the file's bytes verbatim and in one piece: a LIME record, a GSD chunk, an scda
     * section's data or array element that is not encoded, a SIONlib task stream of one chunk, the value of a
     * key of an uncompressed G3 file (whose frame's CRC-32C is good, unless the file system was opened with
     * {@code verify=false});
     * <li>the file is committed (not staged or uncommitted on a writable file system) and complete: the
     * storage file holds the whole range now (a truncated record is absent).
     * </ul>
     * Otherwise (a directory, a decoded or assembled file, any other Path) the answer is empty, and the
     * bytes are to be read through NIO. Committed data never changes while the container is open; if
     * another process truncates or replaces the storage file meanwhile, reading the range gives what it
     * holds then, whereas NIO reads report a {@link org.containerfs.spi.TruncatedDataException}.
     *
     * @throws java.nio.file.NoSuchFileException if nothing is at {@code path}
     * @throws IOException if the container cannot be read
     */
    public static java.util.Optional<StoredRange> storedRange(Path path) throws IOException {
        if (path instanceof ContainerPath p) {
            return ReadOperations.storedRange(p);
        }
        if (path instanceof org.containerfs.ensemble.EnsemblePath p) {
            return p.getFileSystem().storedRange(p);
        }
        return java.util.Optional.empty();
    }

    /**
     * A format attribute given when a file or directory is created, for {@code Files.newByteChannel},
     * {@code newOutputStream} or {@code createDirectory}: {@code attribute("gsd:type", "float32")},
     * {@code attribute("scda:encode", true)}. Each format page lists the attributes it takes.
     */
    public static <T> FileAttribute<T> attribute(String name, T value) {
        return new CreationAttribute<>(name, value);
    }

    private record CreationAttribute<T>(String name, T value) implements FileAttribute<T> {}
}
