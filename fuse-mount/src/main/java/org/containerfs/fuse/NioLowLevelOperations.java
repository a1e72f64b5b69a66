package org.containerfs.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.containerfs.fuse.lowlevel.Connection;
import org.containerfs.fuse.lowlevel.Errno;
import org.containerfs.fuse.lowlevel.FileAttributes;
import org.containerfs.fuse.lowlevel.InodeTable;
import org.containerfs.fuse.lowlevel.Invalidation;
import org.containerfs.fuse.lowlevel.LowLevelOperations;
import org.containerfs.fuse.lowlevel.Request;
import org.containerfs.fuse.lowlevel.StorageFiles;

/**
 * A {@link java.nio.file.FileSystem} served through the low-level API: requests name inodes, which
 * {@link InodeTable} maps to paths for as long as the kernel knows them. Like {@link NioFuseOperations}
 * it knows nothing of container formats; errno values come from {@link ErrnoTable}, attributes as there
 * (0444 files, 0555 directories or 0755 when writable, a staged file 0644, st_blocks, one link). Writable
 * ({@code --rw}), new files and every change go through {@link Staging}, the same code as the high-level
 * engine's, so both answer alike.
 *
 * <p>Caching, per reply: entries and attributes live {@code entryTimeout}/{@code attrTimeout}; with
 * {@code cacheContents} a file's pages are kept across opens ({@code keep_cache}) and directory
 * listings are cached by the kernel ({@code cache_readdir}). With a {@link TreeChanges} ({@link #watchGrowth})
 * the kernel runs with no opendir at all and a watcher thread drops the cached listings that growth
 * changed. Without one, every {@code opendir} lists the directory through NIO (which is where a live
 * container notices growth) and compares a fingerprint of the listing (names, types, sizes) with the one
 * the kernel's cached listing was made from: the same, the kernel keeps its listing ({@code keep_cache});
 * changed, the kernel lists afresh and is told to drop the directory's cached attributes
 * ({@code fuse_lowlevel_notify_inval_inode}). A directory that is a file after all has its entry dropped
 * ({@code notify_inval_entry}).
 */
public final class NioLowLevelOperations implements LowLevelOperations {
    /** The d_ino of a plain directory entry whose inode the kernel has not looked up (as libfuse's high-level API). */
    private static final long UNKNOWN_INO = 0xffffffffL;
    private static final int O_ACCMODE = 3;
    private static final int O_TRUNC = 01000;
    private static final int S_IFMT = 0170000;
    private static final long BLOCK = 4096;

    private final Path root;
    /** Whether create, write, mkdir, ... are served; the file system still decides what it allows. */
    private final boolean writable;
    /** New files and every change of a writable mount: the same logic as the high-level engine's. */
    private final Staging staging;
    private final ErrnoTable errors;
    private final MountLog log;
    private final int uid;
    private final int gid;
    private final double entryTimeout;
    private final double attrTimeout;
    private final boolean cacheContents;
    private final int maxRead;
    private final List<String> xattrViews;
    private final InodeTable inodes = new InodeTable();
    private final Map<Long, Object> handles = new ConcurrentHashMap<>();
    private final AtomicLong nextHandle = new AtomicLong(1);
    /** Per directory inode: the fingerprint of the listing the kernel was last given. */
    private final Map<Long, Listed> listed = new ConcurrentHashMap<>();
    /** How a directory's listing is known unchanged without listing it; null: none (see {@link #stampListings}). */
    private volatile ListingStamps listingStamps;
    /** How to tell the kernel to drop what it caches; none until the session attaches it. */
    private volatile Invalidation invalidation;
    /** How the tree's growth is learnt without listing; null: every opendir lists (see {@link #watchGrowth}). */
    private volatile TreeChanges treeChanges;
    /** Whether the kernel runs without opendir/releasedir (decided at init). */
    private volatile boolean noOpendir;
    /** No-opendir mode: per directory inode, the listing served by offset, from offset 0 until the reply past its end. */
    private final Map<Long, List<Map.Entry<String, BasicFileAttributes>>> serving = new ConcurrentHashMap<>();
    /** No-opendir mode: per directory inode, what the listing the kernel caches was made from. */
    private final Map<Long, Cached> cachedListings = new ConcurrentHashMap<>();
    /**
     * The lowest change count of a listing noted in {@link #cachedListings} since the growth watcher's pass
     * began (Long.MAX_VALUE: none), so that a pass that would find nothing to list again skips the walk over
     * every cached listing (10,001 after an {@code ls -lR} of 100,000 records, ten times a second).
     */
    private final AtomicLong notedSincePass = new AtomicLong(Long.MAX_VALUE);
    private volatile Thread watcher;

    /**
     * Opendir mode: the fingerprint of the listing the kernel was last given, and the {@link ListingStamps} value
     * read before it was listed ({@code stamped} false: none).
     */
    private record Listed(long fingerprint, boolean stamped, long stamp) {}

    /** A listing given to the kernel: its fingerprint and the tree's change count read before it was listed. */
    private record Cached(long fingerprint, long changes) {}

    /** How often the growth watcher looks at the tree (at most; see {@link #watch()}). */
    static final long WATCH_INTERVAL_MS = 100;

    private record ReadHandle(SeekableByteChannel channel) {}

    /**
     * An open file whose bytes are {@code [offset, offset + length)} of a storage file
     * ({@link org.containerfs.core.ContainerFileSystems#storedRange}): reads are answered from its descriptor.
     */
    private record SplicedHandle(StorageFiles.Descriptor storage, long offset, long length) {}

