package org.containerfs.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.cryptomator.jfuse.api.DirFiller;
import org.cryptomator.jfuse.api.Errno;
import org.cryptomator.jfuse.api.FileInfo;
import org.cryptomator.jfuse.api.FuseConfig;
import org.cryptomator.jfuse.api.FuseConnInfo;
import org.cryptomator.jfuse.api.FuseOperations;
import org.cryptomator.jfuse.api.Stat;
import org.cryptomator.jfuse.api.Statvfs;
import org.cryptomator.jfuse.api.TimeSpec;

/**
 * FUSE operations over any {@link java.nio.file.FileSystem}: this class knows nothing of container
 * formats. Everything a format decides (what may be appended, what is refused) comes from the NIO
 * provider and reaches the shell through {@link ErrnoTable}.
 *
 * <ul>
 *   <li>Reads: one channel per open file handle, positional reads straight into the buffer libfuse
 *       hands over (no intermediate copy). An error in the middle of a read is returned as an
 *       error, never as a short read (the kernel would take it for end of file).</li>
 *   <li>Extended attributes: every attribute view of the file system other than {@code basic}
 *       (for a container: the format's view) as {@code user.<view>.<name>}; {@code byte[]} values
 *       raw, other values as their string form. Read-only.</li>
 *   <li>Writes (writable mounts only; {@link Staging} decides, shared with the low-level engine): a new name is first checked with the file system's own create
 *       check (see {@link NewFileCheck}) and refused at once if the container cannot take it; a new
 *       file streams sequentially into the provider's append channel; an out-of-order write fails with EIO and a log line; the file is committed when its
 *       last descriptor is closed ({@code release}). {@code fsync} forces the channel if it is a
 *       {@link FileChannel}; a container commits a unit at close (open the container with env
 *       {@code sync=true} to force every commit to disk). {@code mkdir}, {@code unlink},
 *       {@code rmdir}, {@code rename}, {@code truncate}, {@code chmod}, {@code chown} and
 *       {@code utimens} go to the provider, which for a container refuses what is not an append.
 *       {@code chmod}/{@code chown}/{@code utimens} of a file being written or a directory made in
 *       this session are accepted as no-ops (modes and times are synthesized) so that {@code cp -r}
 *       and {@code touch} of new names work.</li>
 * </ul>
 */
public final class NioFuseOperations implements FuseOperations {
    /** Linux (and macOS) EBUSY: not in jfuse's {@link Errno}. */
    static final int EBUSY = 16;
    /** Linux NAME_MAX, reported by statfs: the codec of the tree keeps every name within it. */
    static final int NAME_MAX = 255;
    private static final long BLOCK = 4096;

    private final FileSystem fs;
    private final Path root;
    private final Errno errno;
    private final ErrnoTable errors;
    private final MountLog log;
    private final boolean writable;
    private final int uid;
    private final int gid;
    private final List<String> xattrViews;
    /** New files, new directories and every other change: the staging and commit logic both engines share. */
    private final Staging staging;
    private final AtomicLong nextHandle = new AtomicLong(1);
    /** Requests served, by operation (what the kernel asked through libfuse; LOOKUPs arrive as getattr). */
    private final Map<Operation, LongAdder> served = new EnumMap<>(Operation.class);
    private final Map<Long, Object> handles = new ConcurrentHashMap<>();
    /** Counted down by {@link #init}: the kernel has started the session (see {@link FuseSession#mountWithoutProbe}). */
    private final CountDownLatch initialized = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicReference<Runnable> firstRequest =
            new java.util.concurrent.atomic.AtomicReference<>();
    private volatile int maxRead;
    private volatile Path libfuse;
    private volatile KernelCache kernelCache;

