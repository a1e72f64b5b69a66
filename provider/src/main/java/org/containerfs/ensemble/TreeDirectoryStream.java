package org.containerfs.ensemble;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A directory of the tree listed from a directory of the source (names) or of a container (Paths): each entry is
 * renamed into the tree ({@link EntryNamer}, which may hide it), then the caller's filter is applied
 * to the tree path. Closing it closes the listing it reads and gives back what it held.
 */
final class TreeDirectoryStream implements DirectoryStream<Path> {
    /** The tree path of a listed entry, or null to leave it out. */
    interface EntryNamer {
        EnsemblePath name(Object listed) throws IOException;
    }

    private final DirectoryStream<?> listing;
    private final EntryNamer namer;
    private final Filter<? super Path> filter;
    private final Closeable afterClose;
    private boolean iterated;
    private boolean closed;

    TreeDirectoryStream(DirectoryStream<?> listing, EntryNamer namer, Filter<? super Path> filter,
            Closeable afterClose) {
        this.listing = listing;
        this.namer = namer;
        this.filter = filter;
        this.afterClose = afterClose;
    }

    @Override
    public synchronized Iterator<Path> iterator() {
        if (closed) {
            throw new IllegalStateException("the directory stream is closed");
        }
        if (iterated) {
            throw new IllegalStateException("a directory stream gives one iterator");
        }
        iterated = true;
        Iterator<?> listed = listing.iterator();
        return new Iterator<>() {
            private Path next;

            @Override
            public boolean hasNext() {
                while (next == null && listed.hasNext()) {
                    try {
                        EnsemblePath candidate = namer.name(listed.next());
                        if (candidate != null && filter.accept(candidate)) {
                            next = candidate;
                        }
                    } catch (IOException e) {
                        throw new DirectoryIteratorException(e);
                    }
                }
                return next != null;
            }

            @Override
            public Path next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Path out = next;
                next = null;
                return out;
            }
        };
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            listing.close();
        } finally {
            afterClose.close();
        }
    }
}
