package org.containerfs.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.InvalidNameException;
import org.containerfs.spi.Node;

/** Appending: new records and directories, format attributes; refusals of what append-only forbids. */
final class WriteOperations {
    private WriteOperations() {}

    static SeekableByteChannel newWriteChannel(ContainerPath path, Set<? extends OpenOption> options,
            FileAttribute<?>[] attrs) throws IOException {
        ContainerFileSystem fs = path.getFileSystem();
        fs.ensureWritable();
        if (options.contains(StandardOpenOption.READ)) {
            throw new UnsupportedOperationException("a new record is opened write-only (READ with WRITE is not supported)");
        }
        ContainerPath abs = path.toAbsolutePath().normalize();
        if (abs.getParent() == null) {
            throw new FileSystemException("/", null, "is a directory");
        }
        String name = abs.getFileName().toString();
        Map<String, Object> attributes = attributeMap(fs, attrs);
        WritableByteChannel sink = fs.write(() -> {
            Node parent = newFileParent(fs, abs, options);
            WritableByteChannel created;
            try {
                created = fs.writer().createFile(parent, name, attributes);
            } catch (FileSystemException e) {
                throw withWholePath(e, name, abs);
            }
            fs.afterWrite();
            return created;
        });
        return new ContainerWriteChannel(fs, sink, abs.toString());
    }

    /**
     * Refuses what {@link #newWriteChannel} with {@code CREATE_NEW} would refuse for {@code path} now (an
     * existing name, a missing parent, a name the format does not take there), creating nothing: for a
     * caller that gathers a file's bytes before it creates it (the FUSE mount stages new files) and
     * must refuse the name at once. Same checks, same exceptions, as the create itself.
     */
    static void checkNewFile(ContainerPath path, FileAttribute<?>[] attrs) throws IOException {
        ContainerFileSystem fs = path.getFileSystem();
        fs.ensureWritable();
        ContainerPath abs = path.toAbsolutePath().normalize();
        if (abs.getParent() == null) {
            throw new FileSystemException("/", null, "is a directory");
        }
        String name = abs.getFileName().toString();
        Map<String, Object> attributes = attributeMap(fs, attrs);
        fs.read(() -> {
            Node parent = newFileParent(fs, abs, Set.of(StandardOpenOption.CREATE_NEW));
            try {
                fs.writer().checkNewFile(parent, name, attributes);
            } catch (FileSystemException e) {
                throw withWholePath(e, name, abs);
            }
            return null;
        });
    }

    /** The directory a new file {@code abs} goes into, after the checks of a create that come before the format's. */
    private static Node newFileParent(ContainerFileSystem fs, ContainerPath abs, Set<? extends OpenOption> options)
            throws IOException {
        Node existing = fs.find(abs);
        ContainerWriter writer = fs.writer(); // a container that takes no writes at all says so first
        if (existing != null) {
            if (options.contains(StandardOpenOption.CREATE_NEW)) {
                throw new FileAlreadyExistsException(abs.toString());
            }
            throw new AccessDeniedException(abs.toString(), null,
                    "existing records are never modified; " + writer.allowedWrites());
        }
        if (!options.contains(StandardOpenOption.CREATE) && !options.contains(StandardOpenOption.CREATE_NEW)) {
            throw new NoSuchFileException(abs.toString());
        }
        ContainerPath parentPath = abs.getParent();
        Node parent = fs.find(parentPath);
        if (parent == null) {
            throw new NoSuchFileException(parentPath.toString());
        }
        if (!parent.isDirectory()) {
            throw new java.nio.file.NotDirectoryException(parentPath.toString());
        }
        return parent;
    }

    /**
     * Attributes given at creation, for the format. Only the format's own view can mean anything to a
     * container; others (posix:permissions, say) are refused as Files.createFile's contract asks,
     * rather than silently dropped.
     */
    private static Map<String, Object> attributeMap(ContainerFileSystem fs, FileAttribute<?>[] attrs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (FileAttribute<?> a : attrs) {
            int colon = a.name().indexOf(':');
            String view = colon < 0 ? "basic" : a.name().substring(0, colon);
            if (!view.equals(fs.format().name())) {
                throw new UnsupportedOperationException("attribute " + a.name() + " cannot be set on creation in a "
                        + fs.format().name() + " container (only " + fs.format().name() + ":* attributes)");
            }
            map.put(a.name(), a.value());
        }
        return map;
    }

    static void createDirectory(ContainerPath dir, FileAttribute<?>... attrs) throws IOException {
        ContainerPath path = dir.toAbsolutePath().normalize();
        ContainerFileSystem fs = path.getFileSystem();
        fs.ensureWritable();
        ContainerPath parentPath = path.getParent();
        if (parentPath == null) {
            throw new FileAlreadyExistsException("/");
        }
        Map<String, Object> attributes = attributeMap(fs, attrs);
        fs.write(() -> {
            if (fs.find(path) != null) {
                throw new FileAlreadyExistsException(path.toString());
            }
            Node parent = fs.find(parentPath);
            if (parent == null) {
                throw new NoSuchFileException(parentPath.toString());
            }
            if (!parent.isDirectory()) {
                throw new FileSystemException(path.toString(), parentPath.toString(), "not a directory: the parent is a record");
            }
            String name = path.getFileName().toString();
            try {
                fs.writer().createDirectory(parent, name, attributes);
            } catch (FileSystemException e) {
                throw withWholePath(e, name, path);
            }
            fs.afterWrite();
            return null;
        });
    }