    /**
     * Whether reads of a file stored as one range of a local file are answered from that file's descriptor
     * (default); {@code -Dcontainerfs.fuse.splice=false} sends every read through a buffer, for comparison.
     */
    private static final boolean SPLICE = !"false".equals(System.getProperty("containerfs.fuse.splice"));

    /** Descriptors of the storage files of open {@link SplicedHandle}s, one per file. */
    private final StorageFiles storageFiles = new StorageFiles();
    private final java.util.concurrent.atomic.LongAdder splicedReads = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder splicedOpens = new java.util.concurrent.atomic.LongAdder();

    /** An open directory: its entries, listed at opendir and served by offset; listed again at a rewind. */
    private static final class DirHandle {
        volatile List<Map.Entry<String, BasicFileAttributes>> entries;
        volatile boolean served;

        DirHandle(List<Map.Entry<String, BasicFileAttributes>> entries) {
            this.entries = entries;
        }
    }

    /**
     * @param root          the directory shown as the mount's root
     * @param cacheContents let the kernel keep file pages and directory listings across opens
     * @param maxRead       the {@code -o max_read} of the mount (0: none), repeated at init as libfuse 3.14 requires
     */
    public NioLowLevelOperations(Path root, ErrnoTable errors, int uid, int gid, double entryTimeout,
            double attrTimeout, boolean cacheContents, int maxRead, MountLog log) {
        this(root, errors, false, uid, gid, entryTimeout, attrTimeout, cacheContents, maxRead, log);
    }

    /**
     * @param writable serve create, write, mkdir, unlink, rmdir, rename, setattr, flush, fsync and setxattr
     *                 through {@link Staging}, as the high-level engine does
     */
    public NioLowLevelOperations(Path root, ErrnoTable errors, boolean writable, int uid, int gid,
            double entryTimeout, double attrTimeout, boolean cacheContents, int maxRead, MountLog log) {
        this.root = root;
        this.writable = writable;
        this.staging = new Staging(root, errors, log);
        this.errors = errors;
        this.uid = uid;
        this.gid = gid;
        this.entryTimeout = entryTimeout;
        this.attrTimeout = attrTimeout;
        this.cacheContents = cacheContents;
        this.maxRead = maxRead;
        this.log = log;
        List<String> views = new ArrayList<>(new TreeSet<>(root.getFileSystem().supportedFileAttributeViews()));
        views.remove("basic");
        this.xattrViews = List.copyOf(views);
    }

    /**
     * Before mounting: the tree's growth is learnt from {@code changes}, so the kernel may keep directory
     * listings with no OPENDIR or RELEASEDIR at all (its no-opendir mode: opendir answers ENOSYS once, the
     * kernel then opens directories itself with {@code keep_cache} and {@code cache_readdir}). A thread
     * checks {@code changes} every {@value #WATCH_INTERVAL_MS} ms; when it moved, the directories whose
     * listing the kernel caches and that were listed before the change are listed again, and those whose
     * listing differs are dropped from the kernel's cache ({@code notify_inval_inode}). Without this call
     * (a tree with no cheap change check, e.g. a directory of containers) every opendir lists.
     */
    public void watchGrowth(TreeChanges changes) {
        this.treeChanges = changes;
    }

    /**
     * Before mounting, for a tree with no cheap change count ({@link #watchGrowth}) but a cheap per-directory one
     * (a directory of containers: one {@code stat} of the container's file): an {@code opendir} whose stamp is the
     * one the kernel's cached listing was made at keeps that listing ({@code keep_cache}) without listing the
     * directory (so without reopening its container); any other stamp, or none, lists as before.
     */
    public void stampListings(ListingStamps stamps) {
        this.listingStamps = stamps;
    }

    /** Whether the kernel runs without opendir (the tree's growth watched, the kernel able to). */
    public boolean noOpendir() {
        return noOpendir;
    }

    @Override
    public void attach(Invalidation invalidation) {
        this.invalidation = invalidation;
        staging.kernel(new Staging.Kernel() {
            @Override
            public java.util.concurrent.Future<?> forget(String path) {
                return forgetName(path);
            }

            @Override
            public void committed(String path) {
                attributesChanged(path);
            }
        });
    }

    @Override
    public boolean writable() {
        return writable;
    }

    /**
     * A staged name that vanished without an unlink (its write failed, its commit was refused): the name
     * leads to no inode any more and the kernel drops its entry (else cached for the entry timeout).
     */
    private java.util.concurrent.Future<?> forgetName(String path) {
        int slash = path.lastIndexOf('/');
        InodeTable.Node dir = inodes.find(slash <= 0 ? "/" : path.substring(0, slash));
        Invalidation inv = invalidation;
        if (dir == null || inv == null) {
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }
        String name = path.substring(slash + 1);
        inodes.unlink(dir.ino(), name);
        return inv.invalidateEntry(dir.ino(), name);
    }

    /**
     * A staged file became a unit: the kernel drops what it caches of the file's and its directory's
     * attributes (a staged file's are never cached: they are answered with timeout 0; the directory's
     * time may have moved). Sent from the notification thread, never from inside this request.
     */
    private void attributesChanged(String path) {
        Invalidation inv = invalidation;
        if (inv == null) {
            return;
        }
        int slash = path.lastIndexOf('/');
        for (String p : new String[] {path, slash <= 0 ? "/" : path.substring(0, slash)}) {
            InodeTable.Node n = inodes.find(p);
            if (n != null) {
                inv.invalidateAttributes(n.ino());
            }
        }
    }

    /** Inodes the kernel currently knows (the root included): what {@code forget} frees. */
    public int knownInodes() {
        return inodes.size();
    }

    /**
     * Reads answered with a range of a storage file's descriptor ({@code fuse_reply_data}) rather than
     * through a buffer filled by NIO; a read at or past the end (an empty reply) is not counted.
     */
    public long splicedReads() {
        return splicedReads.sum();
    }

