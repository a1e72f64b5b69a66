package org.containerfs.core;

import java.io.IOException;
import java.util.List;
import org.containerfs.spi.ChildSizes;
import org.containerfs.spi.Node;
import org.containerfs.storage.BasicAttributes;

/**
 * One directory stream's snapshot: its entries' names, and the directory node that makes the
 * entries' nodes by position. Paths the stream hands out keep it, so reading a listed entry's
 * attributes (a walk does it for every file) takes its node by index instead of a lookup by name,
 * as long as the tree has not changed since the listing (then they look up by name again).
 */
final class DirectoryListing {
    private final ContainerFileSystem fs;
    private final Node directory;
    private final List<String> names;
    private final int version;
    /**
     * The directory's children when the format gives them as a random-access list (flyweights made by
     * index), {@link #NO_LIST} if it does not, null until asked. Racing readers each ask the directory.
     */
    private volatile Object children;
    private static final Object NO_LIST = new Object();

    /** Call under the tree's read lock. */
    DirectoryListing(ContainerFileSystem fs, Node directory) throws IOException {
        this.fs = fs;
        this.directory = directory;
        this.version = fs.treeVersion();
        this.names = directory.childNames();
    }

    List<String> names() {
        return names;
    }

    /** Entry {@code index}'s node, or null when the tree changed since the listing or the format lists no nodes by index. Call under the tree's read lock. */
    Node nodeUnderLock(int index) throws IOException {
        if (fs.treeVersion() != version) {
            return null;
        }
        List<? extends Node> list = children();
        return list != null && index < list.size() ? list.get(index) : null;
    }

    /**
     * Basic attributes of entry {@code index}, or null when the tree changed since the listing or the format
     * lists no nodes by index (the caller then looks the entry up). The first entry asked of each run of
     * {@link #BATCH} has the whole run's types and sizes read under one hold of the tree's lock, from the format
     * without a node each where it implements {@link ChildSizes}: a walk asks every file's attributes, and one
     * lock hold and one call per run costs less than one of each per entry (bench/results/2026-11-26-notes.md).
     */
    BasicAttributes attributes(int index) throws IOException {
        AttributeBatch[] all = batches;
        if (all == null) {
            all = new AttributeBatch[(names.size() + BATCH - 1) / BATCH];
            batches = all; // racing walkers may each make one: a batch is only ever recomputed
        }
        int b = index / BATCH;
        AttributeBatch batch = b < all.length ? all[b] : null;
        if (batch == null) {
            batch = fs.read(() -> batchUnderLock(b * BATCH));
            if (batch == null) {
                return null;
            }
            all[b] = batch; // a batch's fields are final: a reader of the slot sees it whole or not at all
        }
        fs.ensureOpen();
        if (fs.treeVersion() != version) {
            return null;
        }
        int at = index - b * BATCH;
        if (at >= batch.sizes.length) {
            return null;
        }
        long sizeOrDirectory = batch.sizes[at];
        return new BasicAttributes(sizeOrDirectory < 0, Math.max(0, sizeOrDirectory), fs.lastModified());
    }

    private static final int BATCH = 64;
    private volatile AttributeBatch[] batches;

    /** The types and sizes of a run of entries: -1 for a directory, else the file's size. */
    private record AttributeBatch(long[] sizes) {}

    private AttributeBatch batchUnderLock(int from) throws IOException {
        if (fs.treeVersion() != version) {
            return null;
        }
        if (directory instanceof ChildSizes known) {
            long[] sizes = new long[Math.min(from + BATCH, names.size()) - from];
            known.childSizes(from, sizes);
            return new AttributeBatch(sizes);
        }
        List<? extends Node> list = children();
        if (list == null) {
            return null;
        }
        int to = Math.min(Math.min(from + BATCH, names.size()), list.size());
        long[] sizes = new long[to - from];
        for (int i = from; i < to; i++) {
            Node node = list.get(i);
            sizes[i - from] = node.isDirectory() ? -1 : node.size();
        }
        return new AttributeBatch(sizes);
    }

    @SuppressWarnings("unchecked")
    private List<? extends Node> children() throws IOException {
        Object c = children;
        if (c == null) {
            Iterable<? extends Node> all = directory.children();
            c = all instanceof List<?> && all instanceof java.util.RandomAccess ? all : NO_LIST;
            children = c;
        }
        return c == NO_LIST ? null : (List<? extends Node>) c;
    }
}
