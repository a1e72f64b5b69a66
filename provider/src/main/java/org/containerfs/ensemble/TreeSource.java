package org.containerfs.ensemble;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.storage.ContainerInput;

/**
 * Where the files of a tree of containers live: a directory on any NIO file system ({@link #of(Path)}), an
 * S3 prefix (the s3 module's {@code S3TreeSource}), or anything else that can list a directory's names, say
 * what one name is, and give one file's bytes as a {@link ContainerInput}. {@link EnsembleFileSystem} asks
 * it one directory at a time, when a path is used, never for the whole tree.
 *
 * <p>Paths are the names below the source's top ({@code ["run1", "conf.1000.lime"]}; the empty list is the
 * top itself), each a single name without separators. Implementations are safe for use by many threads.
 */
public interface TreeSource extends Closeable {

    /** The top's URI ({@code file:///data/ens/}, {@code s3://bucket/prefix/}), ending in '/'; never with credentials. */
    URI uri();

    /**
     * What {@code path} is: a directory, a regular file (with its size and modification time), or a link
     * when {@code options} hold {@code NOFOLLOW_LINKS} and the source has links. {@link NoSuchFileException}
     * (or {@link NotDirectoryException} for a path through a file) when there is none. A source that learns
     * these while listing (an object store's listing carries sizes and times) may answer from its last listing
     * of the parent directory, so that {@code ls -l} after {@code ls} costs nothing more.
     */
    BasicFileAttributes attributes(List<String> path, LinkOption... options) throws IOException;

    /**
     * The names in directory {@code dir}, read as they are iterated (a long listing is fetched page by page);
     * {@link NotDirectoryException} or {@link NoSuchFileException} when {@code dir} is not a directory.
     * Iteration failures are {@link java.nio.file.DirectoryIteratorException}.
     */
    DirectoryStream<String> list(List<String> dir) throws IOException;

    /** The bytes of regular file {@code file}; the caller closes the input. */
    ContainerInput input(List<String> file) throws IOException;

    /**
     * Opens the container of file {@code file} read-only, detecting its format from its bytes (a
     * {@link java.nio.file.ProviderNotFoundException} when no installed format claims them). The default
     * opens {@link #input}; a source of Paths opens the Path, as {@code ContainerFileSystems.open} does.
     */
    default FileSystem openContainer(List<String> file, Map<String, ?> env) throws IOException {
        return ContainerFileSystems.open(input(file), env);
    }

    /** A read channel of plain file {@code file}: {@link #newByteChannel(List, Map)} with the block cache's defaults. */
    default SeekableByteChannel newByteChannel(List<String> file) throws IOException {
        return newByteChannel(file, Map.of());
    }

    /**
     * A read channel of plain file {@code file}; {@code env}: the tree's env for the containers' opens. The default
     * reads {@link #input} through the core's block cache when it is remote ({@code blockCache*} keys of {@code env}),
     * as a container's reads go.
     */
    default SeekableByteChannel newByteChannel(List<String> file, Map<String, ?> env) throws IOException {
        return new InputChannel(input(file), env);
    }

    /**
     * Fails unless {@code path} exists and allows {@code modes} (never WRITE: the tree asks only for reading).
     * The default asks {@link #attributes} only: a source without permissions lets whoever can see read.
     */
    default void checkAccess(List<String> path, AccessMode... modes) throws IOException {
        attributes(path);
    }

    /** The size of the store the source lives on, for {@code FileStore.getTotalSpace} (0: not known). */
    default long totalSpace() throws IOException {
        return 0;
    }

    /** The Path of the source's top when it is a directory of an NIO file system, else null. */
    default Path path() {
        return null;
    }

    /** Releases what the source holds (a client, connections); the tree calls it when it is closed. */
    @Override
    default void close() throws IOException {}

    /** The directory {@code dir} (on any NIO file system) as a source. */
    static TreeSource of(Path dir) {
        return new PathTreeSource(dir.toAbsolutePath().normalize());
    }
}
