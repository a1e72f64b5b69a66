package org.containerfs.ensemble;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.ProviderMismatchException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The provider of ensemble trees (scheme {@code ensemble}). Trees are made by
 * {@link org.containerfs.core.ContainerFileSystems#openTree} or by {@code newFileSystem(URI.create(
 * "ensemble:" + dir.toUri()), env)}; a path's URI ({@code ensemble:file:///data/run/!/conf.lime/msg01})
 * leads back to an open tree of that directory. Every operation that would change something throws
 * {@link ReadOnlyFileSystemException} and changes nothing.
 */
public final class EnsembleFileSystemProvider extends FileSystemProvider {
    /** Trees opened by URI (which claim it) and every open tree by directory, for Path.of(uri); shared by all instances. */
    private static final Map<String, EnsembleFileSystem> BY_URI = new HashMap<>();
    private static final Map<String, List<EnsembleFileSystem>> OPEN = new HashMap<>();

    private static final class Shared {
        static final EnsembleFileSystemProvider INSTANCE = find();

        private static EnsembleFileSystemProvider find() {
            for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
                if (p instanceof EnsembleFileSystemProvider e) {
                    return e;
                }
            }
            return new EnsembleFileSystemProvider(); // not installed (a plug-in class loader): ours alone
        }
    }

    static EnsembleFileSystemProvider instance() {
        return Shared.INSTANCE;
    }

    @Override
    public String getScheme() {
        return TreeUris.SCHEME;
    }

    // ---- trees and URIs ------------------------------------------------------------------------------

    /**
     * The directory of a source URI through the installed NIO provider of its scheme, else null. Never for an
     * object store's scheme: a provider of it (aws-java-nio-spi-for-s3) would build a client, and look for a
     * region and credentials, to answer; trees of a prefix are opened by their module.
     */
    private static Path directory(URI base) {
        String scheme = base.getScheme() == null ? "" : base.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (scheme.startsWith("s3") || scheme.equals("gs") || scheme.equals("hdfs")) {
            return null;
        }
        try {
            return Paths.get(base).toAbsolutePath().normalize();
        } catch (FileSystemNotFoundException | java.nio.file.ProviderNotFoundException | IllegalArgumentException e) {
            return null;
        }
    }

    /** A source URI as the registries know it: without a trailing '/'. */
    private static String key(String uri) {
        String s = uri;
        while (s.endsWith("/") && !s.endsWith("//")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    /** The key of a tree: its directory's normalized URI, or its source's URI. */
    private static String key(EnsembleFileSystem fs) {
        Path dir = fs.source();
        return key(dir != null ? dir.toUri().toString() : fs.baseUri().toString());
    }

    /** The key of a URI asked for: as given if a tree has it, else a file URI normalized. */
    private static String lookupKey(URI base) {
        String raw = key(base.toString());
        if (OPEN.containsKey(raw) || !"file".equalsIgnoreCase(base.getScheme())) {
            return raw;
        }
        Path dir = directory(base);
        return dir == null ? raw : key(dir.toUri().toString());
    }

    /**
     * Opens the tree of the directory in {@code ensemble:<dir uri>}, claiming that URI until it is closed. A tree
     * of another source (an S3 prefix) is opened by its module ({@code S3Containers.openTree}) and found here
     * by its URI while it is open.
     */
    @Override
    public EnsembleFileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        URI base = TreeUris.baseOf(uri);
        Path dir = directory(base);
        if (dir == null) {
            throw new FileSystemNotFoundException(uri + ": no installed file system has " + base + " (a tree of an S3 "
                    + "prefix is opened with S3Containers.openTree)");
        }
        String key = key(dir.toUri().toString());
        synchronized (OPEN) {
            if (BY_URI.containsKey(key)) {
                throw new FileSystemAlreadyExistsException(uri.toString());
            }
            EnsembleFileSystem fs = EnsembleFileSystem.open(dir, env);
            BY_URI.put(key, fs);
            return fs;
        }
    }

    /**
     * Refused: {@code FileSystems.newFileSystem(path)} asks every provider, and a directory must not
     * quietly become a tree there; {@code ContainerFileSystems.openTree} opens one.
     */
    @Override
    public FileSystem newFileSystem(Path path, Map<String, ?> env) {
        throw new UnsupportedOperationException(path + ": a tree is opened with ContainerFileSystems.openTree(dir, env)");
    }

    static void registered(EnsembleFileSystem fs) {
        synchronized (OPEN) {
            OPEN.computeIfAbsent(key(fs), k -> new ArrayList<>()).add(fs);
        }
    }

    void removed(EnsembleFileSystem fs) {
        String key = key(fs);
        synchronized (OPEN) {
            BY_URI.remove(key, fs);
            List<EnsembleFileSystem> trees = OPEN.get(key);
            if (trees != null && trees.remove(fs) && trees.isEmpty()) {
                OPEN.remove(key);
            }
        }
    }

    /** The tree opened by this URI, else any open tree of its directory. */
    @Override
    public EnsembleFileSystem getFileSystem(URI uri) {
        synchronized (OPEN) {
            String dir = lookupKey(TreeUris.baseOf(uri));
            EnsembleFileSystem fs = BY_URI.get(dir);
            if (fs == null && OPEN.containsKey(dir)) {
                fs = OPEN.get(dir).get(0);
            }
            if (fs == null) {
                throw new FileSystemNotFoundException(uri + ": no tree of " + dir + " is open");
            }
            return fs;
        }
    }

    @Override
    public EnsemblePath getPath(URI uri) {
        return getFileSystem(uri).getPath(TreeUris.pathOf(uri));
    }

    private static EnsemblePath treePath(Path path) {
        if (path == null) {
            throw new NullPointerException();
        }
        if (!(path instanceof EnsemblePath p)) {
            throw new ProviderMismatchException("not a path of an ensemble tree: " + path);
        }
        return p;
    }

    /** A step that needs to know where its path leads. */
    private interface Located<T> {
        T run(EnsembleFileSystem.Location where) throws IOException;
    }

    /**
     * Runs {@code step} where {@code path} leads. A file named like a container that turns out not to
     * be one is remembered as a plain file when its open finds no format's magic bytes: the step then
     * runs again on it as such. Errors of the source or of a container name the tree's path.
     */
    private static <T> T at(EnsemblePath path, Located<T> step) throws IOException {
        EnsembleFileSystem fs = path.getFileSystem();
        try {
            try {
                EnsembleFileSystem.Location listed = path.listedAt();
                if (listed != null) {
                    fs.ensureOpen();
                }
                return step.run(listed != null ? listed : fs.locate(path));
            } catch (ContainerCache.NotAContainerException plainAfterAll) {
                return step.run(fs.locate(path));
            }
        } catch (FileSystemException e) {
            throw renamed(e, path);
        }
    }

    /** The source's error for the tree's path: the user never sees the source's own paths in place of theirs. */
    private static IOException renamed(FileSystemException e, EnsemblePath path) {
        FileSystemException out;
        if (e instanceof NoSuchFileException) {
            out = new NoSuchFileException(path.toString(), null, e.getReason());
        } else if (e instanceof NotDirectoryException) {
            out = new NotDirectoryException(path.toString());
        } else if (e instanceof AccessDeniedException) {
            out = new AccessDeniedException(path.toString(), null, e.getReason());
        } else if (e.getClass() == FileSystemException.class) {
            out = new FileSystemException(path.toString(), null, e.getReason());
        } else {
            return e;
        }
        out.initCause(e);
        return out;
    }

    // ---- reading -----------------------------------------------------------------------------------------

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        EnsemblePath p = treePath(path);
        if (options.contains(StandardOpenOption.APPEND)
                && (options.contains(StandardOpenOption.READ) || options.contains(StandardOpenOption.TRUNCATE_EXISTING))) {
            throw new IllegalArgumentException("APPEND with " + (options.contains(StandardOpenOption.READ) ? "READ"
                    : "TRUNCATE_EXISTING") + " is not allowed");
        }
        if (options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND)
                || options.contains(StandardOpenOption.DELETE_ON_CLOSE) || attrs.length > 0) {
            throw new ReadOnlyFileSystemException();
        }
        EnsembleFileSystem fs = p.getFileSystem();
        return at(p, where -> {
            if (!where.inContainer()) {
                SeekableByteChannel source = fs.files().newByteChannel(where.source(), fs.containerEnv());
                ReleasingChannel[] tracked = new ReleasingChannel[1];
                tracked[0] = new ReleasingChannel(source, () -> fs.untrack(tracked[0]));
                fs.track(tracked[0]);
                return tracked[0];
            }
            ContainerCache.Handle handle = fs.acquire(where);
            try {
                SeekableByteChannel inner = Files.newByteChannel(EnsembleFileSystem.innerPath(handle, where),
                        StandardOpenOption.READ);
                return new ReleasingChannel(inner, () -> fs.release(handle));
            } catch (IOException | RuntimeException | Error e) {
                fs.release(handle);
                throw e;
            }
        });
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        EnsemblePath p = treePath(dir);
        EnsembleFileSystem fs = p.getFileSystem();
        EnsemblePath listed = p; // entries are named under the path as given (relative stays relative)
        return at(p, where -> {
            if (!where.inContainer()) {
                DirectoryStream<String> source = fs.files().list(where.source());
                List<String> sourceDir = where.source();
                TreeDirectoryStream[] tracked = new TreeDirectoryStream[1];
                tracked[0] = new TreeDirectoryStream(source, entry -> {
                    String name = String.valueOf(entry);
                    return fs.shown(sourceDir, name) ? listed.child(name) : null;
                }, filter, () -> fs.untrack(tracked[0]));
                fs.track(tracked[0]);
                return tracked[0];
            }
            ContainerCache.Handle handle = fs.acquire(where);
            try {
                DirectoryStream<Path> inner = Files.newDirectoryStream(EnsembleFileSystem.innerPath(handle, where));
                return new TreeDirectoryStream(inner, entry -> {
                    Path e = (Path) entry;
                    return listed.listedChild(String.valueOf(e.getFileName()), where, e);
                }, filter, () -> fs.release(handle));
            } catch (IOException | RuntimeException | Error e) {
                fs.release(handle);
                throw e;
            }
        });
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        if (type != BasicFileAttributes.class) {
            throw new UnsupportedOperationException(type.getSimpleName() + " are not supported by an ensemble tree "
                    + "(BasicFileAttributes are; a format's attributes are read by name, \"lime:*\")");
        }
        EnsemblePath p = treePath(path);
        return (A) at(p, where -> basicAttributes(p, where, options));
    }

    private static BasicFileAttributes basicAttributes(EnsemblePath p, EnsembleFileSystem.Location where,
            LinkOption... options) throws IOException {
        EnsembleFileSystem fs = p.getFileSystem();
        if (!where.inContainer()) {
            return fs.files().attributes(where.source(), options);
        }
        if (where.inner().length == 0) {
            // the container's own directory: from its file's stat, never an open
            return TreeAttributes.containerDirectory(fs.files().attributes(where.source()));
        }
        return fs.inContainer(where, p.listedInner(), inner -> Files.readAttributes(inner, BasicFileAttributes.class));
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        EnsemblePath p = treePath(path);
        int colon = attributes.indexOf(':');
        String view = colon < 0 ? "basic" : attributes.substring(0, colon);
        String names = colon < 0 ? attributes : attributes.substring(colon + 1);
        if (view.equals("basic")) {
            return TreeAttributes.asMap(readAttributes(p, BasicFileAttributes.class, options), names);
        }
        if (!p.getFileSystem().supportedFileAttributeViews().contains(view)) {
            throw new UnsupportedOperationException("view " + view + " is not supported (" 
                    + p.getFileSystem().supportedFileAttributeViews() + ")");
        }
        return at(p, where -> {
            if (!where.inContainer()) {
                throw new UnsupportedOperationException(p + ": view " + view
                        + " is available only on paths inside a container");
            }
            return p.getFileSystem().inContainer(where, p.listedInner(),
                    inner -> Files.readAttributes(inner, attributes, options));
        });
    }

    /** See {@link EnsembleFileSystem#formatAttributes}. */
    static Map<String, Object> formatAttributes(EnsemblePath p) throws IOException {
        return at(p, where -> {
            if (!where.inContainer() || where.inner().length == 0) {
                return Map.of();
            }
            return p.getFileSystem().inContainer(where, p.listedInner(), inner -> {
                String view = inner.getFileSystem().provider().getScheme();
                return inner.getFileSystem().supportedFileAttributeViews().contains(view)
                        ? Files.readAttributes(inner, view + ":*") : Map.of();
            });
        });
    }

    /** The basic view only, bound to the tree path (not to a container that may be closed meanwhile); null for others. */
    @Override
    @SuppressWarnings("unchecked")
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        EnsemblePath p = treePath(path);
        if (type != BasicFileAttributeView.class) {
            return null;
        }
        return (V) new BasicFileAttributeView() {
            @Override
            public String name() {
                return "basic";
            }

            @Override
            public BasicFileAttributes readAttributes() throws IOException {
                return EnsembleFileSystemProvider.this.readAttributes(p, BasicFileAttributes.class, options);
            }

            @Override
            public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) {
                throw new ReadOnlyFileSystemException();
            }
        };
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        EnsemblePath p = treePath(path);
        AccessMode[] reading = Arrays.stream(modes).filter(m -> m != AccessMode.WRITE).toArray(AccessMode[]::new);
        at(p, where -> {
            if (!where.inContainer()) {
                p.getFileSystem().files().checkAccess(where.source(), reading);
            } else if (where.inner().length > 0) {
                p.getFileSystem().inContainer(where, inner -> {
                    inner.getFileSystem().provider().checkAccess(inner, reading);
                    return null;
                });
            } // a container's own directory exists (locate found its file) and is readable and searchable
            return null;
        });
        if (reading.length < modes.length) {
            throw new AccessDeniedException(p.toString(), null, "the tree is read-only");
        }
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        EnsemblePath a = treePath(path);
        if (a.equals(path2)) {
            return true;
        }
        if (!(path2 instanceof EnsemblePath b) || b.getFileSystem() != a.getFileSystem()) {
            return false;
        }
        EnsemblePath x = a.toAbsolutePath().normalize();
        if (!x.equals(b.toAbsolutePath().normalize())) {
            return false;
        }
        checkAccess(x);
        return true;
    }

    @Override
    public boolean isHidden(Path path) {
        EnsemblePath name = treePath(path).getFileName();
        return name != null && name.toString().startsWith(".");
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        EnsemblePath p = treePath(path);
        checkAccess(p);
        return p.getFileSystem().fileStore();
    }

    // ---- refused: the tree is read-only --------------------------------------------------------------------

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) {
        treePath(dir).getFileSystem().ensureOpen();
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void delete(Path path) {
        treePath(path).getFileSystem().ensureOpen();
        throw new ReadOnlyFileSystemException();
    }

    /** Copying or moving a path onto itself does nothing, as on every JDK file system; anything else is refused. */
    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        refuseUnlessSame(source, target);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        refuseUnlessSame(source, target);
    }

    private void refuseUnlessSame(Path source, Path target) throws IOException {
        EnsemblePath s = treePath(source);
        treePath(target);
        s.getFileSystem().ensureOpen();
        if (isSameFile(s, target)) {
            checkAccess(s); // a missing source is NoSuchFileException even onto itself
            return;
        }
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) {
        treePath(link).getFileSystem().ensureOpen();
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void createLink(Path link, Path existing) {
        treePath(link).getFileSystem().ensureOpen();
        throw new ReadOnlyFileSystemException();
    }

    /** As for a container: an unknown view is UnsupportedOperationException, an unknown name IllegalArgumentException, then read-only. */
    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
        EnsemblePath p = treePath(path);
        int colon = attribute.indexOf(':');
        String view = colon < 0 ? "basic" : attribute.substring(0, colon);
        String name = colon < 0 ? attribute : attribute.substring(colon + 1);
        if (!p.getFileSystem().supportedFileAttributeViews().contains(view)) {
            throw new UnsupportedOperationException("view " + view + " is not supported");
        }
        if (view.equals("basic") && !Set.of("lastModifiedTime", "lastAccessTime", "creationTime").contains(name)) {
            throw new IllegalArgumentException("basic:" + name + " cannot be set");
        }
        p.getFileSystem().ensureOpen();
        throw new ReadOnlyFileSystemException();
    }
}
