package org.containerfs.ensemble;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.containerfs.core.ContainerFileSystem;

/**
 * The containers of a tree that are open now, at most {@code capacity} of them and at most
 * {@code capacityBytes} of estimated index memory ({@code ContainerFileSystem.indexMemoryBytes()}), least
 * recently used first out. A container in use (an open channel or directory stream of it, or an operation on it
 * under way) is pinned: it is never closed under its user, so more than {@code capacity} are open only
 * while more than {@code capacity} are in use at once. An evicted container is reopened on its next
 * use (from the persisted index cache when the env enables it).
 */
final class ContainerCache {
    /** Thrown by {@link #acquire} for a file named like a container whose bytes no format claims. */
    static final class NotAContainerException extends IOException {
        private static final long serialVersionUID = 1L;

        NotAContainerException(String source) {
            super(source + ": named like a container, but no format's magic bytes were found");
        }
    }

    /** One container of the tree and how many users hold it. Guarded by the cache's lock, except {@link #fs}. */
    static final class Handle {
        private final List<String> source;
        private volatile FileSystem fs;
        private int pins;
        /** The open container's estimated index memory, counted in the cache's total while it is open. */
        private long bytes;

        private Handle(List<String> source) {
            this.source = source;
        }

        FileSystem fileSystem() {
            return fs;
        }
    }

    /** Size and modification time of a file found not to be a container: a change asks again. */
    private record Stamp(long size, FileTime modified) {
        static Stamp of(BasicFileAttributes a) {
            return new Stamp(a.size(), a.lastModifiedTime());
        }
    }

    private final TreeSource files;
    private final int capacity;
    private final long capacityBytes;
    private final Map<String, ?> env;
    /** Access-ordered: iteration starts at the least recently used. */
    private final LinkedHashMap<List<String>, Handle> handles = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<List<String>, Stamp> notContainers = new ConcurrentHashMap<>();
    /** Files that opened as a format whose containers span several files (a SIONlib set): rare, kept. */
    private final java.util.Set<List<String>> multiFile = ConcurrentHashMap.newKeySet();
    /** The handles of {@link #handles} that are open, by their file system (identity): see {@link #acquireOpen}. */
    private final Map<FileSystem, Handle> byFileSystem = new java.util.IdentityHashMap<>();
    private boolean closed;
    private long opened;
    private int peak;
    private long bytes;
    private long peakBytes;

    ContainerCache(TreeSource files, int capacity, long capacityBytes, Map<String, ?> env) {
        if (capacity < 1) {
            throw new IllegalArgumentException("env cacheContainers must be at least 1, got " + capacity);
        }
        this.files = files;
        this.capacity = capacity;
        this.capacityBytes = capacityBytes;
        this.env = env;
    }

    /** Whether {@code source} is open in this cache now (no file is read). */
    synchronized boolean isOpen(List<String> source) {
        return handles.containsKey(source);
    }

    /** Whether {@code source} opened as a container that spans several files (a SIONlib set). */
    boolean multiFile(List<String> source) {
        return multiFile.contains(source);
    }

    /** Whether {@code source} was found not to be a container and has not changed since. */
    boolean knownNotContainer(List<String> source, BasicFileAttributes attributes) {
        Stamp stamp = notContainers.get(source);
        if (stamp == null) {
            return false;
        }
        if (stamp.equals(Stamp.of(attributes))) {
            return true;
        }
        notContainers.remove(source, stamp);
        return false;
    }

