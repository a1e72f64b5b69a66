package org.containerfs.differential;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/** The question asked of a container's java.nio file system, whatever store it was opened from. */
final class NioWalk {
    private NioWalk() {}

    /** Every path below the root with its attributes and content, as {@link Answer} normalizes them. */
    /**
     * Opens a container and walks it; an open that fails as the java.nio API says it may (an IOException, or
     * ProviderNotFoundException for bytes no format claims) is a refusal. Anything else is a failure of the
     * test: a door must not answer bad input with an arbitrary RuntimeException.
     */
    static Answer openAndWalk(Opener opener) throws IOException {
        FileSystem fs;
        try {
            fs = opener.open();
        } catch (IOException | java.nio.file.ProviderNotFoundException refused) {
            return Answer.refusedToOpen();
        }
        try (fs) {
            return walk(fs);
        } catch (IOException | java.nio.file.DirectoryIteratorException unlistable) {
            return Answer.refusedToOpen();
        }
    }

    /** How a door opens its file system of the container. */
    interface Opener {
        FileSystem open() throws IOException;
    }

    static Answer walk(FileSystem fs) throws IOException {
        Map<String, Answer.Entry> entries = new TreeMap<>();
        walk(fs.getRootDirectories().iterator().next(), entries);
        return Answer.of(entries);
    }

    /**
     * Every path below {@code top}, a directory that shows a container inside a larger tree (an ensemble's),
     * named as the container's own root names them ({@code /msg01/...}).
     */
    static Answer walkBelow(Path top) throws IOException {
        Map<String, Answer.Entry> entries = new TreeMap<>();
        walk(top, top, entries);
        return Answer.of(entries);
    }

    private static void walk(Path dir, Map<String, Answer.Entry> entries) throws IOException {
        walk(dir.getRoot(), dir, entries);
    }

    private static void walk(Path top, Path dir, Map<String, Answer.Entry> entries) throws IOException {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                String name = "/" + top.relativize(child);
                BasicFileAttributes a = Files.readAttributes(child, BasicFileAttributes.class);
                if (a.isDirectory()) {
                    entries.put(name, Answer.Entry.directory());
                    walk(top, child, entries);
                } else {
                    entries.put(name, Answer.Entry.file(a.size(), content(child, a.size())));
                }
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException unlistable) {
            if (dir.equals(top)) {
                throw unlistable; // the top: the container as a whole cannot be listed
            }
            entries.put("/" + top.relativize(dir), new Answer.Entry(Answer.Type.DIRECTORY, 0, Answer.UNLISTABLE));
        }
    }

    /** The content of a file read through any door's default-file-system path (a mount's). */
    static String content(Path file, long listedSize) {
        try (InputStream in = Files.newInputStream(file)) {
            return content(in, listedSize);
        } catch (IOException unreadable) {
            return Answer.UNREADABLE;
        }
    }

    /**
     * The SHA-256 of the stream's bytes; when their number is not the listed size, that is said too (a
     * short or long read is a disagreement of its own, even when every door reads the same bytes).
     */
    static String content(InputStream in, long listedSize) throws IOException {
        MessageDigest md = sha256();
        byte[] buffer = new byte[1 << 16];
        long length = 0;
        for (int n; (n = in.read(buffer)) > 0; ) {
            md.update(buffer, 0, n);
            length += n;
        }
        return content(HexFormat.of().formatHex(md.digest()), length, listedSize);
    }

    static String content(String sha256, long length, long listedSize) {
        return length == listedSize ? sha256 : sha256 + " of " + length + " bytes, not " + listedSize;
    }

    static String content(byte[] bytes, long listedSize) {
        return content(HexFormat.of().formatHex(sha256().digest(bytes)), bytes.length, listedSize);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
