package org.containerfs.core;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.Channel;
import java.nio.channels.FileLock;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.WatchService;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.regex.Pattern;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.Node;
import org.containerfs.storage.ContainerInput;

/**
 * One opened container. Tree reads share a read lock; refresh and every write take the write lock.
 * Content reads take no lock: formats serve them by positional reads of the container channel.
 */
public final class ContainerFileSystem extends FileSystem {
    private final ContainerFileSystemProvider provider;
    private final ContainerFormat format;
    private final Path containerPath;
    private final ContainerInput input;
    /** Computed on first use: a Path's {@code toUri()} is a {@code stat} of the file, for every open otherwise. */
    private volatile URI containerUri;
    private final ContainerChannel channel;
    /** The decompression layer the container is read through, or null (see {@link Decompression}). */
    private volatile org.containerfs.storage.gzip.GzipInput gzip;
    private final Container container;
    private final boolean writable;
    private final boolean autoRefresh;
    private final FileLock writerLock;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Set<Channel> openChannels = ConcurrentHashMap.newKeySet();
    private final ContainerPath root;
    private final ContainerFileStore store;
    private volatile ContainerWriter writer;
    private volatile boolean open = true;
    private volatile long knownSize;
    private volatile FileTime lastModified;
    /** Refreshes that changed the tree (see {@link #changes()}); written under the write lock. */
    private volatile long changes;

    /** @param modified the container's modification time if the opener knows it (null: asked here) */
    ContainerFileSystem(ContainerFileSystemProvider provider, Path containerPath, ContainerChannel channel,
            Container container, boolean writable, boolean autoRefresh, FileLock writerLock, FileTime modified)
            throws IOException {
        this(provider, containerPath, null, channel, container, writable, autoRefresh, writerLock, modified);
    }

    /** A read-only file system over a container read through {@code input}. */
    ContainerFileSystem(ContainerFileSystemProvider provider, ContainerInput input, ContainerChannel channel,
            Container container, boolean autoRefresh) throws IOException {
        this(provider, null, input, channel, container, false, autoRefresh, null, null);
    }

    private ContainerFileSystem(ContainerFileSystemProvider provider, Path containerPath, ContainerInput input,
            ContainerChannel channel, Container container, boolean writable, boolean autoRefresh,
            FileLock writerLock, FileTime modified) throws IOException {
        this.provider = provider;
        this.format = provider.format();
        this.containerPath = containerPath;
        this.input = input;
        this.containerUri = containerPath != null ? null : input.uri();
        this.channel = channel;
        this.container = container;
        this.writable = writable;
        this.autoRefresh = autoRefresh;
        this.writerLock = writerLock;
        this.root = new ContainerPath(this, true, new String[0]);
        this.store = new ContainerFileStore(this);
        this.knownSize = channel.size();
        this.lastModified = modified != null ? modified : readModifiedTime();
    }

