package org.containerfs.core;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;

/**
 * A writable open by Path (an append to an existing container, or a create): the writer's slot in this JVM, the
 * file's own read-write channel (or a locked staging sibling for a format that builds a new container beside the
 * target), its exclusive lock, the format's open or creation, and the registered file system. The format was chosen
 * before, by {@link OpenPipeline#detect} (or by the caller, for a new container).
 */
final class WriterOpen {
    private WriterOpen() {}

    /** Opens {@code path} for writing with {@code provider}'s format; {@code exists}: false to create it. */
    static ContainerFileSystem open(ContainerFileSystemProvider provider, Path path, OpenRequest request,
            boolean exists) throws IOException {
        FileSystemRegistry registry = provider.registry();
        ContainerFormat format = provider.format();
        registry.claimWriting(path);
        ContainerChannel channel = null;
        try {
            // A format that builds a new container beside the target gets a locked staging sibling instead.
            String stagingName = exists ? null : format.creationStagingName(String.valueOf(path.getFileName()));
            Path channelPath = stagingName == null ? path : path.resolveSibling(stagingName);
            channel = ContainerChannel.open(channelPath,
                    EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE));
            FileLock lock = lockForWriting(channel, path);
            ContainerSource source = new ContainerSource(path, channel, request.options(), true, () -> true);
            boolean empty = stagingName != null || channel.size() == 0;
            Container container = FormatOpen.open(format, source, empty);
            boolean refresh = request.options().getBoolean("refresh", true);
            ContainerFileSystem fs = new ContainerFileSystem(provider, path, channel, container, true, refresh, lock,
                    null);
            registry.register(path, fs, request.byUri());
            return fs;
        } catch (IOException | RuntimeException | Error e) {
            if (channel != null) {
                OpenPipeline.closeQuietly(channel, e);
            }
            registry.releaseWriting(path);
            throw e;
        }
    }

    private static FileLock lockForWriting(ContainerChannel channel, Path path) throws IOException {
        if (!channel.supportsLocking()) {
            return null;
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            throw new FileSystemException(path.toString(), null,
                    "the container is already open for writing (by this or another process): one writer at a time");
        }
        return lock;
    }
}
