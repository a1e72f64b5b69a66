package org.containerfs.core;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.Set;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.Node;

/**
 * The NIO provider of one container format, written once for all formats. Each format registers a
 * trivial subclass (for its own URI scheme); everything here is format-neutral.
 *
 * <p>env options understood here: {@code create} (make a new container if the file does not exist;
 * implies read-write), {@code accessMode} ({@code readOnly} (default) or {@code readWrite}),
 * {@code format} (pick this format for a new or empty file), {@code refresh} (default true: a
 * read-only file system notices when the container grows). Other keys go to the format.
 */
public class ContainerFileSystemProvider extends FileSystemProvider {
    private final ContainerFormat format;
    private final FileSystemRegistry registry = new FileSystemRegistry();

    protected ContainerFileSystemProvider(ContainerFormat format) {
        this.format = format;
    }

    public ContainerFormat format() {
        return format;
    }

    @Override
    public String getScheme() {
        return format.name();
    }

    // ---- file system lifecycle: see PathOpener, OpenPipeline and FileSystemRegistry ----------

    FileSystemRegistry registry() {
        return registry;
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        checkScheme(uri);
        Path container = Paths.get(Uris.containerOf(uri));
        // the scheme names the format: a file of any name opens (or is created) as this format, and a
        // file of another format is an IOException saying so, never "provider not found"
        Map<String, Object> withFormat = new java.util.HashMap<>(env);
        Object requested = withFormat.putIfAbsent("format", format.name());
        if (requested != null && !requested.toString().equalsIgnoreCase(format.name())) {
            throw new IllegalArgumentException("env format=" + requested + " contradicts the URI scheme " + uri.getScheme());
        }
        registry.reserveUri(container, uri);
        try {
            return PathOpener.open(this, container, withFormat, true);
        } finally {
            registry.releaseUri(container);
        }
    }

    @Override
    public FileSystem newFileSystem(Path path, Map<String, ?> env) throws IOException {
        return PathOpener.open(this, path, env, false);
    }

    void removeFileSystem(ContainerFileSystem fs) {
        registry.remove(fs);
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        checkScheme(uri);
        return registry.get(uri);
    }

    @Override
    public Path getPath(URI uri) {
        return getFileSystem(uri).getPath(Uris.entryOf(uri));
    }

    private void checkScheme(URI uri) {
        if (!format.name().equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("URI scheme is not " + format.name() + ": " + uri);
        }
    }

    // ---- reading: ReadOperations --------------------------------------------------------------

    static ContainerPath toContainerPath(Path path) {
        if (!(path instanceof ContainerPath p)) {
            throw new ProviderMismatchException("not a containerfs path: " + path);
        }
        return p;
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
            FileAttribute<?>... attrs) throws IOException {
        checkOptions(options);
        if (options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND)) {
            return WriteOperations.newWriteChannel(toContainerPath(path), options, attrs);
        }
        return ReadOperations.newReadChannel(toContainerPath(path));
    }

    /** Combinations that can never make sense, refused before anything else (as the JDK's providers do). */
    private static void checkOptions(Set<? extends OpenOption> options) {
        if (options.contains(StandardOpenOption.APPEND) && options.contains(StandardOpenOption.READ)) {
            throw new IllegalArgumentException("READ + APPEND not allowed");
        }
        if (options.contains(StandardOpenOption.APPEND) && options.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
            throw new IllegalArgumentException("APPEND + TRUNCATE_EXISTING not allowed");
        }
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        checkOptions(options);
        if (options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND)) {
            toContainerPath(path).getFileSystem().ensureWritable();
            throw new UnsupportedOperationException("new records are written through Files.newByteChannel "
                    + "or Files.newOutputStream; FileChannel is for reading");
        }
        return ReadOperations.newReadChannel(toContainerPath(path));
    }

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        return ReadOperations.newInputStream(toContainerPath(path), options);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        return ReadOperations.newDirectoryStream(toContainerPath(dir), filter);
    }

    // ---- writing: WriteOperations ------------------------------------------------------------

    /**
     * Refuses, with the exception {@code Files.newByteChannel(file, CREATE_NEW, WRITE)} would throw, a new
     * file the container cannot take now (an existing name, a closed message, not the next number, a
     * malformed name: {@link org.containerfs.spi.InvalidNameException}), and creates nothing. For a tool
     * that gathers a file's bytes before creating it, as the FUSE mount does, to refuse the name at once.
     */
    public void checkNewFile(Path file, FileAttribute<?>... attrs) throws IOException {
        WriteOperations.checkNewFile(toContainerPath(file), attrs);
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        WriteOperations.createDirectory(toContainerPath(dir), attrs);
    }

    @Override
    public void delete(Path path) throws IOException {
        WriteOperations.delete(toContainerPath(path));
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        WriteOperations.copy(toContainerPath(source), toContainerPath(target), options);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        WriteOperations.move(toContainerPath(source), target, options);
    }

    // ---- paths and access ------------------------------------------------------------------

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        if (!(path instanceof ContainerPath a) || !(path2 instanceof ContainerPath b)) {
            return false;
        }
        if (a.getFileSystem() != b.getFileSystem()) {
            return false;
        }
        ContainerPath na = a.toAbsolutePath().normalize();
        ContainerPath nb = b.toAbsolutePath().normalize();
        if (na.equals(nb)) {
            return true;
        }
        a.getFileSystem().lookup(na);
        a.getFileSystem().lookup(nb);
        return false;
    }

    @Override
    public boolean isHidden(Path path) {
        return false;
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        ContainerPath p = toContainerPath(path);
        p.getFileSystem().lookup(p);
        return p.getFileSystem().fileStore();
    }

    void checkAccess(ContainerPath path) throws IOException {
        checkAccess(path, new AccessMode[0]);
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        ContainerPath p = toContainerPath(path);
        ContainerFileSystem fs = p.getFileSystem();
        Node node = fs.lookup(p);
        for (AccessMode mode : modes) {
            switch (mode) {
                case READ -> { }
                case WRITE -> {
                    if (fs.isReadOnly()) {
                        throw new AccessDeniedException(p.toString(), null, "the file system is read-only");
                    }
                    if (!node.isDirectory()) {
                        throw new AccessDeniedException(p.toString(), null, "existing records are never modified");
                    }
                }
                case EXECUTE -> {
                    if (!node.isDirectory()) {
                        throw new AccessDeniedException(p.toString(), null, "records are not executable");
                    }
                }
            }
        }
    }

    // ---- attributes: AttributeOperations, BasicAttributeView, FormatAttributeView --------------

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return AttributeOperations.view(toContainerPath(path), type);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return AttributeOperations.readAttributes(toContainerPath(path), type);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        return AttributeOperations.readAttributes(toContainerPath(path), attributes);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        WriteOperations.setAttribute(toContainerPath(path), attribute, value);
    }
}
