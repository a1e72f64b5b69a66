package org.containerfs.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.containerfs.spi.Node;

/** Reading records and listing directories: the provider's read side. */
final class ReadOperations {
    private ReadOperations() {}

    static ContainerReadChannel newReadChannel(ContainerPath path) throws IOException {
        ContainerFileSystem fs = path.getFileSystem();
        Node node = fs.lookup(path);
        if (node.isDirectory()) {
            throw new FileSystemException(path.toString(), null, "is a directory");
        }
        return new ContainerReadChannel(fs, fs.read(node::content), path.toString());
    }

    static InputStream newInputStream(ContainerPath path, OpenOption... options) throws IOException {
        for (OpenOption o : options) {
            if (o == StandardOpenOption.WRITE || o == StandardOpenOption.APPEND) {
                throw new UnsupportedOperationException("option " + o + " is not allowed for an input stream");
            }
        }
        return java.nio.channels.Channels.newInputStream(newReadChannel(path));
    }

    /** A snapshot of the directory's names, refreshed first if the container grew. */
    static DirectoryStream<Path> newDirectoryStream(ContainerPath path, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        ContainerFileSystem fs = path.getFileSystem();
        // A directory that appends cannot change is listed as it is, no size check of the container, and
        // under one hold of the read lock (a walk lists a million directories; each hold costs a CAS).
        DirectoryListing unchanging = fs.read(() -> {
            Node known = path.listedNodeUnderLock();
            if (known == null) {
                known = fs.find(path);
            }
            return known != null && known.isDirectory() && !known.mayGainChildren() ? new DirectoryListing(fs, known) : null;
        });
        DirectoryListing listing = unchanging;
        if (listing == null) {
            Node found = fs.lookupDirectory(path); // reports a missing entry or a file
            Node node = fs.read(found::mayGainChildren) && fs.refreshIfGrown() ? fs.lookupDirectory(path) : found;
            listing = fs.read(() -> new DirectoryListing(fs, node));
        }
        DirectoryListing snapshot = listing;
        List<String> names = snapshot.names();
        return new DirectoryStream<>() {
            private boolean iterated;
            private boolean closed;

            @Override
            public Iterator<Path> iterator() {
                fs.ensureOpen();
                if (closed || iterated) {
                    throw new IllegalStateException(closed ? "directory stream closed" : "iterator already obtained");
                }
                iterated = true;
                Iterator<String> it = names.iterator();
                return new Iterator<>() {
                    private Path next;
                    private int index;

                    @Override
                    public boolean hasNext() {
                        while (next == null && !closed && it.hasNext()) {
                            Path candidate = path.child(it.next(), snapshot, index++);
                            try {
                                if (filter == null || filter.accept(candidate)) {
                                    next = candidate;
                                }
                            } catch (IOException e) {
                                throw new java.nio.file.DirectoryIteratorException(e);
                            }
                        }
                        return next != null;
                    }

                    @Override
                    public Path next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        Path p = next;
                        next = null;
                        return p;
                    }
                };
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }
}
