package org.containerfs.ensemble;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;

/** The one store of a tree: the source's store (its directory's, an S3 prefix), seen read-only. */
final class EnsembleFileStore extends FileStore {
    private final EnsembleFileSystem fs;
    private final TreeSource sourceStore;

    EnsembleFileStore(EnsembleFileSystem fs, TreeSource sourceStore) {
        this.fs = fs;
        this.sourceStore = sourceStore;
    }

    @Override
    public String name() {
        return sourceStore.path() != null ? String.valueOf(sourceStore.path()) : String.valueOf(sourceStore.uri());
    }

    @Override
    public String type() {
        return TreeUris.SCHEME;
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public long getTotalSpace() throws IOException {
        return sourceStore.totalSpace();
    }

    /** Nothing can be written through the tree. */
    @Override
    public long getUsableSpace() {
        return 0;
    }

    @Override
    public long getUnallocatedSpace() {
        return 0;
    }

    @Override
    public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
        return type == BasicFileAttributeView.class;
    }

    @Override
    public boolean supportsFileAttributeView(String name) {
        return fs.supportedFileAttributeViews().contains(name);
    }

    @Override
    public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
        return null;
    }

    /** The three space figures by name; a tree has no other store attributes. */
    @Override
    public Object getAttribute(String attribute) throws IOException {
        if (attribute.equals("totalSpace")) {
            return getTotalSpace();
        }
        if (attribute.equals("usableSpace") || attribute.equals("unallocatedSpace")) {
            return 0L;
        }
        throw new UnsupportedOperationException("file store attribute " + attribute
                + " is not supported (totalSpace, usableSpace, unallocatedSpace)");
    }

    @Override
    public String toString() {
        return name() + " (" + type() + ")";
    }
}
