package org.containerfs.core;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import org.containerfs.storage.BasicAttributes;

/** {@code basic}: type, size and the container's modification time; nothing can be set. */
final class BasicAttributeView implements BasicFileAttributeView {
    private final ContainerPath path;

    BasicAttributeView(ContainerPath path) {
        this.path = path;
    }

    @Override
    public String name() {
        return "basic";
    }

    @Override
    public BasicAttributes readAttributes() throws IOException {
        return read(path);
    }

    static BasicAttributes read(ContainerPath p) throws IOException {
        ContainerFileSystem fs = p.getFileSystem();
        BasicAttributes listed = p.listedAttributes();
        if (listed != null) {
            return listed;
        }
        // An entry that is there (every file of a walk) in one pass under the lock: node and attributes.
        BasicAttributes found = fs.read(() -> {
            var node = fs.findUnderLock(p);
            return node == null ? null : attributes(fs, node);
        });
        if (found != null) {
            return found;
        }
        var node = fs.lookup(p);
        // under the read lock, as the SPI promises formats: size() may read index arrays a refresh grows
        return fs.read(() -> attributes(fs, node));
    }

    private static BasicAttributes attributes(ContainerFileSystem fs, org.containerfs.spi.Node node) {
        return new BasicAttributes(node.isDirectory(), node.isDirectory() ? 0 : node.size(), fs.lastModified());
    }

    @Override
    public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) throws IOException {
        path.getFileSystem().ensureWritable();
        throw new AccessDeniedException(path.toString(), null, "times are the container's own and cannot be set");
    }
}