    /**
     * @param root     the directory shown as the mount's root (e.g. {@code fs.getPath("/")})
     * @param writable whether create/write/mkdir/... are offered; the provider still decides what it allows
     */
    public NioFuseOperations(Path root, Errno errno, boolean writable, int uid, int gid, MountLog log) {
        this.fs = root.getFileSystem();
        this.root = root;
        this.errno = errno;
        this.errors = new ErrnoTable(errno);
        this.writable = writable;
        this.uid = uid;
        this.gid = gid;
        this.log = log;
        List<String> views = new ArrayList<>(new TreeSet<>(fs.supportedFileAttributeViews()));
        views.remove("basic");
        this.xattrViews = List.copyOf(views);
        this.staging = new Staging(root, errors, log);
        staging.kernel(this::forget);
        for (Operation op : Operation.values()) {
            served.put(op, new LongAdder()); // filled once: the map is only read afterwards, from any thread
        }
    }

    @Override
    public Errno errno() {
        return errno;
    }

    @Override
    public Set<Operation> supportedOperations() {
        EnumSet<Operation> ops = EnumSet.of(Operation.INIT, Operation.GET_ATTR, Operation.READ_DIR,
                Operation.OPEN, Operation.READ, Operation.RELEASE, Operation.STATFS, Operation.GET_XATTR,
                Operation.LIST_XATTR, Operation.FSYNC, Operation.OPEN_DIR, Operation.RELEASE_DIR);
        if (writable) {
            // FLUSH only where close() can commit: without it the kernel stops sending one per close
            ops.addAll(EnumSet.of(Operation.FLUSH, Operation.CREATE, Operation.WRITE, Operation.MKDIR, Operation.UNLINK,
                    Operation.RMDIR, Operation.RENAME, Operation.TRUNCATE, Operation.CHMOD, Operation.CHOWN,
                    Operation.UTIMENS, Operation.SET_XATTR, Operation.DESTROY));
        }
        return ops;
    }

    /**
     * The requests this session has served so far, by operation (operations never asked are left out).
     * libfuse's high-level API turns a kernel LOOKUP into {@link Operation#GET_ATTR} and answers FORGET
     * itself; {@code --verbose} logs these counts at unmount.
     */
    public Map<Operation, Long> requestCounts() {
        Map<Operation, Long> counts = new EnumMap<>(Operation.class);
        served.forEach((op, n) -> {
            long v = n.sum();
            if (v > 0) {
                counts.put(op, v);
            }
        });
        return counts;
    }

    private void served(Operation op) {
        served.get(op).increment();
        if (firstRequest.get() != null) {
            Runnable first = firstRequest.getAndSet(null);
            if (first != null) {
                first.run();
            }
        }
    }

    /**
     * Runs {@code action} once, at the first request after the session's INIT: the kernel has then
     * taken the INIT reply (it sends nothing else before), which an action in {@link #init} precedes.
     */
    void onFirstRequest(Runnable action) {
        firstRequest.set(action);
    }

    /** Open file handles (reads and writes), for a clean shutdown and for tests. */
    public int openHandles() {
        return handles.size();
    }

    // ---- plumbing ----------------------------------------------------------------------------

    private interface Op {
        int run() throws Exception;
    }

