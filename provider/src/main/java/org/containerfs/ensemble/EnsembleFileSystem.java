package org.containerfs.ensemble;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.WatchService;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.containerfs.core.ContainerFileSystemProvider;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.spi.FormatOptions;

/**
 * A read-only tree over a directory of containers (an ensemble): the source's directories and plain
 * files as they are, and every container shown as a directory of the container's own name whose
 * inside is the container's tree ({@code /conf.1000.lime/msg02/rec04.ildg-binary-data}). Made by
 * {@link ContainerFileSystems#openTree}; docs/ensemble.md says what appears and how containers are
 * recognised.
 *
 * <p>The tree itself keeps nothing per file or record: a path is resolved against the source when it
 * is used. What it keeps are the open containers ({@link ContainerCache}, bounded) and the names found
 * not to be containers.
 */
public final class EnsembleFileSystem extends FileSystem {
    /** env keys of the tree itself; every other key goes to each container's open. */
    static final String CACHE_CONTAINERS = "cacheContainers";
    static final String CONTAINER_NAMES = "containerNames";
    static final int DEFAULT_CACHE_CONTAINERS = 256;

    /** env key: the bound on the open containers' estimated index memory, in bytes. */
    static final String CACHE_BYTES = "cacheBytes";
    static final long DEFAULT_CACHE_BYTES = 256L << 20;

    private final EnsembleFileSystemProvider provider;
    private final TreeSource source;
    private final URI baseUri;
    private final ContainerNames names;
    private final ContainerCache cache;
    /** The env every container's open gets (the tree's own keys taken out). */
    private final Map<String, ?> containerEnv;
    private final EnsemblePath root;
    private final EnsembleFileStore store;
    /** Channels and directory streams of the source's own files, closed with the tree. */
    private final Set<Closeable> sourceResources = ConcurrentHashMap.newKeySet();
    private volatile boolean open = true;

    private EnsembleFileSystem(EnsembleFileSystemProvider provider, TreeSource source, Map<String, ?> env) throws IOException {
        FormatOptions options = new FormatOptions(env);
        String format = options.getString("format", null);
        if (format != null) {
            throw new IllegalArgumentException("env format=" + format + " does not apply to a tree: each container's "
                    + "format is found from its bytes");
        }
        if (options.getBoolean("create", false) || !options.getString("accessMode", "readOnly").equals("readOnly")) {
            throw new java.nio.file.ReadOnlyFileSystemException();
        }
        long capacity = options.getLong(CACHE_CONTAINERS, DEFAULT_CACHE_CONTAINERS);
        if (capacity < 1 || capacity > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("env " + CACHE_CONTAINERS + " must be between 1 and " + Integer.MAX_VALUE
                    + ", got " + capacity);
        }
        long capacityBytes = options.getLong(CACHE_BYTES, DEFAULT_CACHE_BYTES);
        if (capacityBytes < 1) {
            throw new IllegalArgumentException("env " + CACHE_BYTES + " must be at least 1, got " + capacityBytes);
        }
        Map<String, Object> containerEnv = new java.util.HashMap<>(env);
        containerEnv.remove(CACHE_CONTAINERS);
        containerEnv.remove(CACHE_BYTES);
        containerEnv.remove(CONTAINER_NAMES);
        this.provider = provider;
        this.source = source;
        this.baseUri = source.uri();
        this.names = new ContainerNames(options.getString(CONTAINER_NAMES, null));
        this.containerEnv = Map.copyOf(containerEnv);
        this.cache = new ContainerCache(source, (int) capacity, capacityBytes, this.containerEnv);
        this.root = new EnsemblePath(this, true, new String[0]);
        this.store = new EnsembleFileStore(this, source);
    }

    /** The tree over directory {@code dir} (see {@link ContainerFileSystems#openTree}). */
    public static EnsembleFileSystem open(Path dir, Map<String, ?> env) throws IOException {
        Path base = dir.toAbsolutePath().normalize();
        BasicFileAttributes a = Files.readAttributes(base, BasicFileAttributes.class);
        if (!a.isDirectory()) {
            throw new NotDirectoryException(dir + " (a tree is opened over a directory; a container file opens "
                    + "with ContainerFileSystems.open)");
        }
        return open(TreeSource.of(base), env);
    }

