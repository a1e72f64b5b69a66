package org.containerfs.spi;

import java.io.IOException;
import java.util.Map;

/**
 * One file or directory of a container's tree. Formats may create nodes on demand (flyweights over
 * compact index arrays): the core never relies on node identity, only on names.
 */
public interface Node {

    /** The node's name in its directory, already encoded with {@link Names}; "" for the root. */
    String name();

    boolean isDirectory();

    /** Bytes of a file's content (as listed: a truncated record keeps its declared size); 0 for a directory. */
    long size();

    /** The child called {@code name}, or null. Directories only; expected to be cheaper than a scan. */
    default Node child(String name) throws IOException {
        for (Node n : children()) {
            if (n.name().equals(name)) {
                return n;
            }
        }
        return null;
    }

    /** The children in file order. Directories only. */
    Iterable<? extends Node> children() throws IOException;

    /**
     * The children's names in file order, as {@link #children()} would give them. A format may make
     * them without a node per child: a listing asks for a million of them. Directories only.
     */
    default java.util.List<String> childNames() throws IOException {
        Iterable<? extends Node> children = children();
        java.util.List<String> out = children instanceof java.util.Collection<?> c
                ? new java.util.ArrayList<>(c.size()) : new java.util.ArrayList<>();
        for (Node child : children) {
            out.add(child.name());
        }
        return out;
    }

    /**
     * Whether appends to the container may still add children to this directory (directories only).
     * The core checks the container for growth before every listing of a directory that may grow; a
     * format returns false where its layout rules that out (a LIME message before the last), which
     * spares a walk of many directories one file-size check each. The default: it may grow.
     */
    default boolean mayGainChildren() {
        return true;
    }

    /** How to read a file's bytes. Files only. */
    Content content() throws IOException;

    /** The format's attribute view of this node ({@code lime:length}, ...), in a stable order. */
    Map<String, Object> attributes() throws IOException;
}
