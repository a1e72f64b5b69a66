package org.containerfs.core;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;

/** The one store of a container file system: the container file itself. */
final class ContainerFileStore extends FileStore {
    private final ContainerFileSystem fs;

    ContainerFileStore(ContainerFileSystem fs) {
        this.fs = fs;
    }

    @Override
    public String name() {
        return fs.containerName();
    }

    @Override
    public String type() {
        return fs.format().name();
    }

    @Override
    public boolean isReadOnly() {
        return fs.isReadOnly();
    }

    @Override
    public long getTotalSpace() throws IOException {
        return fs.channel().size();
    }

    @Override
    public long getUsableSpace() throws IOException {
        return fs.isReadOnly() ? 0 : fs.containerPath().getFileSystem().provider()
                .getFileStore(fs.containerPath()).getUsableSpace();
    }

    @Override
    public long getUnallocatedSpace() throws IOException {
        return getUsableSpace();
    }

    @Override
    public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
        return type == BasicFileAttributeView.class || type == ContainerAttributeView.class;
    }

    @Override
    public boolean supportsFileAttributeView(String name) {
        return name.equals("basic") || name.equals(fs.format().name());
    }

    @Override
    public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
        return null;
    }

    @Override
    public Object getAttribute(String attribute) throws IOException {
        return switch (attribute) {
            case "totalSpace" -> getTotalSpace();
            case "usableSpace" -> getUsableSpace();
            case "unallocatedSpace" -> getUnallocatedSpace();
            default -> throw new UnsupportedOperationException("file store attribute " + attribute
                    + " is not supported (totalSpace, usableSpace, unallocatedSpace)");
        };
    }

    @Override
    public String toString() {
        return name() + " (" + type() + ")";
    }
}