    /** Opens of files whose reads go to a storage file's descriptor. */
    public long splicedOpens() {
        return splicedOpens.sum();
    }

    /** Storage file descriptors open now (one per file, shared by its open files). */
    public int openStorageFiles() {
        return storageFiles.openCount();
    }

    /** Open file and directory handles. */
    public int openHandles() {
        return handles.size();
    }

    /**
     * READDIRPLUS always, not "auto": with auto the kernel asks plain READDIR for every page after the
     * first until a child is looked up, and {@code ls -lR} reads a whole directory before it stats
     * anything, so a root of 10,000 messages cost 11 plain pages and 9,798 LOOKUPs. Writeback caching
     * stays off (appends must reach the file system in order).
     */
    @Override
    public void init(Connection c) {
        int want = c.want() | Connection.CAP_ASYNC_READ | Connection.CAP_READDIRPLUS | Connection.CAP_SPLICE_WRITE
                | Connection.CAP_SPLICE_MOVE;
        c.want(want & ~Connection.CAP_READDIRPLUS_AUTO & ~Connection.CAP_WRITEBACK_CACHE);
        if (maxRead > 0) {
            c.maxRead(maxRead);
        }
        if (SPLICE && (c.want() & Connection.CAP_SPLICE_WRITE) != 0) {
            // requests no bigger than a pipe can carry: libfuse splices a bigger read reply not at all
            int limit = Connection.splicedReplyLimit(pipeMaxSize());
            if (c.maxWrite() > limit) {
                c.maxWrite(limit);
            }
            log.info("reads of files stored as one range of a local file: spliced from its descriptor, requests of at most "
                    + c.maxWrite() / 1024 + " KiB");
        }
        if (treeChanges != null && cacheContents && (c.capable() & Connection.CAP_NO_OPENDIR_SUPPORT) != 0) {
            c.want(c.want() | Connection.CAP_NO_OPENDIR_SUPPORT);
            noOpendir = true;
            Thread t = new Thread(this::watch, "containerfs-growth");
            t.setDaemon(true);
            watcher = t;
            t.start();
            log.info("directory listings kept by the kernel with no opendir; the tree checked for growth every "
                    + WATCH_INTERVAL_MS + " ms");
        }
        log.info("FUSE session started (low-level engine, protocol " + c.protocolMajor() + "." + c.protocolMinor() + ")");
    }

    /** {@code /proc/sys/fs/pipe-max-size}: how big an unprivileged pipe may grow (1 MiB if unreadable). */
    private static long pipeMaxSize() {
        try {
            // not Files.readString: for this file of size 0 it gave "1" (JDK 25)
            return Long.parseLong(Files.readAllLines(Path.of("/proc/sys/fs/pipe-max-size")).get(0).trim());
        } catch (IOException | NumberFormatException | IndexOutOfBoundsException e) {
            return 1 << 20;
        }
    }

    // ---- plumbing ----------------------------------------------------------------------------

    private interface Body {
        void run() throws Exception;
    }

