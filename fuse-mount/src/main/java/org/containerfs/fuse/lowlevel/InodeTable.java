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
 * its name UTF-8 bytes in one arena (a length byte or two, then the bytes), and (parent, name) leads to
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

    // ---- per inode, indexed by number (slot 0 unused) ------------------------------------------------

    /** The directory's number; for a free slot the next free slot (FIFO), {@link #NO_SLOT} at the end. */
    private int[] parent;
    /** Lookups the kernel holds; saturates at Integer.MAX_VALUE (then the inode is never freed). */
    private int[] lookups;
    /** Bumped each time the number serves a new name. */
    private int[] generation;
    /** Where its name starts in {@link #names}, {@link #FREE} for a free slot. */
    private int[] nameAt;

    // ---- names -------------------------------------------------------------------------------------

    /** Names: each a length (1 byte below 128, else 2 or 3: 7 bits a byte, high bit "more") and UTF-8. */
    private byte[] names;
    private int namesEnd;
    /** Bytes of {@link #names} no inode uses any more (freed, renamed): compacted away when they dominate. */
    private int namesGarbage;

    // ---- (parent, name) -> number -------------------------------------------------------------------

    /** Open addressing, linear probing; 0 is an empty cell. Length a power of two. */
    private int[] index;
    private int indexed;
    /** Tests only: every name hashes alike, so every cell collides. */
    private final boolean oneHash;

    private int nextIno = (int) ROOT + 1;
    private int freeHead = NO_SLOT;
    private int freeTail = NO_SLOT;
    private int size;

    public InodeTable() {
        this(1024, 2048, false);
    }

    /** {@code slots} and {@code cells} are the initial capacities (they grow); {@code oneHash} for tests. */
    InodeTable(int slots, int cells, boolean oneHash) {
        if (slots < 2 || Integer.bitCount(cells) != 1) {
            throw new IllegalArgumentException("slots " + slots + " (at least 2), cells " + cells + " (a power of two)");
        }
        this.oneHash = oneHash;
        parent = new int[slots];
        lookups = new int[slots];
        generation = new int[slots];
        nameAt = new int[slots];
        Arrays.fill(nameAt, FREE);
        names = new byte[Math.max(64, slots * 8)];
        index = new int[cells];
        int r = (int) ROOT;
        nameAt[r] = append(new byte[0]);
        size = 1;
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
            ino = newSlot();
            this.parent[ino] = dir;
            nameAt[ino] = append(key);
            lookups[ino] = 0;
            size++;
            insert(ino, -cell - 1);
        }
        if (lookups[ino] != Integer.MAX_VALUE) {
            lookups[ino]++;
        }
        return handle(ino);
    }

    /** The kernel forgets {@code count} lookups; returns whether the inode was freed. */
    public synchronized boolean forget(long ino, long count) {
        if (ino == ROOT || !known(ino)) {
            return false;
        }
        int i = (int) ino;
        if (lookups[i] == Integer.MAX_VALUE) {
            return false; // saturated: how many the kernel holds is not known any more
        }
        long left = lookups[i] - count;
        if (left > 0) {
            lookups[i] = (int) left;
            return false;
        }
        int cell = cellOf(parent[i], nameAt[i]);
        if (cell >= 0 && index[cell] == i) {
            remove(cell);
        } // else unlinked or renamed over: its name leads to another inode or none
        dropName(i);
        nameAt[i] = FREE;
        lookups[i] = 0;
        parent[i] = NO_SLOT;
        if (freeTail == NO_SLOT) {
            freeHead = i;
        } else {
            parent[freeTail] = i;
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
        this.parent[moved] = (int) newParent;
        nameAt[moved] = append(to);
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
        return 4 * (16 + 4L * parent.length) + 16 + names.length + 16 + 4L * index.length;
    }

    // ---- the handles' questions ----------------------------------------------------------------------

    private synchronized String nameOf(int ino, int gen) {
        check(ino, gen);
        return decode(nameAt[ino]);
    }

    private synchronized Node parentOf(int ino, int gen) {
        check(ino, gen);
        return ino == ROOT ? null : handle(parent[ino]);
    }

    private synchronized String pathOf(int ino, int gen) {
        check(ino, gen);
        if (ino == ROOT) {
            return "/";
        }
        int bytes = 0;
        int depth = 0;
        for (int n = ino; n != ROOT; n = parent[n]) {
            bytes += 1 + nameLength(nameAt[n]);
            if (++depth > size) {
                throw new IllegalStateException("inode " + ino + ": its parents make a cycle");
            }
        }
        byte[] path = new byte[bytes];
        int end = bytes;
        for (int n = ino; n != ROOT; n = parent[n]) {
            int at = nameAt[n];
            int len = nameLength(at);
            end -= len;
            System.arraycopy(names, nameStart(at), path, end, len);
            path[--end] = '/';
        }
        return new String(path, StandardCharsets.UTF_8);
    }

    private void check(int ino, int gen) {
        if (!known(ino) || generation[ino] != gen) {
            throw new IllegalStateException("inode " + ino + " generation " + gen + " was forgotten by the kernel");
        }
    }

    // ---- slots ---------------------------------------------------------------------------------------

    private boolean known(long ino) {
        return ino > 0 && ino < nextIno && nameAt[(int) ino] != FREE;
    }

    private Node handle(int ino) {
        return new Node(this, ino, generation[ino]);
    }

    /** A free number (the longest freed first, with the next generation), else a new one. */
    private int newSlot() {
        if (freeHead != NO_SLOT) {
            int i = freeHead;
            freeHead = parent[i];
            if (freeHead == NO_SLOT) {
                freeTail = NO_SLOT;
            }
            generation[i]++;
            return i;
        }
        if (nextIno == parent.length) {
            if (nextIno == Integer.MAX_VALUE) {
                throw new IllegalStateException("the kernel knows " + size + " inodes: no number left");
            }
            int grown = (int) Math.min(Integer.MAX_VALUE, parent.length + (parent.length >> 1) + 1L);
            parent = Arrays.copyOf(parent, grown);
            lookups = Arrays.copyOf(lookups, grown);
            generation = Arrays.copyOf(generation, grown);
            int old = nameAt.length;
            nameAt = Arrays.copyOf(nameAt, grown);
            Arrays.fill(nameAt, old, grown, FREE);
        }
        return nextIno++;
    }

    // ---- names ---------------------------------------------------------------------------------------

    private static byte[] utf8(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }

    /** Where {@code name} now is in the arena (grown, or compacted when mostly garbage). */
    private int append(byte[] name) {
        int need = 5 + name.length; // the length takes at most 5 bytes
        if (namesEnd + need > names.length) {
            if (namesGarbage > names.length / 2) {
                compact(need);
            }
            if (namesEnd + need > names.length) {
                long grown = Math.max((long) namesEnd + need, names.length + (names.length >> 1));
                if (grown > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("names of " + size + " inodes exceed 2 GiB");
                }
                names = Arrays.copyOf(names, (int) grown);
            }
        }
        int at = namesEnd;
        int len = name.length;
        while (len >= 0x80) {
            names[namesEnd++] = (byte) (0x80 | (len & 0x7f));
            len >>>= 7;
        }
        names[namesEnd++] = (byte) len;
        System.arraycopy(name, 0, names, namesEnd, name.length);
        namesEnd += name.length;
        return at;
    }

    private void dropName(int ino) {
        int at = nameAt[ino];
        namesGarbage += nameStart(at) - at + nameLength(at);
    }

    /** The arena again with the live names only, in inode order; room for {@code need} more bytes. */
    private void compact(int need) {
        int live = namesEnd - namesGarbage;
        byte[] to = new byte[Math.max(64, live + need + (live >> 1))];
        int end = 0;
        for (int i = (int) ROOT; i < nextIno; i++) {
            int at = nameAt[i];
            if (at != FREE) {
                int len = nameStart(at) - at + nameLength(at);
                System.arraycopy(names, at, to, end, len);
                nameAt[i] = end;
                end += len;
            }
        }
        names = to;
        namesEnd = end;
        namesGarbage = 0;
    }

    private int nameLength(int at) {
        int len = 0;
        int shift = 0;
        byte b;
        do {
            b = names[at++];
            len |= (b & 0x7f) << shift;
            shift += 7;
        } while (b < 0);
        return len;
    }

    private int nameStart(int at) {
        while (names[at] < 0) {
            at++;
        }
        return at + 1;
    }

    private String decode(int at) {
        return new String(names, nameStart(at), nameLength(at), StandardCharsets.UTF_8);
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
        int at = nameAt[ino];
        int start = nameStart(at);
        return hash(parent[ino], names, start, start + nameLength(at)) & (index.length - 1);
    }

    /** The cell of (dir, key) if indexed, else -(the empty cell where it would go) - 1. */
    private int cellOf(int dir, byte[] key) {
        int mask = index.length - 1;
        for (int c = hash(dir, key, 0, key.length) & mask; ; c = (c + 1) & mask) {
            int ino = index[c];
            if (ino == 0) {
                return -c - 1;
            }
            if (parent[ino] == dir) {
                int at = nameAt[ino];
                int start = nameStart(at);
                if (Arrays.equals(names, start, start + nameLength(at), key, 0, key.length)) {
                    return c;
                }
            }
        }
    }

    /** {@link #cellOf(int, byte[])} of a name already in the arena. */
    private int cellOf(int dir, int nameAt) {
        int start = nameStart(nameAt);
        return cellOf(dir, Arrays.copyOfRange(names, start, start + nameLength(nameAt)));
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
