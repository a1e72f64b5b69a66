package org.containerfs.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a writable mount does with new names, whichever engine serves it ({@link NioFuseOperations} for
 * jfuse's high-level API, {@link NioLowLevelOperations} for the low-level one): a new file is checked at
 * its create ({@link NewFileCheck}), staged ({@link StagedFile}) and committed at its close (flush), at its
 * release, at a rename to its final name, before the next new name, when it is read or at the end of the
 * session; a failed write or commit makes every later flush fail with EIO. Directories made here, and
 * staged files, take chmod/chown/utimens as no-ops; every other change goes to the file system, which for a
 * container refuses what is not an append. Requests name files by their path in the mount ({@code "/"},
 * {@code "/msg01/rec01.x"}); answers are values or exceptions that {@link ErrnoTable} turns into errno
 * ({@link Refusal} for an errno this class picks). Knows no FUSE binding: what the kernel must be told is
 * the engine's ({@link Kernel}).
 */
final class Staging {
    /** renameat2's RENAME_NOREPLACE. */
    static final int RENAME_NOREPLACE = 1;
    /** How long an open or create waits for the kernel's release of a file that was just written. */
    private static final long SETTLE_MILLIS = 3000;

    /** What the engine tells the kernel of names this class changes. Called from request threads: only queue. */
    interface Kernel {
        /** The kernel forgets a name that vanished without an unlink (else cached for the entry timeout). */
        Future<?> forget(String path);

        /** A staged file is a unit now: what the kernel caches of its attributes (mode, times) is stale. */
        default void committed(String path) {}
    }

    private static final Kernel NO_KERNEL = path -> CompletableFuture.completedFuture(null);

    /** An existing file the file system lets this mount write (never a container's unit). */
    static final class DirectWrite {
        final SeekableByteChannel channel;
        long position;

        DirectWrite(SeekableByteChannel channel, long position) {
            this.channel = channel;
            this.position = position;
        }
    }

    /** A FileAttribute given at creation: {@code <view>:<name>} from a {@code user.<view>.<name>} xattr. */
    private record CreationAttribute(String name, Object value) implements FileAttribute<Object> {}

    private final FileSystem fs;
    private final Path root;
    private final ErrnoTable errors;
    private final MountLog log;
    private final List<String> xattrViews;
    /** Refuses a new name the file system will never take, before anything is staged (see {@link #create}). */
    private final NewFileCheck newFileCheck;
    /** Files being written, by path in the mount: visible to getattr/readdir before their commit. */
    private final Map<String, StagedFile> writing = new ConcurrentHashMap<>();
    private final Set<String> madeHere = ConcurrentHashMap.newKeySet();
    private final Object createLock = new Object();
    /** Where new files wait until they are committed (see {@link StagedFile}). */
    private final Path stagingDirectory = Path.of(System.getProperty("java.io.tmpdir"));
    private volatile Kernel kernel = NO_KERNEL;

    Staging(Path root, ErrnoTable errors, MountLog log) {
        this.fs = root.getFileSystem();
        this.root = root;
        this.errors = errors;
        this.log = log;
        List<String> views = new ArrayList<>(new TreeSet<>(fs.supportedFileAttributeViews()));
        views.remove("basic");
        this.xattrViews = List.copyOf(views);
        this.newFileCheck = NewFileCheck.of(fs);
    }

    /** Set by the engine once the session can tell the kernel something. */
    void kernel(Kernel k) {
        this.kernel = k == null ? NO_KERNEL : k;
    }

    /** The file system's path of {@code fusePath}; a component of more than 255 bytes is ENAMETOOLONG. */
    Path resolve(String fusePath) throws NameTooLongException {
        if (fusePath.equals("/") || fusePath.isEmpty()) {
            return root;
        }
        // a component of more than 255 bytes has more than 63 characters: only then count bytes
        if (fusePath.length() > NioFuseOperations.NAME_MAX / 4) {
            for (String name : fusePath.split("/")) {
                if (name.length() > NioFuseOperations.NAME_MAX / 4
                        && name.getBytes(StandardCharsets.UTF_8).length > NioFuseOperations.NAME_MAX) {
                    throw new NameTooLongException(fusePath);
                }
            }
        }
        return root.resolve(fusePath.substring(1));
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    // ---- what the engines show ------------------------------------------------------------------

    /** The staged file at {@code path}, or null. */
    StagedFile staged(String path) {
        return writing.get(path);
    }

    /** The staged files directly in directory {@code dirPath}, by name. */
    Map<String, StagedFile> stagedIn(String dirPath) {
        if (writing.isEmpty()) {
            return Map.of();
        }
        Map<String, StagedFile> out = new LinkedHashMap<>();
        String prefix = dirPath.endsWith("/") ? dirPath : dirPath + "/";
        for (Map.Entry<String, StagedFile> e : writing.entrySet()) {
            String name = e.getKey().substring(e.getKey().lastIndexOf('/') + 1);
            if (e.getKey().equals(prefix + name)) {
                out.put(name, e.getValue());
            }
        }
        return out;
    }

    /** The bytes a staged file has so far. */
    static long size(StagedFile s) {
        synchronized (s) {
            return s.size;
        }
    }

    /** The attributes a staged file will be created with, as {@code user.<view>.<name>} to value bytes. */
    static Map<String, byte[]> xattrs(StagedFile s) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        synchronized (s) {
            s.attributes.forEach((k, v) -> out.put("user." + k.replaceFirst(":", "."), NioFuseOperations.valueBytes(v)));
        }
        return out;
    }

    /** Made in this session (a staged file or a directory made here): chmod/chown/utimens are no-ops on it. */
    boolean newHere(String path) {
        return writing.containsKey(path) || madeHere.contains(path);
    }

    // ---- new files ------------------------------------------------------------------------------

    /**
     * A new file at {@code path}, staged and open once: EEXIST, ENOENT (no parent), ENOTDIR, EROFS, or
     * what the file system's create would throw for the name it is committed under.
     */
    StagedFile create(String path) throws Exception {
        synchronized (createLock) {
            commitIdleFiles(); // a container takes new files in order
            Path p = resolve(path);
            if (writing.containsKey(path) || Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new Refusal(errors.eexist());
            }
            Path parent = p.getParent();
            if (parent == null || !Files.exists(parent)) {
                throw new Refusal(errors.enoent());
            }
            if (!Files.isDirectory(parent)) {
                throw new Refusal(errors.enotdir());
            }
            if (fs.isReadOnly()) {
                throw new Refusal(errors.erofs());
            }
            // the name the file is committed under: a tool's temporary name stands for its final one
            newFileCheck.check(resolve(StagedFile.committedName(path)));
            StagedFile s = new StagedFile(path, stagingDirectory);
            s.descriptors = 1;
            writing.put(path, s);
            return s;
        }
    }

    /**
     * Opens {@code path} for writing: a staged file again (e.g. {@code cp} onto a file made by {@code touch}
     * and given attributes; EACCES if committed meanwhile, EBUSY if still open), else the file system decides
     * (a container refuses: EACCES).
     */
    Object openForWriting(String path, boolean truncate) throws Exception {
        StagedFile s = writing.get(path);
        if (s == null) {
            SeekableByteChannel ch = Files.newByteChannel(resolve(path), StandardOpenOption.WRITE);
            return new DirectWrite(ch, ch.size());
        }
        synchronized (s) {
            if (s.isSettled()) {
                throw new Refusal(errors.eacces()); // committed meanwhile: a unit never changes
            }
            if (s.descriptors > 0) {
                throw new Refusal(errors.ebusy());
            }
            if (truncate) {
                s.bytes.truncate(0);
                s.size = 0;
            }
            s.descriptors++;
        }
        return s;
    }

    /**
     * Before {@code path} is opened for reading: a staged file closed without writing (touch) becomes a
     * unit now; one still being written is EBUSY once its release has not come for a while.
     */
    void beforeRead(String path) throws Exception {
        StagedFile staged = writing.get(path);
        if (staged == null) {
            return;
        }
        commitIfIdle(staged);
        if (!staged.settled.await(SETTLE_MILLIS, TimeUnit.MILLISECONDS)) {
            log.warn("open " + path + ": the file is still being written (not committed yet) -> EBUSY");
            throw new Refusal(errors.ebusy());
        }
    }

    /** A write request into an open handle ({@link StagedFile} or {@link DirectWrite}); the bytes taken. */
    int write(Object handle, String path, ByteBuffer buf, long count, long offset) throws Exception {
        if (handle instanceof DirectWrite d) {
            synchronized (d) {
                if (offset != d.position) {
                    throw outOfOrder(path, count, offset, d.position);
                }
                int total = 0;
                while (buf.hasRemaining()) {
                    total += d.channel.write(buf);
                }
                d.position += total;
                return total;
            }
        }
        if (!(handle instanceof StagedFile s)) {
            throw new Refusal(errors.ebadf());
        }
        synchronized (s) {
            if (s.isSettled()) {
                log.error("write " + path + ": already committed by an earlier close -> EIO");
                throw new Refusal(errors.eio());
            }
            if (s.failure != null) {
                throw new Refusal(errors.eio());
            }
            if (offset != s.size) {
                s.failure = "an out-of-order write at offset " + offset + " after " + s.size + " bytes";
                writing.remove(s.path, s); // gone at once: it will never be a unit
                s.forgotten = kernel.forget(s.path);
                throw outOfOrder(path, count, offset, s.size);
            }
            int n = buf.remaining();
            s.write(buf, offset);
            return n;
        }
    }

    private Refusal outOfOrder(String path, long count, long offset, long position) {
        log.error("write " + path + ": out-of-order write of " + count + " bytes at offset " + offset
                + " after " + position + " bytes: files are appended sequentially (cp, cat, dd "
                + "without seek) -> EIO; the file will not be committed");
        return new Refusal(errors.eio());
    }

    /**
     * close(): a new file that was written is committed here, so that close reports a failed write or a
     * refused commit to the writer, as EIO (this and every later close of the file). A close without
     * writes (a shell's redirection closes its first descriptor before the command writes; {@code touch})
     * commits nothing yet. Other handles: nothing to do.
     */
    void flush(Object handle) throws Exception {
        if (!(handle instanceof StagedFile s)) {
            return;
        }
        Future<?> forgotten;
        synchronized (s) {
            forgotten = s.forgotten;
        }
        if (forgotten != null) {
            try {
                forgotten.get(1, TimeUnit.SECONDS); // the writer's close returns once the name is gone
            } catch (TimeoutException | ExecutionException e) {
                // the kernel keeps the name cached a while longer; nothing is committed either way
            }
        }
        synchronized (s) {
            if (s.failure != null) {
                throw new Refusal(errors.eio());
            }
            if (!s.written || s.isSettled() || StagedFile.temporaryName(s.path)) {
                return;
            }
        }
        try {
            commit(s);
        } catch (IOException | RuntimeException refused) {
            // the bytes were taken; keeping them failed: close(2) says EIO, as a disk that fails at close
            throw new Refusal(errors.eio());
        }
    }

    /** fsync: forces the channel of a directly written file; a container commits a unit at close. */
    static void fsync(Object handle, boolean datasync) throws IOException {
        if (handle instanceof DirectWrite w && w.channel instanceof FileChannel fc) {
            fc.force(!datasync);
        }
    }

    /**
     * The last close of a handle of this class: a staged file written after its last flush is committed
     * now; one never written (touch) waits for a write, a read, the next new file or the unmount
     * (attributes may still be set with setfattr); a temporary name waits for its rename.
     */
    void release(Object handle) throws Exception {
        if (handle instanceof DirectWrite w) {
            w.channel.close();
            return;
        }
        if (!(handle instanceof StagedFile s)) {
            return;
        }
        boolean commitNow;
        synchronized (s) {
            if (--s.descriptors > 0 || s.isSettled()) {
                return;
            }
            if (s.failure != null) {
                drop(s, s.failure);
                return;
            }
            if (StagedFile.temporaryName(s.path)) {
                log.info("staged " + s.path + " (" + s.size + " bytes): a temporary name, committed when "
                        + "renamed to its final name");
                return;
            }
            commitNow = s.written;
        }
        if (commitNow) {
            commit(s);
        }
    }

    /**
     * Makes a staged file a unit of the container: the file system's own create with the attributes
     * set on it, its bytes, close. A refusal drops the staged bytes (the error reaches the caller).
     */
    private void commit(StagedFile s) throws IOException {
        synchronized (createLock) {
            String path;
            List<FileAttribute<?>> attrs = new ArrayList<>();
            synchronized (s) {
                if (s.isSettled()) {
                    return;
                }
                path = s.path;
                s.attributes.forEach((k, v) -> attrs.add(new CreationAttribute(k, v)));
            }
            long size = s.size;
            try (SeekableByteChannel unit = Files.newByteChannel(resolve(path), Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), attrs.toArray(FileAttribute<?>[]::new))) {
                for (long done = 0; done < size; ) {
                    done += s.bytes.transferTo(done, size - done, unit);
                }
            } catch (IOException | RuntimeException e) {
                synchronized (s) {
                    s.failure = "its commit was refused: " + describe(e); // every later flush reports it too
                    drop(s, describe(e));
                }
                kernel.forget(path);
                throw e;
            }
            synchronized (s) {
                writing.remove(s.path, s);
                s.settle();
            }
            log.info("committed " + path + " (" + size + " bytes)");
            kernel.committed(path);
        }
    }

    /** Forgets a staged file: nothing of it reaches the container. Caller holds its monitor. */
    private void drop(StagedFile s, String why) {
        if (s.isSettled()) {
            return;
        }
        writing.remove(s.path, s);
        s.settle();
        log.error(s.path + ": " + s.size + " bytes NOT committed (" + why + ")");
    }

    private void commitIfIdle(StagedFile s) {
        boolean idle;
        synchronized (s) {
            idle = s.descriptors == 0 && !s.isSettled() && s.failure == null && !StagedFile.temporaryName(s.path);
        }
        if (idle) {
            try {
                commit(s);
            } catch (IOException | RuntimeException e) {
                log.error("commit of " + s.path + " failed: " + describe(e));
            }
        }
    }

    /** Before a new file or directory: files closed without writes are committed first, in order. */
    private void commitIdleFiles() {
        for (StagedFile s : List.copyOf(writing.values())) {
            commitIfIdle(s);
        }
    }

    /**
     * At the end of the session (unmount, SIGTERM): what was written is committed, also of a file a
     * process still holds open (as closing a container commits a unit being written); temporary names
     * never renamed and files whose write failed are dropped (logged).
     */
    void finish() {
        for (StagedFile s : List.copyOf(writing.values())) {
            boolean keep;
            synchronized (s) {
                keep = !s.isSettled() && s.failure == null && !StagedFile.temporaryName(s.path);
                if (!keep) {
                    drop(s, s.failure != null ? s.failure : "a temporary name never renamed");
                }
            }
            if (keep) {
                try {
                    commit(s);
                } catch (IOException | RuntimeException e) {
                    log.error("commit of " + s.path + " at unmount failed: " + describe(e));
                }
            }
        }
    }

    // ---- names ----------------------------------------------------------------------------------

    void mkdir(String path) throws IOException {
        synchronized (createLock) {
            commitIdleFiles();
            Files.createDirectory(resolve(path));
            madeHere.add(path);
        }
    }

    /** A staged file never committed may be removed (rsync's cleanup, an editor's probe file); else the file system decides. */
    void unlink(String path) throws IOException {
        StagedFile s = writing.get(path);
        if (s != null) {
            synchronized (s) {
                if (!s.isSettled()) {
                    if (s.descriptors == 0) {
                        writing.remove(path, s);
                        s.settle();
                    } else {
                        s.failure = "removed before it was committed";
                        writing.remove(path, s);
                    }
                    return;
                }
            }
        }
        Files.delete(resolve(path));
    }

    void rmdir(String path) throws IOException {
        Files.delete(resolve(path));
        madeHere.remove(path);
    }

    /**
     * A staged file renamed (rsync's {@code .position.kZKy3M} to {@code position}) takes its new name and,
     * if closed, is committed under it now; renaming anything committed is the file system's call.
     */
    void rename(String oldpath, String newpath, int flags) throws Exception {
        StagedFile s = writing.get(oldpath);
        if (s != null && !s.isSettled()) {
            Path target = resolve(newpath);
            if (writing.containsKey(newpath) || Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new Refusal((flags & RENAME_NOREPLACE) != 0 ? errors.eexist() : errors.eacces());
            }
            newFileCheck.check(resolve(StagedFile.committedName(newpath)));
            boolean commitNow;
            synchronized (s) {
                writing.remove(oldpath, s);
                s.path = newpath;
                writing.put(newpath, s);
                commitNow = s.descriptors == 0 && s.failure == null && !StagedFile.temporaryName(newpath);
            }
            if (commitNow) {
                commit(s);
            }
            return;
        }
        if ((flags & RENAME_NOREPLACE) != 0) {
            Files.move(resolve(oldpath), resolve(newpath));
        } else {
            Files.move(resolve(oldpath), resolve(newpath), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** A staged file may be cut back (never grown: EIO); anything else is the file system's call. */
    void truncate(String path, long size) throws Exception {
        StagedFile s = writing.get(path);
        if (s != null) {
            synchronized (s) {
                if (!s.isSettled() && size <= s.size) {
                    s.bytes.truncate(size);
                    s.size = size;
                    return;
                }
                log.error("truncate " + path + " to " + size + " bytes while " + s.size
                        + " are written: files are appended sequentially -> EIO");
                throw new Refusal(errors.eio());
            }
        }
        try (SeekableByteChannel ch = Files.newByteChannel(resolve(path), StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }

    /**
     * Modes are synthesized: accepted as a no-op on what this session creates (cp -p, rsync -a),
     * EACCES on anything else when the file system keeps none (a container), as for every change
     * that is not an append.
     */
    void chmod(String path, int mode) throws Exception {
        if (newHere(path)) {
            return;
        }
        try {
            Files.setPosixFilePermissions(resolve(path), permissions(mode));
        } catch (UnsupportedOperationException noModes) {
            throw new Refusal(errors.eacces());
        }
    }

    /** The permission bits of a mode. */
    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE};
        for (int i = 0; i < order.length; i++) {
            if ((mode & (0400 >> i)) != 0) {
                out.add(order[i]);
            }
        }
        return out;
    }

    /** {@code newUid}/{@code newGid} -1: unchanged. */
    void chown(String path, int newUid, int newGid) throws Exception {
        if (newHere(path)) {
            return;
        }
        Path p = resolve(path);
        try {
            if (newUid != -1) {
                Files.setAttribute(p, "unix:uid", newUid);
            }
            if (newGid != -1) {
                Files.setAttribute(p, "unix:gid", newGid);
            }
        } catch (UnsupportedOperationException noOwners) {
            throw new Refusal(errors.eacces());
        }
    }

    /** {@code accessed}/{@code modified} null: unchanged. */
    void utimens(String path, FileTime accessed, FileTime modified) throws IOException {
        if (newHere(path)) {
            return;
        }
        Files.getFileAttributeView(resolve(path), BasicFileAttributeView.class).setTimes(modified, accessed, null);
    }

    /**
     * {@code setfattr -n user.<view>.<name> -v <value>} on a file not yet committed: the attribute
     * is given to the file system when the file is created in it (a GSD chunk's {@code gsd:type} and
     * {@code gsd:M}). Committed files never change: EACCES; namespaces a container cannot have: ENOTSUP.
     */
    void setxattr(String path, String name, ByteBuffer value) throws Exception {
        if (NioFuseOperations.neverPresent(name) || !name.startsWith("user.")) {
            throw new Refusal(errors.enotsup());
        }
        StagedFile s = writing.get(path);
        if (s == null) {
            resolve(path).getFileSystem().provider().checkAccess(resolve(path)); // ENOENT if missing
            throw new Refusal(errors.eacces());
        }
        String rest = name.substring("user.".length());
        int dot = rest.indexOf('.');
        if (dot <= 0 || !xattrViews.contains(rest.substring(0, dot))) {
            log.warn("setxattr " + path + ": " + name + " names no attribute view of this file system (user."
                    + String.join(".*, user.", xattrViews) + ".*) -> ENOTSUP");
            throw new Refusal(errors.enotsup());
        }
        byte[] raw = new byte[value.remaining()];
        value.get(raw);
        String text = new String(raw, StandardCharsets.UTF_8).strip();
        synchronized (s) {
            if (s.isSettled()) {
                throw new Refusal(errors.eacces());
            }
            s.attributes.put(rest.substring(0, dot) + ":" + rest.substring(dot + 1), text);
        }
    }
}
