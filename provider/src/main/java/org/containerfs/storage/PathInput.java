package org.containerfs.storage;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.EnumSet;
import org.containerfs.spi.ContainerChannel;

/**
 * A file on any NIO file system as a {@link ContainerInput}: a cheap local source ({@link #remote()}
 * is false, so no block cache is put in front) unless opened with {@code of(path, true)}. Its identity is the file's URI, size and
 * modification time in milliseconds. It is the storage layer of every open by Path (the core's open path
 * then goes on as for any input), and serves callers that take a {@code ContainerInput} whatever the storage
 * (tests, the Hadoop module's local files).
 */
public final class PathInput implements ContainerInput {
    private final Path path;
    private final ContainerChannel channel;
    private final boolean remote;

    private PathInput(Path path, ContainerChannel channel, boolean remote) {
        this.path = path;
        this.channel = channel;
        this.remote = remote;
    }

    /** Opens {@code path} for reading; {@link NoSuchFileException} if it does not exist. */
    public static PathInput of(Path path) throws IOException {
        return of(path, false);
    }

    /**
     * Opens {@code path} for reading, saying whether every read of it is a request to a remote service
     * (a Path of an object-store NIO provider such as {@code s3x://}): then the core puts its block
     * cache in front.
     */
    public static PathInput of(Path path, boolean remote) throws IOException {
        return new PathInput(path, ContainerChannel.open(path, EnumSet.of(StandardOpenOption.READ)), remote);
    }

    public Path path() {
        return path;
    }

    /**
     * The channel this input reads (a {@code FileChannel} where the file's file system has one); closing it
     * closes this input. The core reads a local file opened by Path through it directly, so that transfers
     * stay zero-copy.
     */
    public ContainerChannel channel() {
        return channel;
    }

    @Override
    public URI uri() {
        return path.toUri();
    }

    @Override
    public long size() throws IOException {
        return channel.size();
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return channel.read(dst, position);
    }

    @Override
    public InputIdentity identity() throws IOException {
        return new InputIdentity(uri(), size(), Long.toString(lastModified().toMillis()));
    }

    @Override
    public FileTime lastModified() throws IOException {
        return Files.getLastModifiedTime(path);
    }

    @Override
    public ContainerInput sibling(String fileName) throws IOException {
        Path sibling = path.resolveSibling(fileName);
        if (!Files.isRegularFile(sibling)) {
            throw new NoSuchFileException(sibling.toString(), null, "file beside " + path + " not found");
        }
        return of(sibling, remote);
    }

    @Override
    public boolean remote() {
        return remote;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
