package org.containerfs.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.ProviderMismatchException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.FormatOptions;
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
    private final Map<Path, ContainerFileSystem> byContainer = new HashMap<>();
    /**
     * Containers open for writing in this JVM (guarded by byContainer). The file lock keeps other
     * processes out, but some file systems grant every lock (jimfs) or have none (zipfs).
     */
    private final Set<Path> writing = new HashSet<>();
    /** Containers being opened through newFileSystem(URI) right now (guarded by byContainer). */
    private final Set<Path> openingByUri = new HashSet<>();

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

    // ---- file system lifecycle ------------------------------------------------------------

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        checkScheme(uri);
        Path container = Paths.get(Uris.containerOf(uri));
        Path key = key(container);
        // Reserve the URI for the whole open, so that of two threads opening it one gets
        // FileSystemAlreadyExistsException; no lock is held while the container is scanned.
        synchronized (byContainer) {
            if (byContainer.containsKey(key) || !openingByUri.add(key)) {
                throw new FileSystemAlreadyExistsException(uri.toString());
            }
        }
        try {
            return newFileSystem(container, env);
        } finally {
            synchronized (byContainer) {
                openingByUri.remove(key);
            }
        }
    }

    @Override
    public FileSystem newFileSystem(Path path, Map<String, ?> env) throws IOException {
        FormatOptions options = new FormatOptions(env);
        boolean create = options.getBoolean("create", false);
        String accessMode = options.getString("accessMode", create ? "readWrite" : "readOnly");
        boolean writable;
        if (accessMode.equals("readWrite")) {
            writable = true;
        } else if (accessMode.equals("readOnly")) {
            writable = false;
        } else {
            throw new IllegalArgumentException("env accessMode must be readOnly or readWrite, got " + accessMode);
        }
        if (create && !writable) {
            throw new IllegalArgumentException("env create=true cannot be combined with accessMode=readOnly");
        }
        String requested = options.getString("format", null);
        if (requested != null && !requested.equalsIgnoreCase(format.name())) {
            throw new UnsupportedOperationException(path + ": format " + requested + " requested, this is " + format.name());
        }
        boolean selected = requested != null || hasExtension(path);
        boolean exists = Files.exists(path);
        if (!exists) {
            if (!selected) {
                throw new UnsupportedOperationException(path + " does not exist and is not a " + format.name() + " name");
            }
            if (!create) {
                throw new NoSuchFileException(path.toString(), null, "no such container (env create=true makes one)");
            }
        } else if (!Files.isRegularFile(path)) {
            // a directory is nobody's container: let FileSystems.newFileSystem ask the next provider
            if (!selected) {
                throw new UnsupportedOperationException(path + " is not a regular file");
            }
            throw new FileSystemException(path.toString(), null, "not a regular file: a " + format.name()
                    + " container is a file");
        } else {
            ByteBuffer head = readHead(path);
            boolean matches = format.probe(head.duplicate(), String.valueOf(path.getFileName()))
                    || (head.remaining() == 0 && selected);
            if (!matches) {
                if (requested != null) {
                    throw new org.containerfs.spi.ContainerFormatException(path.toString(), 0,
                            "a " + format.name() + " container (its magic bytes were not found)");
                }
                throw new UnsupportedOperationException(path + " is not a " + format.name() + " container");
            }
        }

        Set<StandardOpenOption> openOptions = writable
                ? EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE)
                : EnumSet.of(StandardOpenOption.READ);
        Path key = key(path);
        if (writable) {
            synchronized (byContainer) {
                if (!writing.add(key)) {
                    throw new FileSystemException(path.toString(), null,
                            "the container is already open for writing in this JVM: one writer at a time");
                }
            }
        }
        // A format that builds a new container beside the target gets a locked staging sibling instead.
        String stagingName = exists ? null : format.creationStagingName(String.valueOf(path.getFileName()));
        Path channelPath = stagingName == null ? path : path.resolveSibling(stagingName);
        ContainerChannel channel;
        try {
            channel = ContainerChannel.open(channelPath, openOptions);
        } catch (IOException | RuntimeException | Error e) {
            releaseWriting(writable, key);
            throw e;
        }
        FileLock lock = null;
        try {
            if (writable) {
                lock = lockForWriting(channel, path);
            }
            ContainerSource source = new ContainerSource(path, channel, options, writable);
            Container container = (writable && (stagingName != null || channel.size() == 0))
                    ? format.create(source) : format.open(source);
            ContainerFileSystem fs = new ContainerFileSystem(this, path, channel, container, writable,
                    options.getBoolean("refresh", true), lock);
            synchronized (byContainer) {
                byContainer.putIfAbsent(key, fs);
            }
            return fs;
        } catch (IOException | RuntimeException | Error e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            releaseWriting(writable, key);
            throw e;
        }
    }

    private void releaseWriting(boolean writable, Path key) {
        if (writable) {
            synchronized (byContainer) {
                writing.remove(key);
            }
        }
    }

    private static FileLock lockForWriting(ContainerChannel channel, Path path) throws IOException {
        if (!channel.supportsLocking()) {
            return null;
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            throw new FileSystemException(path.toString(), null,
                    "the container is already open for writing (by this or another process): one writer at a time");
        }
        return lock;
    }

    private boolean hasExtension(Path path) {
        String name = String.valueOf(path.getFileName()).toLowerCase(Locale.ROOT);
        for (String ext : format.fileExtensions()) {
            if (name.endsWith("." + ext)) {
                return true;
            }
        }
        return false;
    }

    private static ByteBuffer readHead(Path path) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(path)) {
            ByteBuffer head = ByteBuffer.allocate(ContainerFormat.PROBE_BYTES);
            while (head.hasRemaining() && ch.read(head) > 0) {
                // fill what the file has
            }
            return head.flip();
        }
    }

    private static Path key(Path container) {
        return container.toAbsolutePath().normalize();
    }

    void removeFileSystem(ContainerFileSystem fs) {
        if (fs.containerPath() == null) {
            return; // opened from an input: never registered
        }
        synchronized (byContainer) {
            byContainer.remove(key(fs.containerPath()), fs);
            if (!fs.isReadOnly()) {
                writing.remove(key(fs.containerPath()));
            }
        }
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        checkScheme(uri);
        synchronized (byContainer) {
            ContainerFileSystem fs = byContainer.get(key(Paths.get(Uris.containerOf(uri))));
            if (fs == null) {
                throw new FileSystemNotFoundException(uri.toString());
            }
            return fs;
        }
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

    // ---- reading ---------------------------------------------------------------------------

    static ContainerPath toContainerPath(Path path) {
        if (!(path instanceof ContainerPath p)) {
            throw new ProviderMismatchException("not a containerfs path: " + path);
        }
        return p;
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
            FileAttribute<?>... attrs) throws IOException {
        if (options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND)) {
            return newWriteChannel(toContainerPath(path), options, attrs);
        }
        return newReadChannel(toContainerPath(path));
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        if (options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND)) {
            toContainerPath(path).getFileSystem().ensureWritable();
            throw new UnsupportedOperationException("new records are written through Files.newByteChannel "
                    + "or Files.newOutputStream; FileChannel is for reading");
        }
        return newReadChannel(toContainerPath(path));
    }

    private ContainerReadChannel newReadChannel(ContainerPath path) throws IOException {
        ContainerFileSystem fs = path.getFileSystem();
        Node node = fs.lookup(path);
        if (node.isDirectory()) {
            throw new FileSystemException(path.toString(), null, "is a directory");
        }
        return new ContainerReadChannel(fs, fs.read(node::content), path.toString());
    }

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        for (OpenOption o : options) {
            if (o == StandardOpenOption.WRITE || o == StandardOpenOption.APPEND) {
                throw new IllegalArgumentException("option " + o + " is not allowed for an input stream");
            }
        }
        return java.nio.channels.Channels.newInputStream(newReadChannel(toContainerPath(path)));
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        ContainerPath path = toContainerPath(dir);
        ContainerFileSystem fs = path.getFileSystem();
        fs.refreshIfGrown();
        Node node = fs.lookupDirectory(path);
        List<String> names = fs.read(() -> {
            List<String> out = new ArrayList<>();
            for (Node child : node.children()) {
                out.add(child.name());
            }
            return out;
        });
        return new DirectoryStream<>() {
            private boolean iterated;
            private boolean closed;

            @Override
            public Iterator<Path> iterator() {
                fs.ensureOpen();
                if (closed || iterated) {
                    throw new IllegalStateException(closed ? "directory stream closed" : "iterator already obtained");
                }
                iterated = true;
                Iterator<String> it = names.iterator();
                return new Iterator<>() {
                    private Path next;

                    @Override
                    public boolean hasNext() {
                        while (next == null && !closed && it.hasNext()) {
                            Path candidate = path.child(it.next());
                            try {
                                if (filter == null || filter.accept(candidate)) {
                                    next = candidate;
                                }
                            } catch (IOException e) {
                                throw new java.nio.file.DirectoryIteratorException(e);
                            }
                        }
                        return next != null;
                    }

                    @Override
                    public Path next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        Path p = next;
                        next = null;
                        return p;
                    }
                };
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }

    // ---- writing ---------------------------------------------------------------------------

    private SeekableByteChannel newWriteChannel(ContainerPath path, Set<? extends OpenOption> options,
            FileAttribute<?>[] attrs) throws IOException {
        ContainerFileSystem fs = path.getFileSystem();
        fs.ensureWritable();
        if (options.contains(StandardOpenOption.READ)) {
            throw new IllegalArgumentException("a new record is opened write-only (READ with WRITE is not supported)");
        }
        ContainerPath abs = path.toAbsolutePath().normalize();
        ContainerPath parentPath = abs.getParent();
        if (parentPath == null) {
            throw new FileSystemException("/", null, "is a directory");
        }
        String name = abs.getFileName().toString();
        Map<String, Object> attributes = attributeMap(fs, attrs);
        WritableByteChannel sink = fs.write(() -> {
            Node existing = fs.find(abs);
            ContainerWriter writer = fs.writer();
            if (existing != null) {
                if (options.contains(StandardOpenOption.CREATE_NEW)) {
                    throw new FileAlreadyExistsException(abs.toString());
                }
                throw new AccessDeniedException(abs.toString(), null,
                        "existing records are never modified; " + writer.allowedWrites());
            }
            if (!options.contains(StandardOpenOption.CREATE) && !options.contains(StandardOpenOption.CREATE_NEW)) {
                throw new NoSuchFileException(abs.toString());
            }
            Node parent = fs.find(parentPath);
            if (parent == null) {
                throw new NoSuchFileException(parentPath.toString());
            }
            if (!parent.isDirectory()) {
                throw new java.nio.file.NotDirectoryException(parentPath.toString());
            }
            WritableByteChannel created = writer.createFile(parent, name, attributes);
            fs.afterWrite();
            return created;
        });
        return new ContainerWriteChannel(fs, sink, abs.toString());
    }

    /**
     * Attributes given at creation, for the format. Only the format's own view can mean anything to a
     * container; others (posix:permissions, say) are refused as Files.createFile's contract asks,
     * rather than silently dropped.
     */
    private static Map<String, Object> attributeMap(ContainerFileSystem fs, FileAttribute<?>[] attrs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (FileAttribute<?> a : attrs) {
            int colon = a.name().indexOf(':');
            String view = colon < 0 ? "basic" : a.name().substring(0, colon);
            if (!view.equals(fs.format().name())) {
                throw new UnsupportedOperationException("attribute " + a.name() + " cannot be set on creation in a "
                        + fs.format().name() + " container (only " + fs.format().name() + ":* attributes)");
            }
            map.put(a.name(), a.value());
        }
        return map;
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        ContainerPath path = toContainerPath(dir).toAbsolutePath().normalize();
        ContainerFileSystem fs = path.getFileSystem();
        fs.ensureWritable();
        ContainerPath parentPath = path.getParent();
        if (parentPath == null) {
            throw new FileAlreadyExistsException("/");
        }
        Map<String, Object> attributes = attributeMap(fs, attrs);
        fs.write(() -> {
            if (fs.find(path) != null) {
                throw new FileAlreadyExistsException(path.toString());
            }
            Node parent = fs.find(parentPath);
            if (parent == null) {
                throw new NoSuchFileException(parentPath.toString());
            }
            fs.writer().createDirectory(parent, path.getFileName().toString(), attributes);
            fs.afterWrite();
            return null;
        });
    }

    @Override
    public void delete(Path path) throws IOException {
        ContainerPath p = toContainerPath(path);
        ContainerFileSystem fs = p.getFileSystem();
        fs.ensureWritable();
        fs.lookup(p);
        throw new AccessDeniedException(p.toString(), null,
                "containers are append-only: nothing is ever deleted; " + fs.writer().allowedWrites());
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        ContainerPath src = toContainerPath(source);
        ContainerPath dst = toContainerPath(target);
        Node node = src.getFileSystem().lookup(src);
        if (Arrays.asList(options).contains(StandardCopyOption.REPLACE_EXISTING)) {
            ContainerFileSystem fs = dst.getFileSystem();
            fs.ensureWritable();
            if (fs.read(() -> fs.find(dst)) != null) {
                throw new AccessDeniedException(dst.toString(), null,
                        "existing records are never replaced; " + fs.writer().allowedWrites());
            }
        }
        if (node.isDirectory()) {
            createDirectory(dst);
            return;
        }
        try (InputStream in = newInputStream(src);
                OutputStream out = java.nio.channels.Channels.newOutputStream(
                        newByteChannel(dst, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)))) {
            in.transferTo(out);
        }
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        ContainerPath src = toContainerPath(source);
        ContainerFileSystem fs = src.getFileSystem();
        fs.ensureWritable();
        fs.lookup(src);
        throw new AccessDeniedException(src.toString(), target.toString(),
                "records are named by their position in the container and cannot be renamed; "
                        + fs.writer().allowedWrites());
    }

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

    // ---- attributes ------------------------------------------------------------------------

    @Override
    @SuppressWarnings("unchecked")
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        ContainerPath p = toContainerPath(path);
        if (type == BasicFileAttributeView.class) {
            return (V) new BasicFileAttributeView() {
                @Override
                public String name() {
                    return "basic";
                }

                @Override
                public BasicFileAttributes readAttributes() throws IOException {
                    return basicAttributes(p);
                }

                @Override
                public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime)
                        throws IOException {
                    p.getFileSystem().ensureWritable();
                    throw new AccessDeniedException(p.toString(), null, "times are the container's own and cannot be set");
                }
            };
        }
        if (type == ContainerAttributeView.class) {
            return (V) new ContainerAttributeView() {
                @Override
                public String name() {
                    return p.getFileSystem().format().name();
                }

                @Override
                public Map<String, Object> readAttributes() throws IOException {
                    return formatAttributes(p);
                }
            };
        }
        return null;
    }

    private ContainerFileAttributes basicAttributes(ContainerPath p) throws IOException {
        ContainerFileSystem fs = p.getFileSystem();
        Node node = fs.lookup(p);
        // under the read lock, as the SPI promises formats: size() may read index arrays a refresh grows
        return fs.read(() -> new ContainerFileAttributes(node.isDirectory(), node.isDirectory() ? 0 : node.size(),
                fs.lastModified()));
    }

    private Map<String, Object> formatAttributes(ContainerPath p) throws IOException {
        ContainerFileSystem fs = p.getFileSystem();
        Node node = fs.lookup(p);
        return fs.read(node::attributes);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        if (type == BasicFileAttributes.class) {
            return (A) basicAttributes(toContainerPath(path));
        }
        throw new UnsupportedOperationException("attributes " + type.getName()
                + " are not supported: use BasicFileAttributes or the format view by name");
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        ContainerPath p = toContainerPath(path);
        int colon = attributes.indexOf(':');
        String view = colon < 0 ? "basic" : attributes.substring(0, colon);
        String names = colon < 0 ? attributes : attributes.substring(colon + 1);
        Map<String, Object> all;
        if (view.equals("basic")) {
            all = basicAttributes(p).asMap();
        } else if (view.equals(p.getFileSystem().format().name())) {
            all = formatAttributes(p);
        } else {
            throw new UnsupportedOperationException("attribute view " + view + " is not supported (basic, "
                    + p.getFileSystem().format().name() + ")");
        }
        if (names.equals("*")) {
            return new LinkedHashMap<>(all);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (String name : names.split(",")) {
            if (name.equals("*")) {
                out.putAll(all);
            } else if (all.containsKey(name)) {
                out.put(name, all.get(name));
            } else {
                throw new IllegalArgumentException("attribute " + view + ":" + name + " does not exist; the view has "
                        + all.keySet());
            }
        }
        return out;
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        ContainerPath p = toContainerPath(path);
        ContainerFileSystem fs = p.getFileSystem();
        fs.ensureWritable();
        int colon = attribute.indexOf(':');
        String view = colon < 0 ? "basic" : attribute.substring(0, colon);
        String name = colon < 0 ? attribute : attribute.substring(colon + 1);
        if (!view.equals(fs.format().name())) {
            throw new AccessDeniedException(p.toString(), null, "attribute " + attribute + " cannot be set");
        }
        Node node = fs.lookup(p);
        fs.write(() -> {
            fs.writer().setAttribute(node, name, value);
            fs.afterWrite();
            return null;
        });
    }
}