    /**
     * The open container of {@code source}, opened now if it is not open, pinned until {@link #release}.
     * Before a container is opened, unpinned ones are closed until the count is within the bound; once it is
     * open, until the estimated bytes are within theirs too.
     */
    Handle acquire(List<String> source) throws IOException {
        Handle handle;
        List<Handle> evicted = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                throw new java.nio.file.ClosedFileSystemException();
            }
            handle = handles.get(source);
            if (handle == null) {
                evictDownTo(capacity - 1, capacityBytes, evicted);
                handle = new Handle(source);
                handles.put(source, handle);
                peak = Math.max(peak, handles.size());
            }
            handle.pins++;
        }
        closeAll(evicted);
        evicted.clear();
        try {
            synchronized (handle) {
                if (handle.fs == null) {
                    FileSystem fs = open(source);
                    if ("sion".equals(fs.provider().getScheme())) {
                        multiFile.add(source);
                    }
                    long estimate = indexMemory(fs);
                    synchronized (this) {
                        opened++;
                        if (closed) { // the tree was closed while this one opened
                            fs.close();
                            throw new java.nio.file.ClosedFileSystemException();
                        }
                        handle.fs = fs;
                        byFileSystem.put(fs, handle);
                        handle.bytes = estimate;
                        bytes += estimate;
                        peakBytes = Math.max(peakBytes, bytes);
                        // the new one is pinned: the others make room for its bytes
                        evictDownTo(capacity, capacityBytes, evicted);
                    }
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            synchronized (this) {
                handle.pins--;
                if (handle.fs == null && handle.pins == 0) {
                    handles.remove(source, handle);
                }
            }
            throw e;
        }
        closeAll(evicted);
        return handle;
    }

    private FileSystem open(List<String> source) throws IOException {
        try {
            return files.openContainer(source, env);
        } catch (ProviderNotFoundException notAContainer) {
            notContainers.put(source, Stamp.of(files.attributes(source)));
            throw new NotAContainerException(files.uri() + String.join("/", source));
        }
    }

    /** What an open container says its index holds in memory; a guess for a file system of another kind. */
    static long indexMemory(FileSystem fs) {
        return fs instanceof ContainerFileSystem c ? Math.max(0, c.indexMemoryBytes())
                : org.containerfs.spi.Container.DEFAULT_INDEX_MEMORY;
    }

    /**
     * The handle whose open container is {@code fs}, pinned until {@link #release}, if that container is still the
     * open one of its file; null if it was closed since (then {@link #acquire} it by its source path). No lookup by
     * path and no change to the least-recently-used order: for the entries of a listing of that container, whose
     * listing itself was an {@link #acquire}.
     */
    synchronized Handle acquireOpen(FileSystem fs) {
        if (closed) {
            throw new java.nio.file.ClosedFileSystemException();
        }
        Handle h = byFileSystem.get(fs);
        if (h != null) {
            h.pins++;
        }
        return h;
    }

    /** Unpins; an unpinned container beyond the bound (pinned when it was due) is closed now. */
    void release(Handle handle) throws IOException {
        List<Handle> evicted = new ArrayList<>();
        synchronized (this) {
            handle.pins--;
            evictDownTo(capacity, capacityBytes, evicted);
        }
        closeAll(evicted);
    }

    /**
     * Removes unpinned, opened handles, least recently used first, until at most {@code target} remain and
     * their estimated bytes are at most {@code targetBytes}. Under the lock.
     */
    private void evictDownTo(int target, long targetBytes, List<Handle> evicted) {
        Iterator<Handle> it = handles.values().iterator();
        while ((handles.size() > target || bytes > targetBytes) && it.hasNext()) {
            Handle h = it.next();
            if (h.pins == 0 && h.fs != null) {
                it.remove();
                byFileSystem.remove(h.fs);
                bytes -= h.bytes;
                evicted.add(h);
            }
        }
    }

    private static void closeAll(List<Handle> handles) throws IOException {
        IOException failure = null;
        for (Handle h : handles) {
            try {
                h.fs.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Closes every open container, in use or not (their channels and streams with them). */
    void close() throws IOException {
        List<Handle> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(handles.values());
            handles.clear();
            byFileSystem.clear();
            bytes = 0;
        }
        all.removeIf(h -> h.fs == null);
        closeAll(all);
    }

    synchronized long opened() {
        return opened;
    }

    synchronized int openNow() {
        return handles.size();
    }

    synchronized int peakOpen() {
        return peak;
    }

    int capacity() {
        return capacity;
    }

    long capacityBytes() {
        return capacityBytes;
    }

    synchronized long openBytes() {
        return bytes;
    }

    synchronized long peakBytes() {
        return peakBytes;
    }
}
