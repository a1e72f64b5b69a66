package org.containerfs.cli;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * Where an extracted entry may be written: always strictly inside the destination directory, whatever
 * names the container holds. Each name must be one plain component (not empty, {@code .}, {@code ..}, and
 * without a separator or NUL); the resolved target must still lie below the destination after
 * normalization; and no existing directory on the way (nor the target itself) may be a symbolic link,
 * which could lead out of the destination.
 */
public final class ExtractionGuard {
    private final Path destination;

    private ExtractionGuard(Path destination) {
        this.destination = destination;
    }

    /**
     * Guards {@code destination}: it is created if missing and then taken as its real path, so that the
     * checks below compare real paths. (The destination itself is the user's choice and may be reached
     * through links; only what lies below it is checked.)
     */
    public static ExtractionGuard forDestination(Path destination) throws IOException {
        Path absolute = destination.toAbsolutePath().normalize();
        if (Files.exists(absolute) && !Files.isDirectory(absolute)) {
            throw new FileSystemException(destination.toString(), null, "the destination is not a directory");
        }
        Files.createDirectories(absolute);
        return new ExtractionGuard(absolute.toRealPath());
    }

    /** The real, absolute destination directory. */
    public Path destination() {
        return destination;
    }

    /** The target for an entry whose names below the destination are {@code names}; refuses any escape. */
    public Path target(List<String> names) throws IOException {
        if (names.isEmpty()) {
            throw new UnsafeTargetException(destination.toString(), "an entry needs a name below the destination");
        }
        Path target = destination;
        for (String name : names) {
            checkComponent(name);
            target = target.resolve(name);
        }
        Path normalized = target.normalize();
        if (!normalized.startsWith(destination) || normalized.equals(destination)) {
            throw new UnsafeTargetException(target.toString(), "outside the destination " + destination);
        }
        Path p = destination;
        for (String name : names) {
            p = p.resolve(name);
            if (Files.isSymbolicLink(p)) {
                throw new UnsafeTargetException(p.toString(),
                        "is a symbolic link; refusing to write through it (it could lead outside " + destination + ")");
            }
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                break; // nothing below a missing directory exists yet
            }
        }
        return normalized;
    }

    private void checkComponent(String name) throws UnsafeTargetException {
        String why = null;
        if (name.isEmpty()) {
            why = "an empty name";
        } else if (name.equals(".") || name.equals("..")) {
            why = "the name '" + name + "'";
        } else if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0) {
            why = "a name with a path separator";
        } else if (name.indexOf('\0') >= 0) {
            why = "a name with a NUL byte";
        } else {
            Path single = destination.getFileSystem().getPath(name);
            if (single.isAbsolute() || single.getNameCount() != 1 || !single.toString().equals(name)) {
                why = "a name that is not a single path component";
            }
        }
        if (why != null) {
            throw new UnsafeTargetException(Errors.safe(name), "refusing to extract " + why
                    + " (it could write outside " + destination + ")");
        }
    }

    /** An entry that would land outside the destination directory. */
    public static final class UnsafeTargetException extends FileSystemException {
        private static final long serialVersionUID = 1L;

        UnsafeTargetException(String file, String reason) {
            super(file, null, reason);
        }
    }

    /** Convenience for the tests and callers with a single name. */
    public Path target(String... names) throws IOException {
        return target(List.of(names));
    }
}
