package org.containerfs.ensemble;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.containerfs.core.ContainerFileSystems;

/**
 * The containers of a tree that are open now, at most {@code capacity} of them, least recently used
 * first out. A container in use (an open channel or directory stream of it, or an operation on it
 * under way) is pinned: it is never closed under its user, so more than {@code capacity} are open only
 * while more than {@code capacity} are in use at once. An evicted container is reopened on its next
 * use (from the persisted index cache when the env enables it).
 */
final class ContainerCache {
    /** Thrown by {@link #acquire} for a file named like a container whose bytes no format claims. */
    static final class NotAContainerException extends IOException {
        private static final long serialVersionUID = 1L;

        NotAContainerException(Path source) {
            super(source + ": named like a container, but no format's magic bytes were found");
        }
    }

    /** One container of the tree and how many users hold it. Guarded by the cache's lock, except {@link #fs}. */
    static final class Handle {
        private final Path source;
        private volatile FileSystem fs;
        private int pins;

        private Handle(Path source) {
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

    private final int capacity;
    private final Map<String, ?> env;
    /** Access-ordered: iteration starts at the least recently used. */
    private final LinkedHashMap<Path, Handle> handles = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<Path, Stamp> notContainers = new ConcurrentHashMap<>();
    private boolean closed;
    private long opened;
    private int peak;

    ContainerCache(int capacity, Map<String, ?> env) {
        if (capacity < 1) {
            throw new IllegalArgumentException("env cacheContainers must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.env = env;
    }

    /** Whether {@code source} is open in this cache now (no file is read). */
    synchronized boolean isOpen(Path source) {
        return handles.containsKey(source);
    }

    /** Whether {@code source} was found not to be a container and has not changed since. */
    boolean knownNotContainer(Path source, BasicFileAttributes attributes) {
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
     * Before a container is opened, unpinned ones are closed until the count is within the bound.
     */
    Handle acquire(Path source) throws IOException {
        Handle handle;
        List<Handle> evicted = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                throw new java.nio.file.ClosedFileSystemException();
            }
            handle = handles.get(source);
            if (handle == null) {
                evictDownTo(capacity - 1, evicted);
                handle = new Handle(source);
                handles.put(source, handle);
                peak = Math.max(peak, handles.size());
            }
            handle.pins++;
        }
        closeAll(evicted);
        try {
            synchronized (handle) {
                if (handle.fs == null) {
                    FileSystem fs = open(source);
                    synchronized (this) {
                        opened++;
                        if (closed) { // the tree was closed while this one opened
                            fs.close();
                            throw new java.nio.file.ClosedFileSystemException();
                        }
                        handle.fs = fs;
                    }
                }
            }
            return handle;
        } catch (IOException | RuntimeException | Error e) {
            synchronized (this) {
                handle.pins--;
                if (handle.fs == null && handle.pins == 0) {
                    handles.remove(source, handle);
                }
            }
            throw e;
        }
    }

    private FileSystem open(Path source) throws IOException {
        try {
            return ContainerFileSystems.open(source, env);
        } catch (ProviderNotFoundException notAContainer) {
            notContainers.put(source, Stamp.of(Files.readAttributes(source, BasicFileAttributes.class)));
            throw new NotAContainerException(source);
        }
    }

    /** Unpins; an unpinned container beyond the bound (pinned when it was due) is closed now. */
    void release(Handle handle) throws IOException {
        List<Handle> evicted = new ArrayList<>();
        synchronized (this) {
            handle.pins--;
            evictDownTo(capacity, evicted);
        }
        closeAll(evicted);
    }

    /** Removes unpinned, opened handles, least recently used first, until at most {@code target} remain. Under the lock. */
    private void evictDownTo(int target, List<Handle> evicted) {
        Iterator<Handle> it = handles.values().iterator();
        while (handles.size() > target && it.hasNext()) {
            Handle h = it.next();
            if (h.pins == 0 && h.fs != null) {
                it.remove();
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
}
