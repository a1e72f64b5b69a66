package org.containerfs.ensemble;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.PathInput;

/** A directory of any NIO file system as a {@link TreeSource}: every question is the NIO call on the resolved Path. */
final class PathTreeSource implements TreeSource {
    private final Path base;
    private final URI uri;

    PathTreeSource(Path base) {
        this.base = base;
        URI u = base.toUri();
        this.uri = u.toString().endsWith("/") ? u : URI.create(u + "/");
    }

    /** The Path of {@code names}; a name that is not one name on this file system leads nowhere. */
    Path resolve(List<String> names) throws NoSuchFileException {
        Path current = base;
        for (String name : names) {
            Path next;
            try {
                next = current.resolve(name);
            } catch (InvalidPathException e) {
                throw new NoSuchFileException(current + "/" + name, null, "not a valid name on the source's file system");
            }
            if (next.getNameCount() != current.getNameCount() + 1) {
                // a name holding the source's own separator (a backslash on Windows) would reach elsewhere
                throw new NoSuchFileException(current + "/" + name);
            }
            current = next;
        }
        return current;
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public Path path() {
        return base;
    }

    @Override
    public BasicFileAttributes attributes(List<String> path, LinkOption... options) throws IOException {
        return Files.readAttributes(resolve(path), BasicFileAttributes.class, options);
    }

    @Override
    public DirectoryStream<String> list(List<String> dir) throws IOException {
        DirectoryStream<Path> listing = Files.newDirectoryStream(resolve(dir));
        return new DirectoryStream<>() {
            @Override
            public Iterator<String> iterator() {
                Iterator<Path> it = listing.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public String next() {
                        return String.valueOf(it.next().getFileName());
                    }
                };
            }

            @Override
            public void close() throws IOException {
                listing.close();
            }
        };
    }

    @Override
    public ContainerInput input(List<String> file) throws IOException {
        return PathInput.of(resolve(file));
    }

    /** As {@code ContainerFileSystems.open(path)}: a container file keeps every Path-based ability (refresh, SIONlib sets). */
    @Override
    public FileSystem openContainer(List<String> file, Map<String, ?> env) throws IOException {
        return ContainerFileSystems.open(resolve(file), env);
    }

    @Override
    public SeekableByteChannel newByteChannel(List<String> file, Map<String, ?> env) throws IOException {
        return Files.newByteChannel(resolve(file), StandardOpenOption.READ);
    }

    @Override
    public void checkAccess(List<String> path, AccessMode... modes) throws IOException {
        Path p = resolve(path);
        p.getFileSystem().provider().checkAccess(p, modes);
    }

    @Override
    public long totalSpace() throws IOException {
        return Files.getFileStore(base).getTotalSpace();
    }

    @Override
    public String toString() {
        return base.toString();
    }

}