    /** Runs {@code body}; a failure answers the request with the errno of {@link ErrnoTable}. */
    private void guard(Request r, String op, long ino, Body body) {
        try {
            body.run();
        } catch (Exception | OutOfMemoryError e) {
            int errno = errors.errnoOf(e);
            if (!ErrnoTable.routine(e)) {
                log.warn(op + " " + describeInode(ino) + ": " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()) + " -> errno " + errno);
            }
            r.error(errno);
        }
    }

    private String describeInode(long ino) {
        InodeTable.Node n = inodes.get(ino);
        return n == null ? "inode " + ino : n.path();
    }

    /** The path of a known inode; null (and the request answered ESTALE) if the kernel names a forgotten one. */
    private Path pathOf(Request r, long ino) {
        InodeTable.Node n = inodes.get(ino);
        if (n == null) {
            r.error(Errno.ESTALE);
            return null;
        }
        return resolve(n.path());
    }

    private Path resolve(String treePath) {
        return treePath.equals("/") ? root : root.resolve(treePath.substring(1));
    }

    private static String childPath(InodeTable.Node dir, String name) {
        String d = dir.path();
        return d.equals("/") ? "/" + name : d + "/" + name;
    }

    /** A file being written, listed and answered as the high-level engine does (0644, its size so far, now). */
    private record StagedAttributes(StagedFile file, FileTime now) implements BasicFileAttributes {
        StagedAttributes(StagedFile file) {
            this(file, FileTime.from(Instant.now()));
        }

        @Override
        public FileTime lastModifiedTime() {
            return now;
        }

        @Override
        public FileTime lastAccessTime() {
            return now;
        }

        @Override
        public FileTime creationTime() {
            return now;
        }

        @Override
        public boolean isRegularFile() {
            return true;
        }

        @Override
        public boolean isDirectory() {
            return false;
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
            return Staging.size(file);
        }

        @Override
        public Object fileKey() {
            return null;
        }
    }

    /** The attributes of {@code treePath}: a staged file's, else the file system's. */
    private BasicFileAttributes read(String treePath) throws IOException {
        StagedFile s = writable ? staging.staged(treePath) : null;
        return s != null ? new StagedAttributes(s) : Files.readAttributes(resolve(treePath), BasicFileAttributes.class);
    }

    /** How long the kernel keeps attributes: a staged file's change (size, then mode and times at its commit). */
    private double attrTimeout(BasicFileAttributes a) {
        return a instanceof StagedAttributes ? 0 : attrTimeout;
    }

    private FileAttributes attributes(long ino, BasicFileAttributes a) {
        int mode = a.isDirectory() ? FileAttributes.S_IFDIR | (writable ? 0755 : 0555)
                : FileAttributes.S_IFREG | (a instanceof StagedAttributes ? 0644 : 0444);
        Instant m = a.lastModifiedTime() == null ? Instant.EPOCH : a.lastModifiedTime().toInstant();
        Instant at = a.lastAccessTime() == null ? m : a.lastAccessTime().toInstant();
        return new FileAttributes(ino, mode, a.size(), StatBlocks.blocksOf(a.size()), uid, gid, m.getEpochSecond(),
                m.getNano(), at.getEpochSecond(), at.getNano());
    }

    // ---- names and attributes ------------------------------------------------------------------

    @Override
    public void lookup(Request r, long parent, String name) {
        guard(r, "lookup", parent, () -> {
            InodeTable.Node dir = inodes.get(parent);
            if (dir == null) {
                r.error(Errno.ESTALE);
                return;
            }
            if (name.length() > NioFuseOperations.NAME_MAX / 4
                    && name.getBytes(StandardCharsets.UTF_8).length > NioFuseOperations.NAME_MAX) {
                r.error(Errno.ENAMETOOLONG);
                return;
            }
            BasicFileAttributes a = read(childPath(dir, name));
            InodeTable.Node n = inodes.lookup(dir, name);
            r.entry(attributes(n.ino(), a), n.generation(), entryTimeout, attrTimeout(a));
        });
    }

    @Override
    public void forget(long ino, long count) {
        if (inodes.forget(ino, count)) {
            listed.remove(ino);
            cachedListings.remove(ino);
            serving.remove(ino);
        }
    }

    @Override
    public void getattr(Request r, long ino) {
        guard(r, "getattr", ino, () -> {
            InodeTable.Node n = inodes.get(ino);
            if (n == null) {
                r.error(Errno.ESTALE);
                return;
            }
            BasicFileAttributes a = read(n.path());
            r.attributes(attributes(ino, a), attrTimeout(a));
        });
    }

    @Override
    public void statfs(Request r, long ino) {
        guard(r, "statfs", ino, () -> {
            java.nio.file.FileStore store = Files.getFileStore(root);
            long total = store.getTotalSpace();
            long free = writable ? store.getUsableSpace() / BLOCK : 0;
            r.statfs(BLOCK, (total + BLOCK - 1) / BLOCK, free, 0, NioFuseOperations.NAME_MAX);
        });
    }

    // ---- directories ---------------------------------------------------------------------------

    @Override
    public void opendir(Request r, long ino) {
        guard(r, "opendir", ino, () -> {
            if (noOpendir) {
                r.error(Errno.ENOSYS); // once: from now on the kernel opens and releases directories itself
                return;
            }
            Path p = pathOf(r, ino);
            if (p == null) {
                return;
            }
            ListingStamps stamps = cacheContents ? listingStamps : null;
            java.util.OptionalLong stamp = stamps == null ? java.util.OptionalLong.empty() : stamps.stamp(p);
            Listed was = listed.get(ino);
            if (was != null && was.stamped() && stamp.isPresent() && was.stamp() == stamp.getAsLong()) {
                long fh = nextHandle.getAndIncrement();
                handles.put(fh, new DirHandle(null)); // listed only if the kernel's cache lost the pages
                r.opened(fh, true, true);
                return;
            }
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            if (!a.isDirectory()) {
                becameAFile(ino);
                r.error(Errno.ENOTDIR);
                return;
            }
            List<Map.Entry<String, BasicFileAttributes>> entries = listOrForget(ino, inodes.get(ino).path());
            boolean keep = false;
            if (cacheContents) {
                long now = fingerprint(entries);
                Listed before = listed.put(ino, new Listed(now, stamp.isPresent(), stamp.orElse(0)));
                keep = before != null && before.fingerprint() == now;
                if (before != null && !keep) {
                    grown(ino);
                }
            }
            long fh = nextHandle.getAndIncrement();
            handles.put(fh, new DirHandle(entries));
            r.opened(fh, keep, cacheContents);
        });
    }

    /**
     * A directory whose listing the kernel cached has changed (a live container grew): its cached
     * attributes (size, times) go too. The new listing itself reaches the kernel because this open does
     * not keep the cache, and new names are looked up (missing names are never cached). Committed units
     * never change and never go away, so no cached entry of a child needs dropping.
     */
    private void grown(long ino) {
        Invalidation inv = invalidation;
        if (inv != null) {
            inv.invalidateInode(ino);
        }
    }

    /** Names, types and sizes of a listing, hashed: equal listings give equal values. */
    private static long fingerprint(List<Map.Entry<String, BasicFileAttributes>> entries) {
        long h = entries.size();
        for (Map.Entry<String, BasicFileAttributes> e : entries) {
            h = h * 0x9E3779B97F4A7C15L + e.getKey().hashCode();
            h = h * 0x9E3779B97F4A7C15L + (e.getValue().isDirectory() ? -1 : e.getValue().size());
        }
        return h;
    }

    @Override
    public void readdir(Request r, long ino, long offset, Request.Listing out) {
        guard(r, "readdir", ino, () -> {
            InodeTable.Node dir = inodes.get(ino);
            if (dir != null && noOpendir && r.fileHandle() == 0) {
                readdirUnopened(r, dir, offset, out);
                return;
            }
            if (dir == null || !(handles.get(r.fileHandle()) instanceof DirHandle dh)) {
                r.error(dir == null ? Errno.ESTALE : Errno.EBADF);
                return;
            }
            List<Map.Entry<String, BasicFileAttributes>> entries = dh.entries;
            if (entries == null || (offset == 0 && dh.served)) { // null: kept by its stamp, the kernel reads anyway
                entries = listOrForget(ino, dir.path()); // rewinddir: listed afresh
                dh.entries = entries;
            }
            dh.served = true;
            fill(out, dir, offset, entries);
        });
    }

    /**
     * No-opendir mode: a directory read with no handle. Offset 0 lists it (where a live container notices
     * growth) and notes what the kernel will cache; further offsets continue that listing; the reply past
     * its end lets it go.
     */
    private void readdirUnopened(Request r, InodeTable.Node dir, long offset, Request.Listing out) throws IOException {
        long ino = dir.ino();
        List<Map.Entry<String, BasicFileAttributes>> entries = offset == 0 ? null : serving.get(ino);
        if (entries == null) {
            long changes = treeChanges.count(); // before listing: a change during it lists again at the next check
            entries = listOrForget(ino, dir.path());
            serving.put(ino, entries);
            if (offset == 0) {
                cachedListings.put(ino, new Cached(fingerprint(entries), changes));
                notedSincePass.accumulateAndGet(changes, Math::min);
            }
        }
        fill(out, dir, offset, entries);
        if (offset >= entries.size() + 2L) {
            serving.remove(ino, entries);
        }
    }

    /** Entries from {@code offset} into the reply until it is full, and the reply sent. */
    private void fill(Request.Listing out, InodeTable.Node dir, long offset,
            List<Map.Entry<String, BasicFileAttributes>> entries) {
        long ino = dir.ino();
        // offsets: "." is 1, ".." is 2, the i-th entry i + 3: the offset to continue after it
        for (long i = offset; i < entries.size() + 2L; i++) {
            boolean added;
            if (i < 2) {
                long dotIno = i == 0 || dir.parent() == null ? ino : dir.parent().ino();
                FileAttributes dot = new FileAttributes(dotIno, FileAttributes.S_IFDIR, 0, 0, uid, gid, 0, 0, 0, 0);
                added = out.plus() ? out.addPlus(i == 0 ? "." : "..", 0, dot, 0, 0, 0, i + 1)
                        : out.add(i == 0 ? "." : "..", dotIno, FileAttributes.S_IFDIR, i + 1);
            } else {
                Map.Entry<String, BasicFileAttributes> e = entries.get((int) (i - 2));
                added = out.plus() ? addPlus(out, dir, e.getKey(), e.getValue(), i + 1)
                        : addPlain(out, dir, e.getKey(), e.getValue(), i + 1);
            }
            if (!added) {
                break; // the reply is full: the kernel asks again from this offset
            }
        }
        out.send();
    }

    /**
     * A directory's listing; one that is a file after all (a directory of containers showed a file named like a
     * container, and no format claims it) makes the kernel forget the entry it cached as a directory.
     */
    private List<Map.Entry<String, BasicFileAttributes>> listOrForget(long ino, String treePath) throws IOException {
        try {
            return list(treePath);
        } catch (java.nio.file.NotDirectoryException becameAFile) {
            becameAFile(ino);
            throw becameAFile;
        }
    }

    /**
     * The kernel caches {@code ino} as a directory (from its parent's listing or a lookup, for the entry
     * timeout) but it is a file: the kernel is told to drop the entry ({@code notify_inval_entry}, from the
     * notification thread), so the next lookup finds the plain file. The high-level engine does the same
     * with {@code fuse_invalidate_path}.
     */
    private void becameAFile(long ino) {
        InodeTable.Node n = inodes.get(ino);
        Invalidation inv = invalidation;
        if (n != null && n.parent() != null && inv != null) {
            cachedListings.remove(ino);
            serving.remove(ino);
            inv.invalidateEntry(n.parent().ino(), n.name());
        }
    }

    /**
     * The growth watcher (no-opendir mode): every {@value #WATCH_INTERVAL_MS} ms, {@link TreeChanges#check()};
     * when the count moved past what a cached listing was made at, that directory is listed again: the same
     * listing is noted as current, another one is dropped from the kernel's cache (its listing and its
     * attributes, {@code notify_inval_inode}), so the next {@code ls} lists it afresh. Listing again costs in
     * proportion to the listings the kernel caches, so after a pass that took t the watcher waits at least 9 t
     * (at most a tenth of a core). Checks find nothing to do while the tree does not change.
     */
    private void watch() {
        boolean warned = false;
        // the count every cached listing was compared with in the last complete pass (-1: none)
        long settled = -1;
        while (watcher == Thread.currentThread()) {
            long started = System.nanoTime();
            try {
                // taken before the count: a listing noted from here on is seen by this pass or the next
                long noted = notedSincePass.getAndSet(Long.MAX_VALUE);
                long now = treeChanges.check();
                if (now == settled && noted >= now) {
                    // nothing changed, and every listing noted since the last pass was made at this count
                    if (!sleep(started)) {
                        return;
                    }
                    continue;
                }
                settled = -1;
                int listedAgain = 0;
                int dropped = 0;
                for (Map.Entry<Long, Cached> e : cachedListings.entrySet()) {
                    if (e.getValue().changes() < now) {
                        listedAgain++;
                        dropped += relist(e.getKey(), e.getValue(), now) ? 1 : 0;
                    }
                }
                settled = now;
                if (listedAgain > 0) {
                    log.info("the tree changed: " + listedAgain + " cached listing(s) listed again in "
                            + (System.nanoTime() - started) / 1_000_000 + " ms, " + dropped + " dropped from the kernel's cache");
                }
                warned = false;
            } catch (IOException | RuntimeException e) {
                settled = -1; // what was noted before this pass is compared again at the next one
                if (!warned) {
                    log.warn("checking the tree for growth failed (new entries may show late): " + e);
                    warned = true;
                }
            }
            if (!sleep(started)) {
                return;
            }
        }
    }

    /** The watcher's pause after a pass that began at {@code started}; false when interrupted (stop). */
    private static boolean sleep(long started) {
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        try {
            Thread.sleep(Math.max(WATCH_INTERVAL_MS, 9 * tookMs));
            return true;
        } catch (InterruptedException stop) {
            return false;
        }
    }

    /** Lists {@code ino} again; whether its listing changed (and the kernel was told to drop it). */
    private boolean relist(long ino, Cached before, long now) throws IOException {
        InodeTable.Node dir = inodes.get(ino);
        if (dir == null) {
            cachedListings.remove(ino, before);
            return false;
        }
        List<Map.Entry<String, BasicFileAttributes>> entries;
        try {
            entries = list(dir.path());
        } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException gone) {
            entries = List.of();
        }
        if (fingerprint(entries) == before.fingerprint()) {
            cachedListings.replace(ino, before, new Cached(before.fingerprint(), now));
            return false;
        }
        if (cachedListings.remove(ino, before)) {
            grown(ino);
            return true;
        }
        return false;
    }

    /** A plain entry: name, type and the inode number if the kernel knows the inode already. */
    private boolean addPlain(Request.Listing out, InodeTable.Node dir, String name, BasicFileAttributes a, long next) {
        InodeTable.Node known = inodes.peek(dir.ino(), name);
        return out.add(name, known == null ? UNKNOWN_INO : known.ino(),
                a.isDirectory() ? FileAttributes.S_IFDIR : FileAttributes.S_IFREG, next);
    }

    /** An entry with attributes: a lookup for the kernel, taken back if the entry did not fit. */
    private boolean addPlus(Request.Listing out, InodeTable.Node dir, String name, BasicFileAttributes a, long next) {
        InodeTable.Node n = inodes.lookup(dir, name);
        boolean added = out.addPlus(name, n.ino(), attributes(n.ino(), a), n.generation(), entryTimeout, attrTimeout(a),
                next);
        if (!added) {
            forget(n.ino(), 1);
        }
        return added;
    }

    /**
     * A directory's entries with their attributes (listing is where a live container notices growth), and
     * the files being written into it.
     */
    private List<Map.Entry<String, BasicFileAttributes>> list(String treePath) throws IOException {
        List<Map.Entry<String, BasicFileAttributes>> entries = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(resolve(treePath))) {
            for (Path child : children) {
                try {
                    entries.add(Map.entry(child.getFileName().toString(),
                            Files.readAttributes(child, BasicFileAttributes.class)));
                } catch (NoSuchFileException gone) {
                    // removed between listing and reading: not listed
                }
            }
        }
        if (writable) {
            java.util.Set<String> listed = new java.util.HashSet<>();
            entries.forEach(e -> listed.add(e.getKey()));
            staging.stagedIn(treePath).forEach((name, staged) -> {
                if (!listed.contains(name)) {
                    entries.add(Map.entry(name, new StagedAttributes(staged)));
                }
            });
        }
        return entries;
    }

    @Override
    public void releasedir(Request r, long ino) {
        handles.remove(r.fileHandle());
        r.error(0);
    }

    // ---- files ---------------------------------------------------------------------------------

    @Override
    public void open(Request r, long ino) {
        guard(r, "open", ino, () -> {
            Path p = pathOf(r, ino);
            if (p == null) {
                return;
            }
            if ((r.openFlags() & O_ACCMODE) != 0) {
                if (!writable) {
                    r.error(Errno.EROFS);
                    return;
                }
                Object h = staging.openForWriting(inodes.get(ino).path(), (r.openFlags() & O_TRUNC) != 0);
                long fh = nextHandle.getAndIncrement();
                handles.put(fh, h);
                r.opened(fh, false, false);
                return;
            }
            if (writable) {
                staging.beforeRead(inodes.get(ino).path());
            }
            if (Files.isDirectory(p)) {
                r.error(Errno.EISDIR);
                return;
            }
            SplicedHandle spliced = SPLICE ? spliced(p) : null;
            if (spliced != null) {
                long fh = nextHandle.getAndIncrement();
                handles.put(fh, spliced);
                splicedOpens.increment();
                r.opened(fh, cacheContents, false);
                return;
            }
            SeekableByteChannel ch = Files.newByteChannel(p, StandardOpenOption.READ);
            long fh = nextHandle.getAndIncrement();
            handles.put(fh, new ReadHandle(ch));
            r.opened(fh, cacheContents, false);
        });
    }

    /**
     * The handle of a file stored as one range of a local file, with that file's descriptor; null (reads
     * go through NIO) for any other file, or where the descriptor cannot be had (then NIO says why, if
     * it fails too).
     */
    private SplicedHandle spliced(Path p) {
        java.util.Optional<org.containerfs.core.StoredRange> range;
        try {
            range = org.containerfs.core.ContainerFileSystems.storedRange(p);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (range.isEmpty()) {
            return null;
        }
        try {
            StorageFiles.Descriptor d = storageFiles.acquire(range.get().file());
            return new SplicedHandle(d, range.get().offset(), range.get().length());
        } catch (IOException e) {
            log.info("reads of " + p + " go through buffers: " + e.getMessage());
            return null;
        }
    }

    /**
     * A read: positional reads into the reply buffer until {@code size} bytes or the end of the file;
     * a failure midway is an error, never a short read (the kernel would take it for the end).
     */
    @Override
    public void read(Request r, long ino, long size, long offset) {
        guard(r, "read", ino, () -> {
            Object handle = handles.get(r.fileHandle());
            if (handle instanceof SplicedHandle s) {
                long n = splicedBytes(s.length(), offset, size);
                if (n == 0) {
                    r.bytes(new byte[0]); // at or past the end: no bytes
                    return;
                }
                splicedReads.increment();
                r.data(s.storage().fd(), s.offset() + offset, n);
                return;
            }
            if (!(handle instanceof ReadHandle h)) {
                r.error(Errno.EBADF);
                return;
            }
            ByteBuffer buf = r.dataBuffer((int) Math.min(size, Integer.MAX_VALUE));
            while (buf.hasRemaining()) {
                int n = readAt(h.channel(), buf, offset + buf.position());
                if (n <= 0) {
                    break;
                }
            }
            r.data(buf);
        });
    }

    /**
     * How many bytes a read of {@code size} at {@code offset} gets of a file of {@code length} bytes: all of
     * them inside the file, up to its end across it, none at or past the end.
     */
    static long splicedBytes(long length, long offset, long size) {
        return offset < 0 || size <= 0 || offset >= length ? 0 : Math.min(size, length - offset);
    }

    private static int readAt(SeekableByteChannel ch, ByteBuffer dst, long position) throws IOException {
        if (ch instanceof FileChannel fc) {
            return fc.read(dst, position);
        }
        synchronized (ch) {
            ch.position(position);
            return ch.read(dst);
        }
    }

    @Override
    public void release(Request r, long ino) {
        guard(r, "release", ino, () -> {
            Object h = handles.remove(r.fileHandle());
            if (h instanceof ReadHandle rh) {
                rh.channel().close();
            } else if (h instanceof SplicedHandle s) {
                storageFiles.release(s.storage());
            } else if (h != null) {
                staging.release(h); // a new file's commit (or its drop), a directly written file's close
            }
            r.error(0);
        });
    }

    // ---- extended attributes ---------------------------------------------------------------------

    @Override
    public void getxattr(Request r, long ino, String name, long size) {
        if (NioFuseOperations.neverPresent(name)) {
            r.error(Errno.ENOTSUP); // GNU ls then stops asking for SELinux labels and ACLs per file
            return;
        }
        if (!name.startsWith("user.")) {
            r.error(Errno.ENODATA);
            return;
        }
        guard(r, "getxattr", ino, () -> {
            InodeTable.Node n = inodes.get(ino);
            if (n == null) {
                r.error(Errno.ESTALE);
            } else {
                byte[] v = xattrs(n.path()).get(name);
                if (v == null) {
                    r.error(Errno.ENODATA);
                } else {
                    r.xattr(v, size);
                }
            }
        });
    }

    @Override
    public void listxattr(Request r, long ino, long size) {
        guard(r, "listxattr", ino, () -> {
            InodeTable.Node n = inodes.get(ino);
            if (n == null) {
                r.error(Errno.ESTALE);
            } else {
                java.io.ByteArrayOutputStream names = new java.io.ByteArrayOutputStream();
                for (String name : xattrs(n.path()).keySet()) {
                    names.writeBytes(name.getBytes(StandardCharsets.UTF_8));
                    names.write(0);
                }
                r.xattr(names.toByteArray(), size);
            }
        });
    }

    /** {@code user.<view>.<name>} to value bytes, for every attribute of every non-basic view. */
    private Map<String, byte[]> xattrs(String treePath) throws IOException {
        StagedFile staged = writable ? staging.staged(treePath) : null;
        if (staged != null) {
            return Staging.xattrs(staged);
        }
        Path p = resolve(treePath);
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String view : xattrViews) {
            Map<String, Object> values;
            try {
                values = Files.readAttributes(p, view + ":*");
            } catch (UnsupportedOperationException | IllegalArgumentException notHere) {
                continue;
            }
            values.forEach((k, v) -> out.put("user." + view + "." + k, NioFuseOperations.valueBytes(v)));
        }
        return out;
    }

    /**
     * At the end of the session (unmount, SIGTERM): staged files are committed or dropped
     * ({@link Staging#finish}), before the container closes.
     */
    public void finish() {
        if (writable) {
            staging.finish();
        }
    }

    @Override
    public void destroy() {
        Thread w = watcher;
        if (w != null) {
            watcher = null;
            w.interrupt();
        }
        finish();
        for (Object h : handles.values()) {
            if (h instanceof ReadHandle rh) {
                try {
                    rh.channel().close();
                } catch (IOException ignored) {
                    // the file system closes with the mount
                }
            }
        }
        handles.clear();
        storageFiles.closeAll();
    }

    // ---- writes (a writable mount only; Staging decides, as for the high-level engine) -------------

    /** The directory node of a request, or null (answered ESTALE / ENAMETOOLONG). */
    private InodeTable.Node directory(Request r, long parent, String name) {
        InodeTable.Node dir = inodes.get(parent);
        if (dir == null) {
            r.error(Errno.ESTALE);
            return null;
        }
        if (name.length() > NioFuseOperations.NAME_MAX / 4
                && name.getBytes(StandardCharsets.UTF_8).length > NioFuseOperations.NAME_MAX) {
            r.error(Errno.ENAMETOOLONG);
            return null;
        }
        return dir;
    }

    private long register(Object handle) {
        long fh = nextHandle.getAndIncrement();
        handles.put(fh, handle);
        return fh;
    }

    /** A new file: checked, staged and open ({@link Staging#create}); its inode is counted as looked up. */
    @Override
    public void create(Request r, long parent, String name, int mode) {
        guard(r, "create", parent, () -> {
            InodeTable.Node dir = directory(r, parent, name);
            if (dir == null) {
                return;
            }
            StagedFile s = staging.create(childPath(dir, name));
            long fh = register(s);
            InodeTable.Node n = inodes.lookup(dir, name);
            if (r.created(attributes(n.ino(), new StagedAttributes(s)), n.generation(), entryTimeout, 0, fh)
                    == -Errno.ENOENT) {
                // the open was interrupted: the kernel holds neither the handle nor the lookup (as libfuse's
                // high-level API, the file is released: a file closed without a write)
                handles.remove(fh);
                staging.release(s);
                inodes.forget(n.ino(), 1);
            }
        });
    }

    /**
     * {@code mknod(2)} of a regular file: a create and a release, as libfuse's high-level API makes it (an
     * empty staged file, committed as the high-level engine commits one made by {@code touch}); other types ENOSYS.
     */
    @Override
    public void mknod(Request r, long parent, String name, int mode) {
        guard(r, "mknod", parent, () -> {
            if ((mode & S_IFMT) != FileAttributes.S_IFREG) {
                r.error(Errno.ENOSYS);
                return;
            }
            InodeTable.Node dir = directory(r, parent, name);
            if (dir == null) {
                return;
            }
            String path = childPath(dir, name);
            staging.release(staging.create(path));
            BasicFileAttributes a = read(path);
            InodeTable.Node n = inodes.lookup(dir, name);
            r.entry(attributes(n.ino(), a), n.generation(), entryTimeout, attrTimeout(a));
        });
    }

    @Override
    public void mkdir(Request r, long parent, String name, int mode) {
        guard(r, "mkdir", parent, () -> {
            InodeTable.Node dir = directory(r, parent, name);
            if (dir == null) {
                return;
            }
            String path = childPath(dir, name);
            staging.mkdir(path);
            BasicFileAttributes a = read(path);
            InodeTable.Node n = inodes.lookup(dir, name);
            r.entry(attributes(n.ino(), a), n.generation(), entryTimeout, attrTimeout(a));
        });
    }

    @Override
    public void unlink(Request r, long parent, String name) {
        guard(r, "unlink", parent, () -> {
            InodeTable.Node dir = directory(r, parent, name);
            if (dir != null) {
                staging.unlink(childPath(dir, name));
                inodes.unlink(parent, name);
                r.error(0);
            }
        });
    }

    @Override
    public void rmdir(Request r, long parent, String name) {
        guard(r, "rmdir", parent, () -> {
            InodeTable.Node dir = directory(r, parent, name);
            if (dir != null) {
                staging.rmdir(childPath(dir, name));
                inodes.unlink(parent, name);
                r.error(0);
            }
        });
    }

    @Override
    public void rename(Request r, long parent, String name, long newParent, String newName, int flags) {
        guard(r, "rename", parent, () -> {
            InodeTable.Node dir = directory(r, parent, name);
            if (dir == null) {
                return;
            }
            InodeTable.Node to = directory(r, newParent, newName);
            if (to == null) {
                return;
            }
            staging.rename(childPath(dir, name), childPath(to, newName), flags);
            inodes.rename(parent, name, newParent, newName);
            r.error(0);
        });
    }

    /**
     * SETATTR, in the order libfuse's high-level API calls its operations: mode (chmod), owner (chown),
     * size (truncate), times (utimens); answered with the attributes after.
     */
    @Override
    public void setattr(Request r, long ino, NewAttributes a) {
        guard(r, "setattr", ino, () -> {
            InodeTable.Node n = inodes.get(ino);
            if (n == null) {
                r.error(Errno.ESTALE);
                return;
            }
            String path = n.path();
            int set = a.toSet();
            if ((set & SET_MODE) != 0) {
                staging.chmod(path, a.mode());
            }
            if ((set & (SET_UID | SET_GID)) != 0) {
                staging.chown(path, (set & SET_UID) != 0 ? a.uid() : -1, (set & SET_GID) != 0 ? a.gid() : -1);
            }
            if ((set & SET_SIZE) != 0) {
                staging.truncate(path, a.size());
            }
            if ((set & (SET_ATIME | SET_MTIME)) != 0) {
                FileTime now = FileTime.from(Instant.now());
                FileTime at = (set & SET_ATIME_NOW) != 0 ? now : (set & SET_ATIME) != 0
                        ? FileTime.from(Instant.ofEpochSecond(a.accessSeconds(), a.accessNanos())) : null;
                FileTime mt = (set & SET_MTIME_NOW) != 0 ? now : (set & SET_MTIME) != 0
                        ? FileTime.from(Instant.ofEpochSecond(a.modifiedSeconds(), a.modifiedNanos())) : null;
                staging.utimens(path, at, mt);
            }
            BasicFileAttributes after = read(path);
            r.attributes(attributes(ino, after), attrTimeout(after));
        });
    }

    @Override
    public void write(Request r, long ino, ByteBuffer data, long offset) {
        Object h = handles.get(r.fileHandle());
        guard(r, "write", ino, () -> r.written(staging.write(h, describeInode(ino), data, data.remaining(), offset)));
    }

    /** close(): a new file that was written is committed here ({@link Staging#flush}); EIO after a failed commit. */
    @Override
    public void flush(Request r, long ino) {
        Object h = handles.get(r.fileHandle());
        guard(r, "flush", ino, () -> {
            staging.flush(h);
            r.error(0);
        });
    }

    @Override
    public void fsync(Request r, long ino, boolean datasync) {
        Object h = handles.get(r.fileHandle());
        guard(r, "fsync", ino, () -> {
            Staging.fsync(h, datasync);
            r.error(0);
        });
    }

    @Override
    public void setxattr(Request r, long ino, String name, ByteBuffer value, int flags) {
        guard(r, "setxattr", ino, () -> {
            InodeTable.Node n = inodes.get(ino);
            if (n == null) {
                r.error(Errno.ESTALE);
                return;
            }
            staging.setxattr(n.path(), name, value);
            r.error(0);
        });
    }
}
