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

    /** See {@link ContainerFileSystems#storedRange}. */
    static java.util.Optional<StoredRange> storedRange(ContainerPath path) throws IOException {
        ContainerFileSystem fs = path.getFileSystem();
        Node node = fs.lookup(path);
        if (node.isDirectory()) {
            return java.util.Optional.empty();
        }
        org.containerfs.spi.ByteRangeContent range = fs.read(() -> node.content().storedRange());
        if (range == null) {
            return java.util.Optional.empty();
        }
        Path file = range.channel().path();
        if (file == null || file.getFileSystem() != java.nio.file.FileSystems.getDefault()
                || range.offset() < 0 || range.size() < 0 || range.offset() > range.channel().size() - range.size()) {
            return java.util.Optional.empty(); // read through an input, on another file system, or truncated
        }
        return java.util.Optional.of(new StoredRange(file.toAbsolutePath(), range.offset(), range.size()));
    }

    static InputStream newInputStream(ContainerPath path, OpenOption... options) throws IOException {
        for (OpenOption o : options) {
            if (o == StandardOpenOption.WRITE || o == StandardOpenOption.APPEND) {
                throw new UnsupportedOperationException("option " + o + " is not allowed for an input stream");
            }
        }
        return java.nio.channels.Channels.newInputStream(newReadChannel(path));
    }

    /**
     * The listing of the directory at {@code path}. A directory that appends cannot change is found and listed
     * as it is, under one hold of the read lock (a walk lists a million directories) and with no size check of
     * the container; any other is refreshed first if the container grew.
     */
    private static DirectoryListing listing(ContainerFileSystem fs, ContainerPath path) throws IOException {
        DirectoryListing unchanging = fs.read(() -> {
            Node known = fs.findUnderLock(path);
            return known != null && known.isDirectory() && !known.mayGainChildren() ? new DirectoryListing(fs, known) : null;
        });
        if (unchanging != null) {
            return unchanging;
        }
        Node found = fs.lookupDirectory(path); // reports a missing entry or a file
        Node node = fs.read(found::mayGainChildren) && fs.refreshIfGrown() ? fs.lookupDirectory(path) : found;
        return fs.read(() -> new DirectoryListing(fs, node));
    }

    /** A snapshot of the directory's names, refreshed first if the container grew. */
    static DirectoryStream<Path> newDirectoryStream(ContainerPath path, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        ContainerFileSystem fs = path.getFileSystem();
        DirectoryListing listing = listing(fs, path);
        List<String> names = listing.names();
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
                            Path candidate = path.child(it.next(), listing, index++);
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