    /**
     * The tree over {@code source} (a directory, an S3 prefix: see {@link TreeSource}), which it takes over:
     * closing the tree closes the source, and so does a failed open.
     */
    public static EnsembleFileSystem open(TreeSource source, Map<String, ?> env) throws IOException {
        EnsembleFileSystem fs;
        try {
            fs = new EnsembleFileSystem(EnsembleFileSystemProvider.instance(), source, env == null ? Map.of() : env);
        } catch (IOException | RuntimeException | Error e) {
            try {
                source.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        EnsembleFileSystemProvider.registered(fs);
        return fs;
    }

    /** The directory this tree shows, or null when its source is not a directory of an NIO file system (an S3 prefix). */
    public Path source() {
        return source.path();
    }

    /** Where the tree's files live. */
    public TreeSource treeSource() {
        return source;
    }

    /** How many times a container was opened since the tree was (reopens after eviction count again). */
    public long containersOpened() {
        return cache.opened();
    }

    /** How many containers are open now. */
    public int containersOpen() {
        return cache.openNow();
    }

    /** The most containers that were open at once. */
    public int peakContainersOpen() {
        return cache.peakOpen();
    }

    /** The bound on open containers not in use (env {@code cacheContainers}). */
    public int containerCacheCapacity() {
        return cache.capacity();
    }

    /**
     * Whether {@code path} is the directory a container shows (its own directory, not a path inside it),
     * as a listing sees it: from the name and one {@code stat} of the file, opening nothing. A file named
     * like a container that turns out not to be one answers true until its first use found that out.
     */
    public boolean isContainerDirectory(Path path) throws IOException {
        Location where = locate(treePath(path));
        return where.inContainer() && where.inner().length == 0;
    }

    /**
     * The format (its scheme: {@code lime}, {@code gsd}, ...) of the container that {@code path} is or
     * lies in; opens it (through the bounded cache) if it is not open. {@link NoSuchFileException} for a
     * path outside every container; a file named like a container whose bytes no format claims is an
     * {@link IOException} saying so (from then on it is a plain file).
     */
    public String containerFormat(Path path) throws IOException {
        Location where = locate(treePath(path));
        if (!where.inContainer()) {
            throw new NoSuchFileException(path.toString(), null, "not a container, nor inside one");
        }
        return inContainer(where, inner -> inner.getFileSystem().provider().getScheme());
    }

    /**
     * {@link org.containerfs.core.ContainerFileSystems#storedRange} of a path of this tree: the answer of the
     * container it lies in (which is opened through the bounded cache if it is not open); empty for a
     * path outside every container (a plain file of the source, which may change at any time).
     */
    public java.util.Optional<org.containerfs.core.StoredRange> storedRange(Path path) throws IOException {
        Location where = locate(treePath(path));
        if (!where.inContainer() || where.inner().length == 0) {
            return java.util.Optional.empty();
        }
        try {
            return inContainer(where, org.containerfs.core.ContainerFileSystems::storedRange);
        } catch (ContainerCache.NotAContainerException plainAfterAll) {
            return java.util.Optional.empty();
        }
    }

    /**
     * The format's attributes of a path inside a container (its view's {@code *}: what
     * {@code Files.readAttributes(p, "lime:*")} gives in the container's single open), for {@code ls -l} and the
     * like; empty for a path outside every container and for a container's own directory, which a listing shows
     * from its file's {@code stat} without opening it. Opens the container (through the bounded cache) if it is not
     * open.
     */
    public Map<String, Object> formatAttributes(Path path) throws IOException {
        return EnsembleFileSystemProvider.formatAttributes(treePath(path));
    }

    private EnsemblePath treePath(Path path) {
        if (!(path instanceof EnsemblePath p) || p.getFileSystem() != this) {
            throw new java.nio.file.ProviderMismatchException("not a path of this tree: " + path);
        }
        return p;
    }

    /**
     * A value that moves whenever the listing of the directory {@code path} may have changed, read without opening
     * any container; empty where the tree has no such cheap value. A directory a container shows (its own or one
     * inside it) is listed from the container's bytes alone, so its value is one {@code stat} of the container's
     * file: its size, modification time and file key (the identity the persisted index cache trusts too). The
     * mount compares it at {@code opendir} with the value its cached listing was made at, and keeps the kernel's
     * listing without reopening the container when they are equal. Empty for a directory of the source (listing
     * it opens nothing: names and one {@code stat} each) and for a SIONlib container (its set's later files count
     * too).
     */
    public java.util.OptionalLong listingStamp(Path path) throws IOException {
        Location where = locate(treePath(path));
        if (!where.inContainer() || !names.singleFile(where.source().get(where.source().size() - 1))
                || cache.multiFile(where.source())) {
            return java.util.OptionalLong.empty();
        }
        BasicFileAttributes a = source.attributes(where.source());
        if (!a.isRegularFile()) {
            return java.util.OptionalLong.empty();
        }
        long h = a.size();
        h = h * 0x9E3779B97F4A7C15L + (a.lastModifiedTime() == null ? 0 : a.lastModifiedTime().toMillis() * 1_000_003L
                + a.lastModifiedTime().toInstant().getNano());
        h = h * 0x9E3779B97F4A7C15L + java.util.Objects.hashCode(a.fileKey());
        return java.util.OptionalLong.of(h);
    }

    /** The bound on the estimated index memory of open containers not in use (env {@code cacheBytes}). */
    public long containerCacheBytes() {
        return cache.capacityBytes();
    }

    /** The estimated index memory of the containers open now ({@code Container.indexMemoryBytes}). */
    public long containersOpenBytes() {
        return cache.openBytes();
    }

    /** The most estimated index memory held by open containers at once. */
    public long peakContainersOpenBytes() {
        return cache.peakBytes();
    }

    // ---- resolution of a tree path against the source --------------------------------------------

    /**
     * Where a tree path leads: a file or directory of the source ({@code inner} null), or a place in the
     * container at source path {@code source} shown at tree path {@code entry} ({@code inner}: the names
     * inside it, none for the container's own directory).
     */
    record Location(List<String> source, EnsemblePath entry, String[] inner) {
        boolean inContainer() {
            return inner != null;
        }
    }

    Location locate(EnsemblePath path) throws IOException {
        ensureOpen();
        EnsemblePath absolute = path.toAbsolutePath().normalize();
        String[] n = absolute.names();
        for (int i = 0; i < n.length; i++) {
            String name = n[i];
            String owner = ContainerNames.sionSetOwner(name);
            if (owner != null && isContainer(sourcePath(n, i, owner))) {
                throw new NoSuchFileException(absolute.toString(), null,
                        "a later file of the SIONlib set " + owner + ", which shows the whole set");
            }
            if (names.looksLikeContainer(name)) {
                List<String> next = List.of(Arrays.copyOf(n, i + 1));
                if (isContainer(next)) {
                    return new Location(next, new EnsemblePath(this, true, Arrays.copyOf(n, i + 1)),
                            Arrays.copyOfRange(n, i + 1, n.length));
                }
            }
        }
        return new Location(List.of(n), absolute, null);
    }

    /** The source path of the first {@code count} names of {@code n} and then {@code last}. */
    private static List<String> sourcePath(String[] n, int count, String last) {
        String[] p = Arrays.copyOf(n, count + 1);
        p[count] = last;
        return List.of(p);
    }

    /** A regular file named like a container that is not known to be something else (one stat, none if open). */
    private boolean isContainer(List<String> file) throws IOException {
        if (cache.isOpen(file)) {
            return true;
        }
        BasicFileAttributes a;
        try {
            a = source.attributes(file);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return false;
        }
        return a.isRegularFile() && !cache.knownNotContainer(file, a);
    }

    /** Whether a listed name of the source is shown (later files of a SIONlib set are not). */
    boolean shown(List<String> sourceDir, String name) throws IOException {
        String owner = ContainerNames.sionSetOwner(name);
        return owner == null || !isContainer(sourcePath(sourceDir.toArray(new String[0]), sourceDir.size(), owner));
    }

    /** Runs {@code action} on the open container of {@code where}, pinned for the action's length. */
    <T> T inContainer(Location where, ContainerAction<T> action) throws IOException {
        return inContainer(where, null, action);
    }

    /**
     * As {@link #inContainer(Location, ContainerAction)}; {@code listed}: the container's path of {@code where}
     * from a listing of it, used if that container is still the open one (it finds the entry by its place in
     * the listing, not by name), or null.
     */
    <T> T inContainer(Location where, Path listed, ContainerAction<T> action) throws IOException {
        ContainerCache.Handle handle = listed != null ? cache.acquireOpen(listed.getFileSystem()) : null;
        if (handle == null) {
            handle = cache.acquire(where.source());
        }
        try {
            FileSystem open = handle.fileSystem();
            return action.run(listed != null && listed.getFileSystem() == open ? listed : innerPath(handle, where));
        } finally {
            cache.release(handle);
        }
    }

    interface ContainerAction<T> {
        T run(Path inner) throws IOException;
    }

    /** Pins the container of {@code where} until {@link #release}; for channels and streams. */
    ContainerCache.Handle acquire(Location where) throws IOException {
        return cache.acquire(where.source());
    }

    void release(ContainerCache.Handle handle) throws IOException {
        cache.release(handle);
    }

    static Path innerPath(ContainerCache.Handle handle, Location where) {
        return handle.fileSystem().getPath("/", where.inner());
    }

    void track(Closeable sourceResource) {
        sourceResources.add(sourceResource);
    }

    void untrack(Closeable sourceResource) {
        sourceResources.remove(sourceResource);
    }

    // ---- FileSystem --------------------------------------------------------------------------------

    @Override
    public EnsembleFileSystemProvider provider() {
        return provider;
    }

    /** Closes every container the tree opened and every channel and stream it gave out. */
    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        IOException failure = null;
        try {
            cache.close();
        } catch (IOException e) {
            failure = e;
        }
        try {
            source.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        for (Closeable c : List.copyOf(sourceResources)) {
            try {
                c.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        sourceResources.clear();
        provider.removed(this);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    void ensureOpen() {
        if (!open) {
            throw new ClosedFileSystemException();
        }
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public String getSeparator() {
        return "/";
    }

    EnsemblePath root() {
        return root;
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        ensureOpen();
        return List.of(root);
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        ensureOpen();
        return List.of(store);
    }

    FileStore fileStore() {
        return store;
    }

    /** basic, and the view of every installed format (for paths inside its containers). */
    @Override
    public Set<String> supportedFileAttributeViews() {
        Set<String> views = new LinkedHashSet<>();
        views.add("basic");
        for (ContainerFileSystemProvider p : ContainerFileSystems.providers()) {
            views.add(p.format().name());
        }
        return views;
    }

    @Override
    public EnsemblePath getPath(String first, String... more) {
        return EnsemblePath.of(this, first, more);
    }

    /** glob and regex as the JDK's default file system reads them, matched against the path's string. */
    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
        return path -> matcher.matches(Path.of(path.toString()));
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        throw new UnsupportedOperationException("an ensemble tree has no users or groups");
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException("an ensemble tree has no WatchService: list again to see new containers");
    }

    URI baseUri() {
        return baseUri;
    }

    URI uriOf(EnsemblePath absolute) {
        return TreeUris.uri(baseUri, absolute.toString());
    }

    @Override
    public String toString() {
        return "ensemble:" + baseUri;
    }

    Map<String, ?> containerEnv() {
        return containerEnv;
    }

    /** Where the files of the tree live (for the provider). */
    TreeSource files() {
        return source;
    }
}
