package org.containerfs.fuse.lowlevel;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The inodes the kernel knows: a number per (parent, name) from its first lookup until the kernel
 * has forgotten every lookup of it; then the entry is freed and its number may serve another name
 * with a higher generation (so (ino, generation) never names two files). The root is inode 1 and
 * never forgotten. Memory is proportional to what the kernel caches, not to the file system.
 *
 * <p>A mount of many containers makes the kernel hold a million inodes, so an inode is no object here:
 * it is a slot of primitive arrays indexed by its number (parent, lookups, generation, where its name is),
 * its name UTF-8 bytes in pages of names (a length byte or two, then the bytes), and (parent, name) leads to
 * it through an open-addressing table of inode numbers (linear probing, no boxed keys). About 40 bytes an
 * inode in all ({@link #footprintBytes()}), where a node object, its name's string, a key record and a hash
 * map entry took 105-170. A {@link Node} is a handle made per call (number and generation), not stored.
 *
 * <p>Every method is synchronized on the table. The kernel keeps a directory's inode while it knows any
 * inode below it, so a known inode's parent is known too.
 */
public final class InodeTable {
    public static final long ROOT = 1;

    /** Free slots: no name (a known inode always has one, the root the empty name). */
    private static final int FREE = -1;
    private static final int NO_SLOT = 0;

    /**
     * A known inode as of the call that returned it: its number and generation. Its name, parent and path
     * are read from the table when asked, so a rename shows; asking them of an inode the kernel has since
     * forgotten throws {@link IllegalStateException} (the kernel names no forgotten inode in a request).
     */
    public static final class Node {
        private final InodeTable table;
        private final int ino;
        private final int generation;

        private Node(InodeTable table, int ino, int generation) {
            this.table = table;
            this.ino = ino;
            this.generation = generation;
        }

        public long ino() {
            return ino;
        }

        public long generation() {
            return generation;
        }

        /** Its name in {@link #parent()}; empty for the root. */
        public String name() {
            return table.nameOf(ino, generation);
        }

        /** The directory it is in now; null for the root. */
        public Node parent() {
            return table.parentOf(ino, generation);
        }

        /** The path from the root, "/" for the root, "/a/b" below. */
        public String path() {
            return table.pathOf(ino, generation);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Node n && n.table == table && n.ino == ino && n.generation == generation;
        }

        @Override
        public int hashCode() {
            return ino * 31 + generation;
        }

        @Override
        public String toString() {
            return "inode " + ino + " generation " + generation;
        }
    }

    // ---- per inode, indexed by number (slot 0 unused), in pages of 1 << slotShift ---------------------
    // Pages, not one array copied as it grows: the copies would be garbage of megabytes that a small young
    // generation sends to the old one (the daemon's heap grew by 5 MiB with one array per field).

    private final int slotShift;
    /** The directory's number; for a free slot the next free slot (FIFO), {@link #NO_SLOT} at the end. */
    private int[][] parent = new int[0][];
    /** Lookups the kernel holds; saturates at Integer.MAX_VALUE (then the inode is never freed). */
    private int[][] lookups = new int[0][];
    /** Bumped each time the number serves a new name. */
    private int[][] generation = new int[0][];
    /** Where its name starts in {@link #names}, {@link #FREE} for a free slot. */
    private int[][] nameAt = new int[0][];

    // ---- names -------------------------------------------------------------------------------------

    /**
     * Names in pages of 1 << namesShift bytes, a name within one page: each a length (1 byte below 128, else
     * 2 or 3: 7 bits a byte, high bit "more") and its UTF-8; a name's place is page << namesShift | offset.
     */
    private final int namesShift;
    private byte[][] names = new byte[0][];
    private int namesEnd;
    /** Bytes of {@link #names} no inode uses any more (freed, renamed): compacted away when they dominate. */
    private long namesGarbage;

    // ---- (parent, name) -> number -------------------------------------------------------------------

    /** Open addressing, linear probing; 0 is an empty cell. Length a power of two. */
    private int[] index;
    private int indexed;
    /** Tests only: every name hashes alike, so every cell collides. */
    private final boolean oneHash;

    private int nextIno;
    private int freeHead = NO_SLOT;
    private int freeTail = NO_SLOT;
    private int size;

    public InodeTable() {
        this(12, 16, 2048, false);
    }

    /**
     * Pages of {@code 1 << slotShift} inodes and {@code 1 << namesShift} bytes of names (a longer name is
     * refused), {@code cells} in the index at first (a power of two; it grows); {@code oneHash} for tests.
     */
    InodeTable(int slotShift, int namesShift, int cells, boolean oneHash) {
        if (slotShift < 1 || slotShift > 20 || namesShift < 6 || namesShift > 24 || Integer.bitCount(cells) != 1) {
            throw new IllegalArgumentException("slotShift " + slotShift + ", namesShift " + namesShift + ", cells " + cells);
        }
        this.slotShift = slotShift;
        this.namesShift = namesShift;
        this.oneHash = oneHash;
        index = new int[cells];
        newSlot(); // 0: no inode
        set(nameAt, newSlot(), append(new byte[0])); // the root
        size = 1;
    }

    private int get(int[][] a, int i) {
        return a[i >>> slotShift][i & ((1 << slotShift) - 1)];
    }

    private void set(int[][] a, int i, int v) {
        a[i >>> slotShift][i & ((1 << slotShift) - 1)] = v;
    }

    /** The node of {@code ino}, or null if the kernel cannot know it (forgotten). */
    public synchronized Node get(long ino) {
        return known(ino) ? handle((int) ino) : null;
    }

    /** The node of {@code name} in {@code parent} if the kernel knows it, else null (no lookup counted). */
    public synchronized Node peek(long parent, String name) {
        if (!known(parent)) {
            return null;
        }
        int cell = cellOf((int) parent, utf8(name));
        return cell < 0 ? null : handle(index[cell]);
    }

    /** One lookup of {@code name} in {@code parent}: its node, made if new. */
    public synchronized Node lookup(Node parent, String name) {
        int dir = (int) parent.ino();
        if (!known(dir)) {
            throw new IllegalStateException("lookup of " + name + " in " + parent + ": the kernel forgot the directory");
        }
        byte[] key = utf8(name);
        int cell = cellOf(dir, key);
        int ino;
        if (cell >= 0) {
            ino = index[cell];
        } else {
            int at = append(key); // first: a name too long is refused before a number is taken
            ino = newSlot();
            set(this.parent, ino, dir);
            set(nameAt, ino, at);
            set(lookups, ino, 0);
            size++;
            insert(ino, -cell - 1);
        }
        int n = get(lookups, ino);
        if (n != Integer.MAX_VALUE) {
            set(lookups, ino, n + 1);
        }
        return handle(ino);
    }

    /** The kernel forgets {@code count} lookups; returns whether the inode was freed. */
    public synchronized boolean forget(long ino, long count) {
        if (ino == ROOT || !known(ino)) {
            return false;
        }
        int i = (int) ino;
        int n = get(lookups, i);
        if (n == Integer.MAX_VALUE) {
            return false; // saturated: how many the kernel holds is not known any more
        }
        long left = n - count;
        if (left > 0) {
            set(lookups, i, (int) left);
            return false;
        }
        int cell = cellOfNamed(i);
        if (cell >= 0 && index[cell] == i) {
            remove(cell);
        } // else unlinked or renamed over: its name leads to another inode or none
        dropName(i);
        set(nameAt, i, FREE);
        set(lookups, i, 0);
        set(parent, i, NO_SLOT);
        if (freeTail == NO_SLOT) {
            freeHead = i;
        } else {
            set(parent, freeTail, i);
        }
        freeTail = i;
        size--;
        return true;
    }

    /**
     * {@code name} in {@code parent} was removed: the name no longer leads to its inode (a new file of the
     * same name gets a new one); the inode itself lives until the kernel forgets it.
     */
    public synchronized void unlink(long parent, String name) {
        if (known(parent)) {
            int cell = cellOf((int) parent, utf8(name));
            if (cell >= 0) {
                remove(cell);
            }
        }
    }

    /**
     * {@code name} in {@code parent} is now {@code newName} in {@code newParent}: its inode keeps its number
     * (the kernel moves its entry); an inode that had the new name loses it.
     */
    public synchronized void rename(long parent, String name, long newParent, String newName) {
        int moved = 0;
        if (known(parent)) {
            int cell = cellOf((int) parent, utf8(name));
            if (cell >= 0) {
                moved = index[cell];
                remove(cell);
            }
        }
        if (!known(newParent)) {
            return;
        }
        byte[] to = utf8(newName);
        int over = cellOf((int) newParent, to);
        if (over >= 0) {
            remove(over);
        }
        if (moved == 0) {
            return;
        }
        dropName(moved);
        int at = append(to);
        set(this.parent, moved, (int) newParent);
        set(nameAt, moved, at);
        insert(moved, -cellOf((int) newParent, to) - 1);
    }

    /** The node the kernel knows at {@code path} ("/a/b"), or null. */
    public synchronized Node find(String path) {
        int n = (int) ROOT;
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                int cell = cellOf(n, utf8(part));
                if (cell < 0) {
                    return null;
                }
                n = index[cell];
            }
        }
        return handle(n);
    }

    /** Inodes the kernel knows, the root included. */
    public synchronized int size() {
        return size;
    }

    public Node root() {
        return new Node(this, (int) ROOT, 0);
    }

    /**
     * Bytes the table's arrays take (each array's length times its element size, plus a 16-byte header):
     * what it costs, inodes, names and index together.
     */
    public synchronized long footprintBytes() {
        long slots = 4 * (16 + 4L * parent.length + (long) parent.length * (16 + (4L << slotShift)));
        long text = 16 + 4L * names.length;
        for (byte[] page : names) {
            text += page == null ? 0 : 16 + page.length;
        }
        return slots + text + 16 + 4L * index.length;
    }

    // ---- the handles' questions ----------------------------------------------------------------------

    private synchronized String nameOf(int ino, int gen) {
        check(ino, gen);
        int at = get(nameAt, ino);
        return new String(page(at), nameStart(at), nameLength(at), StandardCharsets.UTF_8);
    }

    private synchronized Node parentOf(int ino, int gen) {
        check(ino, gen);
        return ino == ROOT ? null : handle(get(parent, ino));
    }

    private synchronized String pathOf(int ino, int gen) {
        check(ino, gen);
        if (ino == ROOT) {
            return "/";
        }
        int bytes = 0;
        int depth = 0;
        for (int n = ino; n != ROOT; n = get(parent, n)) {
            bytes += 1 + nameLength(get(nameAt, n));
            if (++depth > size) {
                throw new IllegalStateException("inode " + ino + ": its parents make a cycle");
            }
        }
        byte[] path = new byte[bytes];
        int end = bytes;
        for (int n = ino; n != ROOT; n = get(parent, n)) {
            int at = get(nameAt, n);
            int len = nameLength(at);
            end -= len;
            System.arraycopy(page(at), nameStart(at), path, end, len);
            path[--end] = '/';
        }
        return new String(path, StandardCharsets.UTF_8);
    }

    private void check(int ino, int gen) {
        if (!known(ino) || get(generation, ino) != gen) {
            throw new IllegalStateException("inode " + ino + " generation " + gen + " was forgotten by the kernel");
        }
    }

    // ---- slots ---------------------------------------------------------------------------------------

    private boolean known(long ino) {
        return ino > 0 && ino < nextIno && get(nameAt, (int) ino) != FREE;
    }

    private Node handle(int ino) {
        return new Node(this, ino, get(generation, ino));
    }

    /** A free number (the longest freed first, with the next generation), else a new one. */
    private int newSlot() {
        if (freeHead != NO_SLOT) {
            int i = freeHead;
            freeHead = get(parent, i);
            if (freeHead == NO_SLOT) {
                freeTail = NO_SLOT;
            }
            set(generation, i, get(generation, i) + 1);
            return i;
        }
        if (nextIno == Integer.MAX_VALUE) {
            throw new IllegalStateException("the kernel knows " + size + " inodes: no number left");
        }
        int page = nextIno >>> slotShift;
        if (page == parent.length) {
            int pages = page + 1;
            parent = Arrays.copyOf(parent, pages);
            lookups = Arrays.copyOf(lookups, pages);
            generation = Arrays.copyOf(generation, pages);
            nameAt = Arrays.copyOf(nameAt, pages);
            parent[page] = new int[1 << slotShift];
            lookups[page] = new int[1 << slotShift];
            generation[page] = new int[1 << slotShift];
            nameAt[page] = new int[1 << slotShift];
            Arrays.fill(nameAt[page], FREE);
        }
        return nextIno++;
    }

    // ---- names ---------------------------------------------------------------------------------------

    private static byte[] utf8(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] page(int at) {
        return names[at >>> namesShift];
    }

    /** Where {@code name} now is (a new page when this one is full, or all compacted when mostly garbage). */
    private int append(byte[] name) {
        int pageSize = 1 << namesShift;
        int need = 5 + name.length; // the length takes at most 5 bytes
        if (need > pageSize) {
            throw new IllegalArgumentException("a name of " + name.length + " bytes: at most " + (pageSize - 5));
        }
        int page = namesEnd >>> namesShift;
        if (page == names.length || (namesEnd & (pageSize - 1)) + need > pageSize) {
            if (namesGarbage > (long) names.length * pageSize / 2) {
                compact();
                page = namesEnd >>> namesShift;
            }
            if (page < names.length && (namesEnd & (pageSize - 1)) + need > pageSize) {
                page++; // the rest of this page stays unused
            }
            if (page == names.length) {
                if (page == 1 << (31 - namesShift)) {
                    throw new IllegalStateException("names of " + size + " inodes exceed 2 GiB");
                }
                names = Arrays.copyOf(names, page + 1);
                names[page] = new byte[pageSize];
            }
            namesEnd = Math.max(namesEnd, page << namesShift);
        }
        int at = namesEnd;
        byte[] to = names[page];
        int i = at & (pageSize - 1);
        int len = name.length;
        while (len >= 0x80) {
            to[i++] = (byte) (0x80 | (len & 0x7f));
            len >>>= 7;
        }
        to[i++] = (byte) len;
        System.arraycopy(name, 0, to, i, name.length);
        namesEnd = (page << namesShift) + i + name.length;
        return at;
    }

    private void dropName(int ino) {
        int at = get(nameAt, ino);
        namesGarbage += nameStart(at) - (at & ((1 << namesShift) - 1)) + nameLength(at);
    }

    /** The names again, the live ones only, in inode order. */
    private void compact() {
        byte[][] old = names;
        names = new byte[0][];
        namesEnd = 0;
        namesGarbage = 0;
        for (int i = (int) ROOT; i < nextIno; i++) {
            int at = get(nameAt, i);
            if (at != FREE) {
                byte[] from = old[at >>> namesShift];
                int start = nameStart(from, at);
                set(nameAt, i, append(Arrays.copyOfRange(from, start, start + nameLength(from, at))));
            }
        }
    }

    private int nameLength(int at) {
        return nameLength(page(at), at);
    }

    private int nameLength(byte[] page, int at) {
        int i = at & ((1 << namesShift) - 1);
        int len = 0;
        int shift = 0;
        byte b;
        do {
            b = page[i++];
            len |= (b & 0x7f) << shift;
            shift += 7;
        } while (b < 0);
        return len;
    }

    /** Where the bytes of the name at {@code at} start in its page. */
    private int nameStart(int at) {
        return nameStart(page(at), at);
    }

    private int nameStart(byte[] page, int at) {
        int i = at & ((1 << namesShift) - 1);
        while (page[i] < 0) {
            i++;
        }
        return i + 1;
    }

    // ---- the index -----------------------------------------------------------------------------------

    private int hash(int dir, byte[] b, int from, int to) {
        if (oneHash) {
            return 0;
        }
        int h = dir * 0x9E3779B9;
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        return h ^ (h >>> 13);
    }

    private int home(int ino) {
        int at = get(nameAt, ino);
        int start = nameStart(at);
        return hash(get(parent, ino), page(at), start, start + nameLength(at)) & (index.length - 1);
    }

    /** The cell of (dir, key) if indexed, else -(the empty cell where it would go) - 1. */
    private int cellOf(int dir, byte[] key) {
        int mask = index.length - 1;
        for (int c = hash(dir, key, 0, key.length) & mask; ; c = (c + 1) & mask) {
            int ino = index[c];
            if (ino == 0) {
                return -c - 1;
            }
            if (get(parent, ino) == dir) {
                int at = get(nameAt, ino);
                int start = nameStart(at);
                if (Arrays.equals(page(at), start, start + nameLength(at), key, 0, key.length)) {
                    return c;
                }
            }
        }
    }

    /** {@link #cellOf(int, byte[])} of the name {@code ino} has (indexed or not). */
    private int cellOfNamed(int ino) {
        int at = get(nameAt, ino);
        int start = nameStart(at);
        return cellOf(get(parent, ino), Arrays.copyOfRange(page(at), start, start + nameLength(at)));
    }

    private void insert(int ino, int cell) {
        index[cell] = ino;
        indexed++;
        if (4L * indexed > 3L * index.length) { // fuller than 3/4: twice as many cells (an empty cell always)
            int[] old = index;
            index = new int[old.length * 2];
            int mask = index.length - 1;
            for (int n : old) {
                if (n != 0) {
                    int c = home(n);
                    while (index[c] != 0) {
                        c = (c + 1) & mask;
                    }
                    index[c] = n;
                }
            }
        }
    }

    /** Empties {@code cell}, moving back the cells after it that would no longer be found (no tombstones). */
    private void remove(int cell) {
        int mask = index.length - 1;
        int hole = cell;
        index[hole] = 0;
        indexed--;
        for (int c = (hole + 1) & mask; index[c] != 0; c = (c + 1) & mask) {
            int h = home(index[c]);
            // the entry at c may move to the hole if its home is not in (hole, c] (cyclically)
            boolean homeBetween = hole <= c ? hole < h && h <= c : hole < h || h <= c;
            if (!homeBetween) {
                index[hole] = index[c];
                index[c] = 0;
                hole = c;
            }
        }
    }
}
