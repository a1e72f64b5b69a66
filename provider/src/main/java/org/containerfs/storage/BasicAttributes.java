package org.containerfs.storage;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Basic attributes of a file or directory that is neither a link nor anything else and has no file key: a node of
 * a container (every node shares the container file's modification time), a container's own directory in a tree,
 * an object or a "directory" of an S3 listing. The one implementation the file systems and tree sources share.
 *
 * @param isDirectory whether it is a directory (else a regular file)
 * @param size its size in bytes (0 for a directory without one)
 * @param lastModifiedTime its modification time
 * @param lastAccessTime its access time
 * @param creationTime its creation time
 */
public record BasicAttributes(boolean isDirectory, long size, FileTime lastModifiedTime, FileTime lastAccessTime,
        FileTime creationTime) implements BasicFileAttributes {

    /** One time for all three (what a container or an object store knows). */
    public BasicAttributes(boolean isDirectory, long size, FileTime time) {
        this(isDirectory, size, time, time, time);
    }

    @Override
    public boolean isRegularFile() {
        return !isDirectory;
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
    public Object fileKey() {
        return null;
    }

    /** The "basic:*" map of these attributes. */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lastModifiedTime", lastModifiedTime);
        m.put("lastAccessTime", lastAccessTime);
        m.put("creationTime", creationTime);
        m.put("size", size);
        m.put("isRegularFile", !isDirectory);
        m.put("isDirectory", isDirectory);
        m.put("isSymbolicLink", false);
        m.put("isOther", false);
        m.put("fileKey", null);
        return m;
    }
}