    private int guard(String op, String path, Op body) {
        try {
            return body.run();
        } catch (Throwable t) {
            int e = errors.errnoOf(t);
            if (!ErrnoTable.routine(t)) {
                log.warn(op + " " + path + ": " + describe(t) + " -> errno " + e);
            }
            return -e;
        }
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    Path resolve(String fusePath) throws NameTooLongException {
        return staging.resolve(fusePath);
    }

    private long register(Object handle) {
        long fh = nextHandle.getAndIncrement();
        handles.put(fh, handle);
        return fh;
    }

    private record ReadHandle(SeekableByteChannel channel) {}

    // ---- attributes ----------------------------------------------------------------------------

    private void fill(Stat stat, BasicFileAttributes a) {
        if (a.isDirectory()) {
            stat.setMode(Stat.S_IFDIR | (writable ? 0755 : 0555));
        } else {
            stat.setMode(Stat.S_IFREG | 0444);
        }
        // 1 for directories too: tools then never guess the subdirectory count from the link count.
        stat.setNLink((short) 1);
        stat.setSize(a.size());
        StatBlocks.set(stat, a.size());
        stat.setUid(uid);
        stat.setGid(gid);
        setTimes(stat, a.lastModifiedTime(), a.lastAccessTime());
    }

    private void fillWriting(Stat stat, StagedFile w) {
        stat.setMode(Stat.S_IFREG | 0644);
        stat.setNLink((short) 1);
        long size = Staging.size(w);
        stat.setSize(size);
        StatBlocks.set(stat, size);
        stat.setUid(uid);
        stat.setGid(gid);
        FileTime now = FileTime.from(Instant.now());
        setTimes(stat, now, now);
    }

    private static void setTimes(Stat stat, FileTime modified, FileTime accessed) {
        Instant m = modified == null ? Instant.EPOCH : modified.toInstant();
        Instant a = accessed == null ? m : accessed.toInstant();
        stat.mTime().set(m);
        stat.cTime().set(m);
        stat.aTime().set(a);
    }

    /** The libfuse this session runs on: init captures its handle for cache invalidations. */
    void libfuse(Path library) {
        this.libfuse = library;
    }

    /** The kernel forgets a name that vanished without an unlink (else cached for the entry timeout). */
    private java.util.concurrent.Future<?> forget(String fusePath) {
        KernelCache k = kernelCache;
        return k == null ? java.util.concurrent.CompletableFuture.completedFuture(null) : k.forgetLater(fusePath);
    }

    /** The {@code -o max_read} the mount was given (0: none): init must repeat it (libfuse 3.14). */
    void maxRead(int bytes) {
        this.maxRead = bytes;
    }

    @Override
    public void init(FuseConnInfo conn, FuseConfig cfg) {
        if (maxRead > 0) {
            conn.setMaxRead(maxRead);
        }
        if (libfuse != null) {
            kernelCache = KernelCache.capture(libfuse);
        }
        log.info("FUSE session started (protocol " + conn.protoMajor() + "." + conn.protoMinor() + ")");
        initialized.countDown();
    }

    /** Whether the session has started (its INIT arrived), waiting at most {@code timeout}. */
    boolean awaitInit(java.time.Duration timeout) throws InterruptedException {
        return initialized.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int getattr(String path, Stat stat, FileInfo fi) {
        served(Operation.GET_ATTR);
        return guard("getattr", path, () -> {
            StagedFile w = staging.staged(path);
            if (w != null) {
                fillWriting(stat, w);
                return 0;
            }
            fill(stat, Files.readAttributes(resolve(path), BasicFileAttributes.class));
            return 0;
        });
    }

    /**
     * An open directory: its entries, read once at the first readdir (offset 0) and served from here by
     * offset. The offsets make libfuse pass every reply page straight to the kernel with the entries'
     * attributes (readdirplus); with offset 0 for every entry, libfuse 3.14 buffers the listing and
     * the kernel still looks up each name (one LOOKUP per file in {@code ls -l}).
     */
    private static final class DirHandle {
        List<DirEntry> entries;
    }

    /** One listed name; {@code attributes} is null for a file still being written (shown as such). */
    private record DirEntry(String name, BasicFileAttributes attributes, StagedFile writing) {}

    @Override
    public int opendir(String path, FileInfo fi) {
        served(Operation.OPEN_DIR);
        return guard("opendir", path, () -> {
            if (!Files.isDirectory(resolve(path))) {
                return -errno.enotdir();
            }
            fi.setFh(register(new DirHandle()));
            return 0;
        });
    }

    @Override
    public int releasedir(String path, FileInfo fi) {
        served(Operation.RELEASE_DIR);
        handles.remove(fi.getFh());
        return 0;
    }

    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
        served(Operation.READ_DIR);
        return guard("readdir", path, () -> {
            boolean plus = (flags & FUSE_READDIR_PLUS) != 0;
            DirHandle dh = handles.get(fi.getFh()) instanceof DirHandle h ? h : new DirHandle();
            List<DirEntry> entries = dh.entries;
            if (entries == null || offset == 0) {
                try {
                    entries = list(path);
                } catch (java.nio.file.NotDirectoryException becameAFile) {
                    // a directory that is a file after all (a tree's file named like a container that no format
                    // claims): the kernel would keep it as a directory for the entry timeout, so it forgets it
                    forget(path);
                    throw becameAFile;
                }
                dh.entries = entries;
            }
            // offsets: "." is 1, ".." is 2, the i-th entry i + 3: the offset to continue after it
            for (long i = offset; i < entries.size() + 2L; i++) {
                int full;
                if (i < 2) {
                    full = filler.fill(i == 0 ? "." : "..", st -> st.setMode(Stat.S_IFDIR), i + 1, 0);
                } else {
                    DirEntry e = entries.get((int) (i - 2));
                    if (!plus) {
                        // the type, for d_type: find and ls -R then need no stat per file
                        int type = e.attributes() != null && e.attributes().isDirectory() ? Stat.S_IFDIR : Stat.S_IFREG;
                        full = filler.fill(e.name(), st -> st.setMode(type), i + 1, 0);
                    } else if (e.writing() != null) {
                        full = filler.fill(e.name(), st -> fillWriting(st, e.writing()), i + 1, DirFiller.FUSE_FILL_DIR_PLUS);
                    } else {
                        full = filler.fill(e.name(), st -> fill(st, e.attributes()), i + 1, DirFiller.FUSE_FILL_DIR_PLUS);
                    }
                }
                if (full != 0) {
                    break; // the reply page is full: the kernel asks again from this offset
                }
            }
            return 0;
        });
    }

    /** A directory's entries with their attributes, and the files being written into it. */
    private List<DirEntry> list(String path) throws IOException {
        Path dir = resolve(path);
        List<DirEntry> entries = new ArrayList<>();
        Set<String> listed = new HashSet<>();
        // Listing a directory is where a live container notices growth (the provider's size check).
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(child, BasicFileAttributes.class);
                } catch (NoSuchFileException gone) {
                    continue;
                }
                String name = child.getFileName().toString();
                entries.add(new DirEntry(name, a, null));
                listed.add(name);
            }
        }
        staging.stagedIn(path).forEach((name, staged) -> {
            if (!listed.contains(name)) {
                entries.add(new DirEntry(name, null, staged));
            }
        });
        return entries;
    }

    @Override
    public int statfs(String path, Statvfs statvfs) {
        served(Operation.STATFS);
        return guard("statfs", path, () -> {
            FileStore store = Files.getFileStore(root);
            long total = store.getTotalSpace();
            long free = writable ? store.getUsableSpace() : 0;
            statvfs.setBsize(BLOCK);
            statvfs.setFrsize(BLOCK);
            statvfs.setBlocks((total + BLOCK - 1) / BLOCK);
            statvfs.setBfree(free / BLOCK);
            statvfs.setBavail(free / BLOCK);
            statvfs.setNameMax(NAME_MAX);
            return 0;
        });
    }

    // ---- extended attributes ------------------------------------------------------------------

    /** {@code user.<view>.<name>} to value bytes, for every attribute of every non-basic view. */
    private Map<String, byte[]> xattrs(String path) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        StagedFile staged = staging.staged(path);
        if (staged != null) {
            return Staging.xattrs(staged);
        }
        Path p = resolve(path);
        for (String view : xattrViews) {
            Map<String, Object> values;
            try {
                values = Files.readAttributes(p, view + ":*");
            } catch (UnsupportedOperationException | IllegalArgumentException notHere) {
                continue;
            }
            for (Map.Entry<String, Object> e : values.entrySet()) {
                out.put("user." + view + "." + e.getKey(), valueBytes(e.getValue()));
            }
        }
        return out;
    }

    static byte[] valueBytes(Object value) {
        if (value instanceof byte[] raw) {
            return raw;
        }
        if (value instanceof ByteBuffer b) {
            ByteBuffer d = b.duplicate();
            byte[] raw = new byte[d.remaining()];
            d.get(raw);
            return raw;
        }
        return text(value).getBytes(StandardCharsets.UTF_8);
    }

    /** An attribute value as text; arrays by their elements (an array's own toString is "[J@1b6d3586"). */
    private static String text(Object value) {
        if (value == null || !value.getClass().isArray()) {
            return String.valueOf(value);
        }
        return switch (value) {
            case long[] a -> java.util.Arrays.toString(a);
            case int[] a -> java.util.Arrays.toString(a);
            case short[] a -> java.util.Arrays.toString(a);
            case char[] a -> java.util.Arrays.toString(a);
            case double[] a -> java.util.Arrays.toString(a);
            case float[] a -> java.util.Arrays.toString(a);
            case boolean[] a -> java.util.Arrays.toString(a);
            case Object[] a -> java.util.Arrays.deepToString(a);
            default -> String.valueOf(value);
        };
    }

    @Override
    public int getxattr(String path, String name, ByteBuffer value) {
        served(Operation.GET_XATTR);
        if (neverPresent(name)) {
            // ENOTSUP, not ENODATA: GNU ls remembers a device that does not support security.* /
            // system.posix_acl_* and stops asking for every file (two round trips per file in ls -l)
            return -errno.enotsup();
        }
        if (!name.startsWith("user.")) {
            return -errno.enodata();
        }
        return guard("getxattr", path, () -> {
            byte[] v = xattrs(path).get(name);
            if (v == null) {
                return -errno.enodata();
            }
            return copyOut(v, value);
        });
    }

    /** Namespaces a container can never have: SELinux labels, capabilities, ACLs, trusted.* (answered without I/O). */
    static boolean neverPresent(String xattrName) {
        return xattrName.startsWith("security.") || xattrName.startsWith("system.") || xattrName.startsWith("trusted.");
    }

    @Override
    public int listxattr(String path, ByteBuffer list) {
        served(Operation.LIST_XATTR);
        return guard("listxattr", path, () -> {
            ByteBuffer names = ByteBuffer.allocate(4096);
            for (String name : xattrs(path).keySet()) {
                byte[] b = name.getBytes(StandardCharsets.UTF_8);
                if (names.remaining() < b.length + 1) {
                    ByteBuffer bigger = ByteBuffer.allocate(names.capacity() * 2 + b.length + 1);
                    names.flip();
                    bigger.put(names);
                    names = bigger;
                }
                names.put(b).put((byte) 0);
            }
            byte[] all = new byte[names.position()];
            names.flip().get(all);
            return copyOut(all, list);
        });
    }

    /** The getxattr/listxattr convention: size query with an empty buffer, ERANGE if too small. */
    private int copyOut(byte[] v, ByteBuffer out) {
        if (out.capacity() == 0) {
            return v.length;
        }
        if (out.remaining() < v.length) {
            return -errno.erange();
        }
        out.put(v);
        return v.length;
    }

    // ---- reading ------------------------------------------------------------------------------

    @Override
    public int open(String path, FileInfo fi) {
        served(Operation.OPEN);
        return guard("open", path, () -> {
            Set<StandardOpenOption> flags = fi.getOpenFlags();
            Path p = resolve(path);
            boolean forWriting = flags.contains(StandardOpenOption.WRITE) || flags.contains(StandardOpenOption.APPEND);
            if (forWriting) {
                if (!writable) {
                    return -errno.erofs();
                }
                fi.setFh(register(staging.openForWriting(path, flags.contains(StandardOpenOption.TRUNCATE_EXISTING))));
                return 0;
            }
            staging.beforeRead(path);
            if (Files.isDirectory(p)) {
                return -errno.eisdir();
            }
            fi.setFh(register(new ReadHandle(Files.newByteChannel(p, StandardOpenOption.READ))));
            return 0;
        });
    }

    @Override
    public int read(String path, ByteBuffer buf, long count, long offset, FileInfo fi) {
        served(Operation.READ);
        Object h = handles.get(fi.getFh());
        if (!(h instanceof ReadHandle r)) {
            return -errno.ebadf();
        }
        return guard("read", path, () -> {
            int total = 0;
            while (buf.hasRemaining()) {
                int n = readAt(r.channel, buf, offset + total);
                if (n <= 0) {
                    break;
                }
                total += n;
            }
            return total;
        });
    }

    private static int readAt(SeekableByteChannel ch, ByteBuffer dst, long position) throws IOException {
        if (ch instanceof FileChannel fc) {
            return fc.read(dst, position); // positional: concurrent reads of one handle need no lock
        }
        synchronized (ch) {
            ch.position(position);
            return ch.read(dst);
        }
    }

    /** close(): a new file that was written is committed here ({@link Staging#flush}). */
    @Override
    public int flush(String path, FileInfo fi) {
        served(Operation.FLUSH);
        Object h = handles.get(fi.getFh());
        if (!(h instanceof StagedFile)) {
            return 0;
        }
        return guard("flush", path, () -> {
            staging.flush(h);
            return 0;
        });
    }

    @Override
    public int fsync(String path, int datasync, FileInfo fi) {
        served(Operation.FSYNC);
        Object h = handles.get(fi.getFh());
        return guard("fsync", path, () -> {
            Staging.fsync(h, datasync != 0);
            return 0;
        });
    }

    @Override
    public int release(String path, FileInfo fi) {
        served(Operation.RELEASE);
        Object h = handles.remove(fi.getFh());
        if (h instanceof ReadHandle r) {
            return guard("release", path, () -> {
                r.channel.close();
                return 0;
            });
        }
        if (h instanceof Staging.DirectWrite || h instanceof StagedFile) {
            return guard("release", path, () -> {
                staging.release(h);
                return 0;
            });
        }
        return -errno.ebadf();
    }

    /**
     * At the end of the session (unmount, SIGTERM): staged files are committed or dropped
     * ({@link Staging#finish}).
     */
    public void finish() {
        staging.finish();
    }

    @Override
    public void destroy() {
        finish();
        KernelCache k = kernelCache;
        if (k != null) {
            k.close();
        }
    }

    // ---- writing (Staging decides) ---------------------------------------------------------------

    @Override
    public int create(String path, int mode, FileInfo fi) {
        served(Operation.CREATE);
        return guard("create", path, () -> {
            fi.setFh(register(staging.create(path)));
            return 0;
        });
    }

    @Override
    public int write(String path, ByteBuffer buf, long count, long offset, FileInfo fi) {
        served(Operation.WRITE);
        Object h = handles.get(fi.getFh());
        return guard("write", path, () -> staging.write(h, path, buf, count, offset));
    }

    @Override
    public int mkdir(String path, int mode) {
        served(Operation.MKDIR);
        return guard("mkdir", path, () -> {
            staging.mkdir(path);
            return 0;
        });
    }

    @Override
    public int unlink(String path) {
        served(Operation.UNLINK);
        return guard("unlink", path, () -> {
            staging.unlink(path);
            return 0;
        });
    }

    @Override
    public int rmdir(String path) {
        served(Operation.RMDIR);
        return guard("rmdir", path, () -> {
            staging.rmdir(path);
            return 0;
        });
    }

    @Override
    public int rename(String oldpath, String newpath, int flags) {
        served(Operation.RENAME);
        return guard("rename", oldpath, () -> {
            staging.rename(oldpath, newpath, flags);
            return 0;
        });
    }

    @Override
    public int truncate(String path, long size, FileInfo fi) {
        served(Operation.TRUNCATE);
        return guard("truncate", path, () -> {
            staging.truncate(path, size);
            return 0;
        });
    }

    @Override
    public int chmod(String path, int mode, FileInfo fi) {
        served(Operation.CHMOD);
        return guard("chmod", path, () -> {
            staging.chmod(path, mode);
            return 0;
        });
    }

    @Override
    public int chown(String path, int newUid, int newGid, FileInfo fi) {
        served(Operation.CHOWN);
        return guard("chown", path, () -> {
            staging.chown(path, newUid, newGid);
            return 0;
        });
    }

    @Override
    public int utimens(String path, TimeSpec atime, TimeSpec mtime, FileInfo fi) {
        served(Operation.UTIMENS);
        return guard("utimens", path, () -> {
            staging.utimens(path, atime.getOptional().map(FileTime::from).orElse(null),
                    mtime.getOptional().map(FileTime::from).orElse(null));
            return 0;
        });
    }

    @Override
    public int setxattr(String path, String name, ByteBuffer value, int flags) {
        served(Operation.SET_XATTR);
        return guard("setxattr", path, () -> {
            staging.setxattr(path, name, value);
            return 0;
        });
    }
}
