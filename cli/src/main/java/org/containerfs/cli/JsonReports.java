package org.containerfs.cli;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.s3.S3Arguments;

/** The objects {@code ls}, {@code info} and {@code verify} print with {@code --json} (documented in docs/json.md). */
final class JsonReports {
    private JsonReports() {}

    /** The format's name: its attribute view, or the provider's scheme for a file system without one. */
    static String format(FileSystem fs) {
        String view = ContainerOptions.formatView(fs);
        return view != null ? view : fs.provider().getScheme();
    }

    /** One listed entry: path, name, type, size, format and the format's attributes (raw bytes as hex). */
    static Map<String, Object> entry(Path p, BasicFileAttributes a) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("path", p.toString());
        m.put("name", p.getFileName() == null ? "/" : p.getFileName().toString());
        m.put("type", a.isDirectory() ? "directory" : "file");
        m.put("size", a.size());
        m.put("format", format(p.getFileSystem()));
        m.put("attributes", ContainerOptions.formatAttributes(p));
        return m;
    }

    /** A damage attribute as a list of findings: empty when sound, one item per line of a text value. */
    static List<String> damageList(Object damage) {
        List<String> items = new ArrayList<>();
        if (damage instanceof Collection<?> c) {
            c.forEach(o -> items.add(String.valueOf(o)));
        } else if (!Values.isBlank(damage)) {
            String text = damage instanceof byte[] ? Values.show(damage) : damage.toString();
            text.lines().filter(l -> !l.isBlank()).forEach(items::add);
        }
        return items;
    }

    /** What {@code info} looks at: what the open reads, never the files' contents. */
    static final String CHECKED_BY_INFO = "structure";
    /** What {@code verify} looks at. */
    static final String CHECKED_BY_VERIFY = "structure and contents";

    /**
     * The {@code container} of every document: one form per container wherever it is named, so that documents of
     * two runs (and Spark's rows) join: an object as {@code s3://bucket/key}, a local file as the {@code file:///}
     * URI of its absolute, normalized path (what {@link Path#toUri()} gives).
     */
    static String containerUri(Path container) {
        if (container == null) {
            return null;
        }
        return S3Arguments.isS3(container) ? S3Arguments.display(container)
                : container.toAbsolutePath().normalize().toUri().toString();
    }

    /** The document of a command that failed before it could report: the container and the error, as on standard error. */
    static Map<String, Object> error(Path container, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("container", containerUri(container));
        m.put("error", message);
        return m;
    }

    /** {@code info --json}: the container's root attributes, counts from the listing, damage and an uncommitted tail. */
    static Map<String, Object> info(Path container, FileSystem fs, long[] counts) throws IOException {
        Path root = fs.getRootDirectories().iterator().next();
        Map<String, Object> attributes = ContainerOptions.formatAttributes(root);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("container", containerUri(container));
        m.put("format", format(fs));
        m.put("directories", counts[0]);
        m.put("files", counts[1]);
        m.put("bytes", counts[2]);
        m.put("checked", CHECKED_BY_INFO);
        m.put("damage", damageList(attributes.get("damage")));
        if (attributes.containsKey("uncommittedTail")) {
            m.put("uncommittedTail", attributes.get("uncommittedTail"));
        }
        m.put("attributes", attributes);
        return m;
    }

    /** {@code verify --json}: the summary and one object per failure. */
    static Map<String, Object> verify(Path container, String format, long directories, long files, long bytes,
            List<Map<String, String>> failures, Object rootDamage, Object uncommittedTail) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("container", containerUri(container));
        m.put("format", format);
        m.put("sound", failures.isEmpty());
        m.put("directories", directories);
        m.put("files", files);
        m.put("bytesRead", bytes);
        m.put("checked", CHECKED_BY_VERIFY);
        m.put("damage", damageList(rootDamage));
        if (uncommittedTail != null) {
            m.put("uncommittedTail", uncommittedTail);
        }
        m.put("failures", failures);
        return m;
    }

    static Map<String, String> failure(String path, String reason) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("path", path);
        m.put("reason", reason);
        return m;
    }
}
