package org.containerfs.ensemble;

import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.storage.BasicAttributes;

/** Basic attributes in the tree: a container's own directory, and the "basic:..." map form of any. */
final class TreeAttributes {
    private static final List<String> BASIC = List.of("lastModifiedTime", "lastAccessTime", "creationTime", "size",
            "isRegularFile", "isDirectory", "isSymbolicLink", "isOther", "fileKey");

    private TreeAttributes() {}

    /**
     * A container seen as the directory it shows, from its file's attributes alone (nothing of it is
     * read): the file's times and size, and no file key (the tree's keys are its paths).
     */
    static BasicAttributes containerDirectory(BasicFileAttributes file) {
        return new BasicAttributes(true, file.size(), file.lastModifiedTime(), file.lastAccessTime(), file.creationTime());
    }

    /** The attributes {@code names} asks for ("*" or a comma-separated list of basic names) as a map. */
    static Map<String, Object> asMap(BasicFileAttributes a, String names) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String name : names.split(",")) {
            if (name.equals("*")) {
                BASIC.forEach(n -> out.put(n, value(a, n)));
            } else if (BASIC.contains(name)) {
                out.put(name, value(a, name));
            } else {
                throw new IllegalArgumentException("basic:" + name + " is not a basic attribute " + BASIC);
            }
        }
        return out;
    }

    private static Object value(BasicFileAttributes a, String name) {
        return switch (name) {
            case "lastModifiedTime" -> a.lastModifiedTime();
            case "lastAccessTime" -> a.lastAccessTime();
            case "creationTime" -> a.creationTime();
            case "size" -> a.size();
            case "isRegularFile" -> a.isRegularFile();
            case "isDirectory" -> a.isDirectory();
            case "isSymbolicLink" -> a.isSymbolicLink();
            case "isOther" -> a.isOther();
            default -> a.fileKey();
        };
    }
}
