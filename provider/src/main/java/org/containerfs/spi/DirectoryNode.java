package org.containerfs.spi;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/** Base of a format's directory nodes: no content, size 0; children made on demand by index. */
public abstract class DirectoryNode implements Node {

    @Override
    public final boolean isDirectory() {
        return true;
    }

    @Override
    public long size() {
        return 0;
    }

    @Override
    public Content content() {
        throw new IllegalStateException(name() + " is a directory: it has no content");
    }

    /** A list of {@code count} children made by {@code child} when asked for (flyweights over an index). */
    public static List<Node> indexed(int count, IntFunction<? extends Node> child) {
        return new IndexedList(count, child);
    }

    /**
     * {@code count} names spelled by {@code name} when a listing reaches them, without a node or a stored
     * string per child (a directory of a million entries). The core reads this list after it released the
     * tree's lock, so {@code name} must depend on nothing but its argument (a number spelled with a fixed
     * prefix, say), never on the index the container refreshes.
     */
    public static List<String> indexedNames(int count, IntFunction<String> name) {
        return new SpelledNames(count, name);
    }

    private static final class SpelledNames extends AbstractList<String> implements RandomAccess {
        private final int count;
        private final IntFunction<String> name;

        SpelledNames(int count, IntFunction<String> name) {
            this.count = count;
            this.name = name;
        }

        @Override
        public String get(int i) {
            if (i < 0 || i >= count) {
                throw new IndexOutOfBoundsException(i);
            }
            return name.apply(i);
        }

        @Override
        public int size() {
            return count;
        }
    }

    /** Random access (a child is made in constant time), which lets the core ask a listed child by position. */
    private static final class IndexedList extends AbstractList<Node> implements RandomAccess {
        private final int count;
        private final IntFunction<? extends Node> child;

        IndexedList(int count, IntFunction<? extends Node> child) {
            this.count = count;
            this.child = child;
        }

        @Override
        public Node get(int i) {
            if (i < 0 || i >= count) {
                throw new IndexOutOfBoundsException(i);
            }
            return child.apply(i);
        }

        @Override
        public int size() {
            return count;
        }
    }
}