    private FileTime readModifiedTime() {
        try {
            return containerPath != null ? Files.getLastModifiedTime(containerPath) : input.lastModified();
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    @Override
    public ContainerFileSystemProvider provider() {
        return provider;
    }

    public ContainerFormat format() {
        return format;
    }

    /**
     * The container file this file system shows, on whatever file system it lives; null when it was
     * opened from a {@link ContainerInput} (an object in a store has no Path): use {@link #containerUri()}.
     */
    public Path containerPath() {
        return containerPath;
    }

    /**
     * Where the container lives: its file's URI ({@code file:///data/conf.lime}), or its input's
     * ({@code s3://bucket/run/conf.lime}). Paths of this file system have URIs
     * {@code <format>:<containerUri>!<path>}.
     */
    public URI containerUri() {
        URI uri = containerUri;
        if (uri == null) {
            uri = containerPath.toUri();
            containerUri = uri;
        }
        return uri;
    }

    /**
     * An estimate of the heap the open container's index holds ({@code Container.indexMemoryBytes()}); a tree
     * of many containers bounds its cache of open ones by the sum.
     */
    public long indexMemoryBytes() {
        return container.indexMemoryBytes();
    }

    /** The container's own file name (last element of its path or object key). */
    String containerName() {
        return containerPath != null ? String.valueOf(containerPath.getFileName())
                : org.containerfs.spi.ContainerSource.lastSegment(containerUri());
    }

    void decompressedBy(org.containerfs.storage.gzip.GzipInput gzip) {
        this.gzip = gzip;
    }

    /** The decompression layer the container is read through, or null for a container stored as it is. */
    org.containerfs.storage.gzip.GzipInput decompression() {
        return gzip;
    }

    ContainerChannel channel() {
        return channel;
    }

    FileTime lastModified() {
        return lastModified;
    }

    @Override
    public void close() throws IOException {
        lock.writeLock().lock();
        try {
            if (!open) {
                return;
            }
            IOException failure = null;
            // Channels first, while still open: closing a write channel commits its record.
            for (Channel c : openChannels) {
                try {
                    c.close();
                } catch (IOException e) {
                    failure = addFailure(failure, e);
                }
            }
            open = false;
            try {
                if (writer != null) {
                    writer.close();
                }
            } catch (IOException e) {
                failure = addFailure(failure, e);
            }
            try {
                container.close();
            } catch (IOException e) {
                failure = addFailure(failure, e);
            }
            try {
                if (writerLock != null && writerLock.isValid()) {
                    writerLock.release();
                }
                channel.close();
            } catch (IOException e) {
                failure = addFailure(failure, e);
            }
            provider.removeFileSystem(this);
            if (failure != null) {
                throw failure;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static IOException addFailure(IOException first, IOException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean isReadOnly() {
        return !writable;
    }

    @Override
    public String getSeparator() {
        return "/";
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

    @Override
    public Set<String> supportedFileAttributeViews() {
        return Set.of("basic", format.name());
    }

    @Override
    public ContainerPath getPath(String first, String... more) {
        return ContainerPath.parse(this, first, more);
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        int colon = syntaxAndPattern.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected syntax:pattern, got " + syntaxAndPattern);
        }
        String syntax = syntaxAndPattern.substring(0, colon);
        String pattern = syntaxAndPattern.substring(colon + 1);
        Pattern regex;
        if (syntax.equalsIgnoreCase("glob")) {
            regex = Pattern.compile(Globs.toRegex(pattern));
        } else if (syntax.equalsIgnoreCase("regex")) {
            regex = Pattern.compile(pattern);
        } else {
            throw new UnsupportedOperationException("syntax " + syntax + " is not supported (glob, regex)");
        }
        return path -> regex.matcher(path.toString()).matches();
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        throw new UnsupportedOperationException("containerfs has no users or groups");
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException("containerfs has no WatchService yet; list again to see new records");
    }

    @Override
    public String toString() {
        return format.name() + ":" + containerUri();
    }

    URI uriOf(ContainerPath absolute) {
        return Uris.containerUri(format.name(), containerUri(), absolute.toString());
    }

    void ensureOpen() {
        if (!open) {
            throw new ClosedFileSystemException();
        }
    }

    void ensureWritable() {
        ensureOpen();
        if (!writable) {
            throw new ReadOnlyFileSystemException();
        }
    }

    /** Work on the tree under the shared lock. */
    <T> T read(TreeAction<T> action) throws IOException {
        ensureOpen();
        lock.readLock().lock();
        try {
            ensureOpen();
            return action.run();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Work that changes the tree (appends, refresh) under the exclusive lock. */
    <T> T write(TreeAction<T> action) throws IOException {
        ensureOpen();
        lock.writeLock().lock();
        try {
            ensureOpen();
            treeVersion++; // before the change: a listing made earlier no longer vouches for its nodes
            return action.run();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Changes with every {@link #write}: what a {@link DirectoryListing} compares to know it is current. */
    private volatile int treeVersion;

    int treeVersion() {
        return treeVersion;
    }

    interface TreeAction<T> {
        T run() throws IOException;
    }

    /** The node at {@code path}, or null. Call under a lock. */
    Node find(ContainerPath path) throws IOException {
        String[] names = path.toAbsolutePath().normalize().names();
        Node node = container.root();
        for (String name : names) {
            if (!node.isDirectory()) {
                return null;
            }
            node = node.child(name);
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    /** The node of a just-listed path by its place in the listing, else by name; null if none. Call under a lock. */
    Node findUnderLock(ContainerPath path) throws IOException {
        Node listed;
        try {
            listed = path.listedNodeUnderLock();
        } catch (IOException | java.io.UncheckedIOException e) {
            listed = null; // looked up by name instead, which reports what is wrong
        }
        return listed != null ? listed : find(path);
    }

    /**
     * The node at {@code path}, refreshing once if it is missing and the container grew. A refresh of
     * another thread (the FUSE mount's growth watcher) may come between the miss and this call's own check,
     * which then finds nothing new: the node is looked for again whenever {@link #changes()} moved since the
     * miss, whoever's refresh moved it, else a name present before the lookup began would be reported missing.
     */
    Node lookup(ContainerPath path) throws IOException {
        long seen = changes; // before the miss: a refresh after it moves the count
        Node node = read(() -> findUnderLock(path));
        if (node == null && (refreshIfGrown() || changes != seen)) {
            node = read(() -> find(path));
        }
        if (node == null) {
            throw new NoSuchFileException(path.toString());
        }
        return node;
    }

    Node lookupDirectory(ContainerPath path) throws IOException {
        Node node = lookup(path);
        if (!node.isDirectory()) {
            throw new NotDirectoryException(path.toString());
        }
        return node;
    }

    /**
     * Live growth: a cheap size check; if the container grew (another process appends), or its tail
     * was unfinished at the last scan, the format scans only the tail. Read-only file systems only:
     * a writable one holds the writer lock.
     */
    boolean refreshIfGrown() throws IOException {
        if (writable || !autoRefresh || !open) {
            return false;
        }
        long size = channel.size();
        // Same size is not always "nothing new": a writer may complete a tail in place (LIME writes a
        // record's header last), so a container with an unfinished tail is asked again.
        if (size == knownSize && !read(container::hasIncompleteTail)) {
            return false;
        }
        return write(() -> {
            long seen = channel.size(); // before the scan: growth during it is caught by the next check
            boolean changed = container.refresh();
            knownSize = seen;
            lastModified = readModifiedTime();
            if (changed) {
                changes++;
            }
            return changed;
        });
    }

    /**
     * How many times a refresh found the container grown (new units) since it was opened, whoever's call
     * ran it (a listing, a lookup, {@link #refresh()}). A tool that keeps listings (the FUSE mount) lists
     * again only when this moved: a refresh run by another call would otherwise go unnoticed.
     */
    public long changes() {
        return changes;
    }

    /** Forces a refresh check now (public for tools such as the FUSE mount). */
    public boolean refresh() throws IOException {
        return refreshIfGrown();
    }

    ContainerWriter writer() throws IOException {
        ensureWritable();
        ContainerWriter w = writer;
        if (w == null) {
            // delete() and move() ask for the writer outside the tree lock: two unsynchronized
            // first calls could each make a writer, and records would then go through two of them.
            synchronized (this) {
                w = writer;
                if (w == null) {
                    w = container.openWriter();
                    writer = w;
                }
            }
        }
        return w;
    }

    /** Called after a write changed the container. Call under the write lock. */
    void afterWrite() throws IOException {
        // No stat of the container here: knownSize only matters to a read-only file system's refresh.
        lastModified = FileTime.fromMillis(System.currentTimeMillis());
    }

    void register(Channel c) {
        openChannels.add(c);
    }

    void unregister(Channel c) {
        openChannels.remove(c);
    }
}
