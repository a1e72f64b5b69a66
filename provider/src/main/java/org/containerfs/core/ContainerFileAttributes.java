package org.containerfs.core;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;

/** Basic attributes of a node: every node shares the container file's modification time. */
final class ContainerFileAttributes implements BasicFileAttributes {
    private final boolean directory;
    private final long size;
    private final FileTime time;

    ContainerFileAttributes(boolean directory, long size, FileTime time) {
        this.directory = directory;
        this.size = size;
        this.time = time;
    }

    @Override
    public FileTime lastModifiedTime() {
        return time;
    }

    @Override
    public FileTime lastAccessTime() {
        return time;
    }

    @Override
    public FileTime creationTime() {
        return time;
    }

    @Override
    public boolean isRegularFile() {
        return !directory;
    }

    @Override
    public boolean isDirectory() {
        return directory;
    }

    @Override
    public boolean isSymbolicLink() {
        return false;
    }

    @Override
    public boolean isOther() {
        return false;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public Object fileKey() {
        return null;
    }

    Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lastModifiedTime", time);
        m.put("lastAccessTime", time);
        m.put("creationTime", time);
        m.put("size", size);
        m.put("isRegularFile", !directory);
        m.put("isDirectory", directory);
        m.put("isSymbolicLink", false);
        m.put("isOther", false);
        m.put("fileKey", null);
        return m;
    }
}
