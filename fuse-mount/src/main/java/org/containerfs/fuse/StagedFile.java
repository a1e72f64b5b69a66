package org.containerfs.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;

/**
 * A file created through the mount, before it becomes a unit of the container. Its bytes wait in a
 * temporary file (deleted when this is settled) so that nothing reaches the append-only container
 * until the file is complete: a write that failed, a file removed before it was committed, or a
 * temporary name that is never renamed leave no unit behind, and attributes set with
 * {@code setfattr} before the commit (a GSD chunk's type and width) are known when the unit is made.
 * Guarded by its own monitor.
 */
final class StagedFile {
    /** rsync's temporary names: a dot, the final name, a dot and six random characters ({@code .position.kZKy3M}). */
    private static final Pattern TEMPORARY = Pattern.compile("\\..+\\.[A-Za-z0-9]{6}");

    String path;
    final FileChannel bytes;
    /** {@code <view>:<name>} to value, given as {@code user.<view>.<name>} extended attributes. */
    final Map<String, Object> attributes = new LinkedHashMap<>();
    final CountDownLatch settled = new CountDownLatch(1);
    long size;
    int descriptors;
    boolean written;
    /** Why this file will not be committed (a failed write, an unlink), or null. */
    String failure;
    /** The kernel's invalidation of this name after a failure, if one was sent. */
    java.util.concurrent.Future<?> forgotten;

    StagedFile(String path, Path stagingDirectory) throws IOException {
        this.path = path;
        Path file = Files.createTempFile(stagingDirectory, "containerfs-staged-", ".tmp");
        this.bytes = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.DELETE_ON_CLOSE);
    }

    /** Whether the last name of {@code fusePath} is a tool's temporary name (rsync's {@code .position.kZKy3M}). */
    static boolean temporaryName(String fusePath) {
        return TEMPORARY.matcher(fusePath.substring(fusePath.lastIndexOf('/') + 1)).matches();
    }

    /**
     * The path {@code fusePath} will be committed under: itself, or for a tool's temporary name the
     * final name it stands for ({@code /msg01/.rec02.x.kZKy3M} is {@code /msg01/rec02.x}).
     */
    static String committedName(String fusePath) {
        if (!temporaryName(fusePath)) {
            return fusePath;
        }
        int slash = fusePath.lastIndexOf('/');
        String name = fusePath.substring(slash + 1);
        return fusePath.substring(0, slash + 1) + name.substring(1, name.length() - ".kZKy3M".length());
    }

    boolean isSettled() {
        return settled.getCount() == 0;
    }

    void write(ByteBuffer src, long offset) throws IOException {
        long at = offset;
        while (src.hasRemaining()) {
            at += bytes.write(src, at);
        }
        size = Math.max(size, at);
        written = true;
    }

    /** Done: committed or dropped. Frees the staged bytes. */
    void settle() {
        try {
            bytes.close();
        } catch (IOException ignored) {
            // a temporary file: nothing to lose
        }
        settled.countDown();
    }
}
