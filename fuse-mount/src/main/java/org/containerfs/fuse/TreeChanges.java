package org.containerfs.fuse;

import java.io.IOException;

/**
 * How a mount learns that the tree it serves changed (a live container grew), without listing it: a
 * counter that moves with every change, whoever noticed it. With one, the low-level engine lets the
 * kernel keep directory listings with no opendir at all and polls {@link #check()} instead
 * (see {@link NioLowLevelOperations#watchGrowth}).
 */
public interface TreeChanges {
    /** Looks for a change now (a cheap check, e.g. the container's size) and returns the counter. */
    long check() throws IOException;

    /** The counter as it is, without looking. */
    long count();

    /** The changes of a container's file system ({@code ContainerFileSystem.refresh()/changes()}). */
    static TreeChanges of(org.containerfs.core.ContainerFileSystem fs) {
        return new TreeChanges() {
            @Override
            public long check() throws IOException {
                fs.refresh();
                return fs.changes();
            }

            @Override
            public long count() {
                return fs.changes();
            }
        };
    }
}
