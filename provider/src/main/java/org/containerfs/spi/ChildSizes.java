package org.containerfs.spi;

import java.io.IOException;

/**
 * Optional for a directory node whose {@link Node#children()} is a random-access list: the sizes of a run of
 * its children as their nodes would give them, -1 for a child that is a directory, without making the nodes. A
 * walk reads the attributes of every file; the core asks for them a run at a time, under the tree's lock.
 */
public interface ChildSizes {
    /** Fills {@code sizes} with the sizes of children {@code from} to {@code from + sizes.length - 1}. */
    void childSizes(int from, long[] sizes) throws IOException;
}
