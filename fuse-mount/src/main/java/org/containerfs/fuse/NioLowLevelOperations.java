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

/**
 * A read-only {@link java.nio.file.FileSystem} served through the low-level API: requests name
 * inodes, which {@link InodeTable} maps to paths for as long as the kernel knows them. Like
 * {@link NioFuseOperations} it knows nothing of container formats; errno values come from
 * {@link ErrnoTable}, attributes as there (0444 files, 0555 directories, st_blocks, one link).
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
    private static final long BLOCK = 4096;

    private final Path root;
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
    private final Map<Long, Long> listed = new ConcurrentHashMap<>();
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
    private volatile Thread watcher;

    /** A listing given to the kernel: its fingerprint and the tree's change count read before it was listed. */
    private record Cached(long fingerprint, long changes) {}

    /** How often the growth watcher looks at the tree (at most; see {@link #watch()}). */
    static final long WATCH_INTERVAL_MS = 100;

    private record ReadHandle(SeekableByteChannel channel) {}

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
        this.root = root;
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

    /** Whether the kernel runs without opendir (the tree's growth watched, the kernel able to). */
    public boolean noOpendir() {
        return noOpendir;
    }

    @Override
    public void attach(Invalidation invalidation) {
        this.invalidation = invalidation;
    }

    /** Inodes the kernel currently knows (the root included): what {@code forget} frees. */
    public int knownInodes() {
        return inodes.size();
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

    private FileAttributes attributes(long ino, BasicFileAttributes a) {
        int mode = a.isDirectory() ? FileAttributes.S_IFDIR | 0555 : FileAttributes.S_IFREG | 0444;
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
            BasicFileAttributes a = Files.readAttributes(resolve(dir.path()).resolve(name), BasicFileAttributes.class);
            InodeTable.Node n = inodes.lookup(dir, name);
            r.entry(attributes(n.ino(), a), n.generation(), entryTimeout, attrTimeout);
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
            Path p = pathOf(r, ino);
            if (p != null) {
                r.attributes(attributes(ino, Files.readAttributes(p, BasicFileAttributes.class)), attrTimeout);
            }
        });
    }

    @Override
    public void statfs(Request r, long ino) {
        guard(r, "statfs", ino, () -> {
            long total = Files.getFileStore(root).getTotalSpace();
            r.statfs(BLOCK, (total + BLOCK - 1) / BLOCK, 0, 0, NioFuseOperations.NAME_MAX);
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
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            if (!a.isDirectory()) {
                becameAFile(ino);
                r.error(Errno.ENOTDIR);
                return;
            }
            List<Map.Entry<String, BasicFileAttributes>> entries = listOrForget(ino, p);
            boolean keep = false;
            if (cacheContents) {
                long now = fingerprint(entries);
                Long before = listed.put(ino, now);
                keep = before != null && before == now;
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
            if (offset == 0 && dh.served) {
                entries = listOrForget(ino, resolve(dir.path())); // rewinddir: listed afresh
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
            entries = listOrForget(ino, resolve(dir.path()));
            serving.put(ino, entries);
            if (offset == 0) {
                cachedListings.put(ino, new Cached(fingerprint(entries), changes));
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
    private List<Map.Entry<String, BasicFileAttributes>> listOrForget(long ino, Path dir) throws IOException {
        try {
            return list(dir);
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
        while (watcher == Thread.currentThread()) {
            long started = System.nanoTime();
            try {
                long now = treeChanges.check();
                int listedAgain = 0;
                int dropped = 0;
                for (Map.Entry<Long, Cached> e : cachedListings.entrySet()) {
                    if (e.getValue().changes() < now) {
                        listedAgain++;
                        dropped += relist(e.getKey(), e.getValue(), now) ? 1 : 0;
                    }
                }
                if (listedAgain > 0) {
                    log.info("the tree changed: " + listedAgain + " cached listing(s) listed again in "
                            + (System.nanoTime() - started) / 1_000_000 + " ms, " + dropped + " dropped from the kernel's cache");
                }
                warned = false;
            } catch (IOException | RuntimeException e) {
                if (!warned) {
                    log.warn("checking the tree for growth failed (new entries may show late): " + e);
                    warned = true;
                }
            }
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            try {
                Thread.sleep(Math.max(WATCH_INTERVAL_MS, 9 * tookMs));
            } catch (InterruptedException stop) {
                return;
            }
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
            entries = list(resolve(dir.path()));
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
        boolean added = out.addPlus(name, n.ino(), attributes(n.ino(), a), n.generation(), entryTimeout, attrTimeout, next);
        if (!added) {
            forget(n.ino(), 1);
        }
        return added;
    }

    /** A directory's entries with their attributes (listing is where a live container notices growth). */
    private static List<Map.Entry<String, BasicFileAttributes>> list(Path dir) throws IOException {
        List<Map.Entry<String, BasicFileAttributes>> entries = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                try {
                    entries.add(Map.entry(child.getFileName().toString(),
                            Files.readAttributes(child, BasicFileAttributes.class)));
                } catch (NoSuchFileException gone) {
                    // removed between listing and reading: not listed
                }
            }
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
                r.error(Errno.EROFS);
                return;
            }
            if (Files.isDirectory(p)) {
                r.error(Errno.EISDIR);
                return;
            }
            SeekableByteChannel ch = Files.newByteChannel(p, StandardOpenOption.READ);
            long fh = nextHandle.getAndIncrement();
            handles.put(fh, new ReadHandle(ch));
            r.opened(fh, cacheContents, false);
        });
    }

    /**
     * A read: positional reads into the reply buffer until {@code size} bytes or the end of the file;
     * a failure midway is an error, never a short read (the kernel would take it for the end).
     */
    @Override
    public void read(Request r, long ino, long size, long offset) {
        guard(r, "read", ino, () -> {
            if (!(handles.get(r.fileHandle()) instanceof ReadHandle h)) {
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
            if (handles.remove(r.fileHandle()) instanceof ReadHandle h) {
                h.channel().close();
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
            Path p = pathOf(r, ino);
            if (p != null) {
                byte[] v = xattrs(p).get(name);
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
            Path p = pathOf(r, ino);
            if (p != null) {
                java.io.ByteArrayOutputStream names = new java.io.ByteArrayOutputStream();
                for (String name : xattrs(p).keySet()) {
                    names.writeBytes(name.getBytes(StandardCharsets.UTF_8));
                    names.write(0);
                }
                r.xattr(names.toByteArray(), size);
            }
        });
    }

    /** {@code user.<view>.<name>} to value bytes, for every attribute of every non-basic view. */
    private Map<String, byte[]> xattrs(Path p) throws IOException {
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

    @Override
    public void destroy() {
        Thread w = watcher;
        if (w != null) {
            watcher = null;
            w.interrupt();
        }
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
    }
}
