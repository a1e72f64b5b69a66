package org.containerfs.fuse.lowlevel;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The inodes the kernel knows: a number per (parent, name) from its first lookup until the kernel
 * has forgotten every lookup of it; then the entry is freed and its number may serve another name
 * with a higher generation (so (ino, generation) never names two files). The root is inode 1 and
 * never forgotten. Memory is proportional to what the kernel caches, not to the file system.
 */
public final class InodeTable {
    public static final long ROOT = 1;

    /** A known inode: where it is (parent and name) and how many lookups the kernel holds. */
    public static final class Node {
        /** Guards every node's parent and name against a {@link InodeTable#rename} while a path is read. */
        private static final Object MOVES = new Object();
        final long ino;
        final long generation;
        /** Where it is now: changed by {@link InodeTable#rename} (under the table's lock). */
        Node parent;
        String name;
        long lookups;

        private Node(long ino, long generation, Node parent, String name) {
            this.ino = ino;
            this.generation = generation;
            this.parent = parent;
            this.name = name;
        }

        public long ino() {
            return ino;
        }

        public long generation() {
            return generation;
        }

        /** Its name in {@link #parent()}; empty for the root. */
        public String name() {
            return name;
        }

        /** The directory it was looked up in; null for the root. */
        public Node parent() {
            return parent;
        }

        /** The path from the root, "/" for the root, "/a/b" below. */
        public String path() {
            synchronized (MOVES) {
                return pathNow();
            }
        }

        private String pathNow() {
            if (parent == null) {
                return "/";
            }
            StringBuilder sb = new StringBuilder();
            prepend(sb, this);
            return sb.toString();
        }

        private static void prepend(StringBuilder sb, Node n) {
            if (n.parent != null) {
                prepend(sb, n.parent);
                sb.append('/').append(n.name);
            }
        }
    }

    private record Key(long parent, String name) {}

    private final Node root = new Node(ROOT, 0, null, "");
    /**
     * Nodes by inode number: numbers are dense (freed ones are reused first), so an array indexed by
     * number, as long as the most inodes the kernel knew at once, instead of a map of boxed numbers.
     */
    private Node[] byIno = new Node[1024];
    private final Map<Key, Node> byName = new HashMap<>();
    private final ArrayDeque<Long> freeNumbers = new ArrayDeque<>();
    private long nextIno = ROOT + 1;
    private long generations;
    private int size = 1;

    public InodeTable() {
        byIno[(int) ROOT] = root;
    }

    /** The node of {@code ino}, or null if the kernel cannot know it (forgotten). */
    public synchronized Node get(long ino) {
        return ino > 0 && ino < byIno.length ? byIno[(int) ino] : null;
    }

    /** The node of {@code name} in {@code parent} if the kernel knows it, else null (no lookup counted). */
    public synchronized Node peek(long parent, String name) {
        return byName.get(new Key(parent, name));
    }

    /** One lookup of {@code name} in {@code parent}: its node, made if new. */
    public synchronized Node lookup(Node parent, String name) {
        Key key = new Key(parent.ino, name);
        Node n = byName.get(key);
        if (n == null) {
            Long reused = freeNumbers.pollFirst();
            n = reused == null ? new Node(nextIno++, 0, parent, name) : new Node(reused, ++generations, parent, name);
            byName.put(key, n);
            if (n.ino >= byIno.length) {
                byIno = Arrays.copyOf(byIno, (int) Math.min(Integer.MAX_VALUE - 8, n.ino * 2));
            }
            byIno[(int) n.ino] = n;
            size++;
        }
        n.lookups++;
        return n;
    }

    /** The kernel forgets {@code count} lookups; returns whether the inode was freed. */
    public synchronized boolean forget(long ino, long count) {
        Node n = get(ino);
        if (n == null || n == root) {
            return false;
        }
        n.lookups -= count;
        if (n.lookups > 0) {
            return false;
        }
        byIno[(int) ino] = null;
        size--;
        byName.remove(new Key(n.parent.ino, n.name), n);
        freeNumbers.addLast(ino);
        return true;
    }

    /**
     * {@code name} in {@code parent} was removed: the name no longer leads to its inode (a new file of the
     * same name gets a new one); the inode itself lives until the kernel forgets it.
     */
    public synchronized void unlink(long parent, String name) {
        byName.remove(new Key(parent, name));
    }

    /**
     * {@code name} in {@code parent} is now {@code newName} in {@code newParent}: its inode keeps its number
     * (the kernel moves its entry); an inode that had the new name loses it.
     */
    public synchronized void rename(long parent, String name, long newParent, String newName) {
        Node n = byName.remove(new Key(parent, name));
        Node to = get(newParent);
        byName.remove(new Key(newParent, newName));
        if (n == null || to == null) {
            return;
        }
        synchronized (Node.MOVES) {
            n.parent = to;
            n.name = newName;
        }
        byName.put(new Key(newParent, newName), n);
    }

    /** The node the kernel knows at {@code path} ("/a/b"), or null. */
    public synchronized Node find(String path) {
        Node n = root;
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                n = byName.get(new Key(n.ino, part));
                if (n == null) {
                    return null;
                }
            }
        }
        return n;
    }

    /** Inodes the kernel knows, the root included. */
    public synchronized int size() {
        return size;
    }

    public Node root() {
        return root;
    }
}
