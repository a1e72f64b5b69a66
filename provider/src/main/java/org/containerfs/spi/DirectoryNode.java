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
        return new IndexedList<>(count, child);
    }

    /**
     * {@code count} names spelled by {@code name} when a listing reaches them, without a node or a stored
     * string per child (a directory of a million entries). The core reads this list after it released the
     * tree's lock, so {@code name} must depend on nothing but its argument (a number spelled with a fixed
     * prefix, say), never on the index the container refreshes.
     */
    public static List<String> indexedNames(int count, IntFunction<String> name) {
        return new IndexedList<>(count, name);
    }

    /**
     * Elements made by position when asked for. Random access (an element is made in constant time) lets the
     * core ask a listed child by position.
     */
    private static final class IndexedList<T> extends AbstractList<T> implements RandomAccess {
        private final int count;
        private final IntFunction<? extends T> element;

        IndexedList(int count, IntFunction<? extends T> element) {
            this.count = count;
            this.element = element;
        }

        @Override
        public T get(int i) {
            if (i < 0 || i >= count) {
                throw new IndexOutOfBoundsException(i);
            }
            return element.apply(i);
        }

        @Override
        public int size() {
            return count;
        }
    }
}
