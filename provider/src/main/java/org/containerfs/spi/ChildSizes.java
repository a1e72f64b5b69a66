package org.containerfs.spi;

import java.io.IOException;

/**
 * Optional for a directory node whose {@link Node#children()} is a random-access list: the size of child
 * {@code index} as its node would give it, or -1 if that child is a directory, without making the node. A
 * walk reads the attributes of every file; the core asks a run of them at once, under the tree's lock.
 */
public interface ChildSizes {
    long childSize(int index) throws IOException;
}