    /**
     * A format names what it refuses by the name it was given; the caller gave a path, and the
     * exception names the whole of it (as the JDK's providers do).
     */
    static FileSystemException withWholePath(FileSystemException e, String name, ContainerPath path) {
        if (!name.equals(e.getFile())) {
            return e;
        }
        String file = path.toString();
        String reason = e.getReason();
        FileSystemException named;
        if (e instanceof InvalidNameException) {
            named = new InvalidNameException(file, reason);
        } else if (e instanceof AccessDeniedException) {
            named = new AccessDeniedException(file, e.getOtherFile(), reason);
        } else if (e instanceof FileAlreadyExistsException) {
            named = new FileAlreadyExistsException(file, e.getOtherFile(), reason);
        } else if (e instanceof NoSuchFileException) {
            named = new NoSuchFileException(file, e.getOtherFile(), reason);
        } else if (e.getClass() == FileSystemException.class) {
            named = new FileSystemException(file, e.getOtherFile(), reason);
        } else {
            return e; // a type whose constructor we do not know: keep it as the format made it
        }
        named.initCause(e);
        return named;
    }

    static void delete(ContainerPath p) throws IOException {
        ContainerFileSystem fs = p.getFileSystem();
        fs.ensureWritable();
        fs.lookup(p);
        throw new AccessDeniedException(p.toString(), null,
                "containers are append-only: nothing is ever deleted; " + fs.writer().allowedWrites());
    }

    static void copy(ContainerPath src, ContainerPath dst, CopyOption... options) throws IOException {
        Node node = src.getFileSystem().lookup(src);
        if (sameFile(src, dst)) {
            return; // Files.copy: the same file completes without copying
        }
        if (Arrays.asList(options).contains(StandardCopyOption.REPLACE_EXISTING)) {
            ContainerFileSystem fs = dst.getFileSystem();
            fs.ensureWritable();
            if (fs.read(() -> fs.find(dst)) != null) {
                throw new AccessDeniedException(dst.toString(), null,
                        "existing records are never replaced; " + fs.writer().allowedWrites());
            }
        }
        if (node.isDirectory()) {
            createDirectory(dst);
            return;
        }
        try (InputStream in = ReadOperations.newInputStream(src);
                OutputStream out = java.nio.channels.Channels.newOutputStream(
                        newWriteChannel(dst, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                                new FileAttribute<?>[0]))) {
            in.transferTo(out);
        }
    }

    static void move(ContainerPath src, Path target, CopyOption... options) throws IOException {
        ContainerFileSystem fs = src.getFileSystem();
        fs.lookup(src);
        if (target instanceof ContainerPath t && sameFile(src, t)) {
            return; // Files.move: the same file completes without moving
        }
        fs.ensureWritable();
        throw new AccessDeniedException(src.toString(), target.toString(),
                "records are named by their position in the container and cannot be renamed; "
                        + fs.writer().allowedWrites());
    }

    private static boolean sameFile(ContainerPath a, ContainerPath b) {
        return a.getFileSystem() == b.getFileSystem()
                && a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    private static final Set<String> BASIC_TIMES = Set.of("lastModifiedTime", "lastAccessTime", "creationTime");
    private static final Set<String> BASIC_NAMES = Set.of("lastModifiedTime", "lastAccessTime", "creationTime", "size",
            "isRegularFile", "isDirectory", "isSymbolicLink", "isOther", "fileKey");

    /**
     * As the JDK's providers: a view the file system lacks is {@link UnsupportedOperationException}, an
     * attribute the view lacks or cannot set (basic:size) {@link IllegalArgumentException}; only then
     * does a read-only file system or an append-only container refuse.
     */
    static void setAttribute(ContainerPath p, String attribute, Object value) throws IOException {
        ContainerFileSystem fs = p.getFileSystem();
        int colon = attribute.indexOf(':');
        String view = colon < 0 ? "basic" : attribute.substring(0, colon);
        String name = colon < 0 ? attribute : attribute.substring(colon + 1);
        if (view.equals("basic")) {
            if (!BASIC_TIMES.contains(name)) {
                throw new IllegalArgumentException("attribute basic:" + name + " cannot be set"
                        + (BASIC_NAMES.contains(name) ? "" : ": the basic view has no such attribute"));
            }
            fs.ensureWritable();
            fs.lookup(p);
            throw new AccessDeniedException(p.toString(), null, "times are the container's own and cannot be set");
        }
        if (!view.equals(fs.format().name())) {
            throw new UnsupportedOperationException("attribute view " + view + " is not supported (basic, "
                    + fs.format().name() + ")");
        }
        fs.ensureWritable();
        Node node = fs.lookup(p);
        fs.write(() -> {
            fs.writer().setAttribute(node, name, value);
            fs.afterWrite();
            return null;
        });
    }
}
