package org.containerfs.core;

import java.io.IOException;
import java.util.List;
import org.containerfs.spi.Node;

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
