package org.containerfs.spi;

import java.util.List;

/** Base of a format's file nodes: no children. */
public abstract class FileNode implements Node {

    @Override
    public final boolean isDirectory() {
        return false;
    }

    @Override
    public List<Node> children() {
        throw new IllegalStateException(name() + " is a file, not a directory");
    }

    @Override
    public Node child(String name) {
        return null;
    }
}
