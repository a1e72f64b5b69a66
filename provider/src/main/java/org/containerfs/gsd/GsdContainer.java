package org.containerfs.gsd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.ByteRangeContent;
import org.containerfs.spi.ChildSizes;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.Content;
import org.containerfs.spi.DirectoryNode;
import org.containerfs.spi.FileNode;
import org.containerfs.spi.Names;
import org.containerfs.spi.Node;

/**
 * The GSD tree {@code /<frame>/<chunk name>}. Nodes are flyweights over {@link GsdIndex}; a frame's
 * directory shape ({@link GsdTree}) is built on first use from that frame's entries and cached by
 * layout in a bounded cache, so the heap holds the index arrays plus that cache whatever the frame count.
 *
 * <p>env {@code hoomd=true} gives the HOOMD reader's view: a chunk missing from frame i resolves to
 * frame 0's chunk (never the previous frame's), with attribute {@code inheritedFrom=0}.
 */
final class GsdContainer implements Container {
    private static final int TREE_CACHE = 256;

    private final ContainerSource source;
    private final GsdIndex index;
    private final boolean hoomd;
    private final Map<String, GsdTree> trees = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, GsdTree> eldest) {
            return size() > TREE_CACHE;
        }
    };

    /**
     * The shape last asked for, by frame: a walk asks for the same frame once per directory it lists or
     * looks up below it, and this saves building the layout key each time. Cleared with the cache.
     */
    private volatile FrameShape lastShape;

    private record FrameShape(int frame, GsdTree tree) {}

    /** Frames ended with no chunk by this writer: they exist while the file system is open (gsd drops trailing ones). */
    int emptyCommitted;
    /** The frame being written (mkdir'd, not committed yet), or null. */
    GsdWriter.StagedFrame staged;

    GsdContainer(ContainerSource source) throws IOException {
        this.source = source;
        this.index = new GsdIndex(source.name());
        index.load(source.channel());
        index.trim();
        this.hoomd = source.options().getBoolean("hoomd", false);
    }

    GsdIndex index() {
        return index;
    }

    ContainerSource source() {
        return source;
    }

    int committedFrames() {
        return index.frames() + emptyCommitted;
    }

    int visibleFrames() {
        return committedFrames() + (staged != null ? 1 : 0);
    }

    /** Drops cached frame shapes after the index changed. Called under the core's write lock. */
    void invalidate() {
        synchronized (trees) {
            trees.clear();
            lastShape = null;
        }
    }

    @Override
    public Node root() {
        return new Root();
    }

    @Override
    public boolean refresh() throws IOException {
        boolean changed = index.refresh(source.channel());
        if (changed) {
            emptyCommitted = 0;
            invalidate();
        }
        return changed;
    }

    /** Where the last committed structure (data, index, name list) ends. */
    long committedEnd() {
        return index.committedEnd();
    }

    /**
     * A commit writes index entries into existing slots, after a header write when the index or the
     * name list had to move: neither need grow the file, and a refresh may land between those steps
     * (the file size then equals the new committed end). So the header and the next index slot are
     * looked at instead of the size.
     */
    @Override
    public boolean hasIncompleteTail() {
        try {
            return index.changedOnDisk(source.channel());
        } catch (IOException e) {
            return true; // let the refresh report it
        }
    }

    @Override
    public ContainerWriter openWriter() throws IOException {
        return new GsdWriter(this);
    }

    /**
     * The shape of a frame. Frames holding the same name ids in the same order have the same shape,
     * so shapes are cached by that id sequence with slots relative to the frame's first entry (frame
     * 0 starts at entry 0, so an inherited chunk's slot is absolute): a trajectory of 100,000 alike
     * frames needs one shape, and a random lookup costs one pass over the frame's ids plus a hash.
     */
    GsdTree tree(int frame) {
        if (staged != null && frame == staged.frame) {
            return staged.tree();
        }
        GsdTree known = knownShape(frame);
        if (known != null) {
            return known;
        }
        int first = entriesFirst(frame);
        int end = entriesEnd(frame);
        FrameShape last = lastShape;
        if (last != null && sameLayoutKey(last.frame(), frame)) {
            // a listing goes frame after frame, and alike frames follow each other: no key, hash or lock
            lastShape = new FrameShape(frame, last.tree());
            return last.tree();
        }
        char[] key = new char[end - first + 1];
        key[0] = layoutFlag(frame);
        for (int e = first; e < end; e++) {
            key[e - first + 1] = (char) index.nameIdOf(e);
        }
        String k = new String(key);
        synchronized (trees) {
            GsdTree t = trees.get(k);
            if (t == null) {
                t = GsdTree.build(items(frame, first, end));
                trees.put(k, t);
            }
            lastShape = new FrameShape(frame, t);
            return t;
        }
    }

    /** A frame's index entries are [entriesFirst, entriesEnd); none for a frame not on disk yet. */
    private int entriesFirst(int frame) {
        return frame < index.frames() ? index.frameFirst(frame) : 0;
    }

    private int entriesEnd(int frame) {
        return frame < index.frames() ? index.frameEnd(frame) : 0;
    }

    /** The first element of a layout key: whether the frame inherits frame 0's chunks (hoomd mode, frames after 0). */
    private char layoutFlag(int frame) {
        return (char) (hoomd && frame > 0 ? 1 : 0);
    }

    /** Whether committed frames {@code a} and {@code b} have the same layout key (flag and name ids), without building it. */
    private boolean sameLayoutKey(int a, int b) {
        if (layoutFlag(a) != layoutFlag(b) || (staged != null && (staged.frame == a || staged.frame == b))) {
            return false;
        }
        int aFirst = entriesFirst(a);
        int bFirst = entriesFirst(b);
        int length = entriesEnd(b) - bFirst;
        if (entriesEnd(a) - aFirst != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (index.nameIdOf(aFirst + i) != index.nameIdOf(bFirst + i)) {
                return false;
            }
        }
        return true;
    }

    /** The shape of a committed frame if it is the one last asked for, else null. */
    private GsdTree knownShape(int frame) {
        FrameShape s = lastShape;
        return s != null && s.frame() == frame && (staged == null || staged.frame != frame) ? s.tree() : null;
    }

    /** Slot of a leaf as an index entry number. */
    int entryOf(int frame, GsdTree.Item item) {
        return item.inherited() ? item.slot() : index.frameFirst(frame) + item.slot();
    }

    private List<GsdTree.Item> items(int frame, int first, int end) {
        List<GsdTree.Item> items = new ArrayList<>();
        BitSet own = new BitSet();
        for (int e = first; e < end; e++) {
            items.add(new GsdTree.Item(index.name(index.nameIdOf(e)), e - first, false));
            own.set(index.nameIdOf(e));
        }
        if (hoomd && frame > 0 && index.frames() > 0) {
            for (int e = index.frameFirst(0); e < index.frameEnd(0); e++) {
                if (!own.get(index.nameIdOf(e))) {
                    items.add(new GsdTree.Item(index.name(index.nameIdOf(e)), e, true));
                }
            }
        }
        return items;
    }

    /** Marks "the direct lookup cannot decide": the frame's shape is consulted instead. */
    private final Node fallback = new Root();

    /**
     * Resolves one path component without building the frame's shape, in O(log n) binary searches
     * (as gsd's lookup): the name's presence in the frame, the presence of each of its prefixes (the
     * split rule), and for a directory the first name below it that is split in this frame. Returns
     * {@link #fallback} where it cannot decide cheaply (staged or unsorted frames, shortened names).
     */
    private Node directChild(FrameDir parent, String component) {
        int f = parent.frame;
        if (parent.isStaged() || f >= index.frames() || !index.searchable() || component.contains("%%")) {
            return fallback;
        }
        byte[] raw;
        try {
            raw = Names.decode(component);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (raw == null || !Names.component(raw).equals(component)) {
            return null; // not the canonical spelling of any name
        }
        boolean hasSlash = indexOfSlash(raw) >= 0;
        String prefix = parent.rawPrefix();
        byte[] full;
        if (prefix.isEmpty()) {
            full = raw;
        } else {
            if (hasSlash || raw.length == 0) {
                return null; // below a frame's top level every component is one split part
            }
            byte[] p = prefix.getBytes(StandardCharsets.ISO_8859_1);
            full = new byte[p.length + 1 + raw.length];
            System.arraycopy(p, 0, full, 0, p.length);
            full[p.length] = '/';
            System.arraycopy(raw, 0, full, p.length + 1, raw.length);
        }
        int e = present(f, index.idOf(full));
        if (e >= 0) {
            boolean split = splitInFrame(f, full);
            // a split name is a leaf here only if this component is its last part; an unsplit one only at the top
            if (split ? !hasSlash : prefix.isEmpty()) {
                return chunkNode(f, component, full, e);
            }
        }
        if (hasSlash || GsdTree.split(raw) == null) {
            return null;
        }
        return dirExists(f, full) ? new FrameDir(f, GsdIndex.key(full), component) : null;
    }

    private Chunk chunkNode(int f, String component, byte[] name, int e) {
        boolean inherited = f > 0 && e < index.frameEnd(0) && (f >= index.frames() || e < index.frameFirst(f));
        int slot = inherited ? e : e - index.frameFirst(f);
        return new Chunk(f, new GsdTree.Leaf(component, new GsdTree.Item(name, slot, inherited)), false);
    }

    /** The entry that frame {@code f} shows for name {@code id} (its own, or frame 0's in the HOOMD view), or -1. */
    private int present(int f, int id) {
        if (id < 0) {
            return -1;
        }
        int e = index.find(f, id);
        if (e < 0 && hoomd && f > 0) {
            e = index.find(0, id);
        }
        return e;
    }

    /** The split rule for one frame: no empty/./.. part, and no proper prefix that is a chunk of the frame. */
    private boolean splitInFrame(int f, byte[] name) {
        if (GsdTree.split(name) == null) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (name[i] == '/' && present(f, index.idOf(java.util.Arrays.copyOf(name, i))) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether some chunk of frame {@code f} splits into a path below directory {@code dirName}. */
    private boolean dirExists(int f, byte[] dirName) {
        byte[] below = java.util.Arrays.copyOf(dirName, dirName.length + 1);
        below[dirName.length] = '/';
        int[] start = new int[1];
        int[] sorted = index.namesFrom(below, start);
        for (int i = start[0]; i < sorted.length && GsdIndex.startsWith(index.name(sorted[i]), below); i++) {
            if (present(f, sorted[i]) >= 0 && splitInFrame(f, index.name(sorted[i]))) {
                return true;
            }
        }
        return false;
    }

    private static int indexOfSlash(byte[] raw) {
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '/') {
                return i;
            }
        }
        return -1;
    }

    static String frameName(int frame) {
        return Integer.toString(frame);
    }

    /** The frame number of a canonical frame name ("0", "17"; never "017" or "+1"), or -1. */
    static int parseFrame(String name) {
        if (name.isEmpty() || name.length() > 10 || (name.length() > 1 && name.charAt(0) == '0')) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v > Integer.MAX_VALUE ? -1 : (int) v;
    }

    private static String utf8(String latin1Key) {
        return new String(latin1Key.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    final class Root extends DirectoryNode implements ChildSizes {
        @Override
        public String name() {
            return "";
        }

        @Override
        public Node child(String name) {
            int f = parseFrame(name);
            return f >= 0 && f < visibleFrames() ? new FrameDir(f, "", name) : null; // parseFrame took only the canonical spelling
        }

        @Override
        public List<Node> children() {
            int n = visibleFrames();
            return indexed(n, i -> new FrameDir(i, null));
        }

        /** Every child is a directory. */
        @Override
        public void childSizes(int from, long[] sizes) {
            java.util.Arrays.fill(sizes, -1);
        }

        /** The frame numbers, each spelled when the listing reaches it, without a node per frame. */
        @Override
        public List<String> childNames() {
            return indexedNames(visibleFrames(), GsdContainer::frameName);
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            GsdHeader h = index.header();
            long size = source.channel().size();
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("format", "gsd");
            a.put("version", GsdHeader.versionString(h.version));
            a.put("application", new String(h.application, StandardCharsets.UTF_8));
            a.put("schema", new String(h.schema, StandardCharsets.UTF_8));
            a.put("schemaVersion", GsdHeader.versionString(h.schemaVersion));
            a.put("frames", committedFrames());
            a.put("chunks", index.entries());
            a.put("names", index.nameCount());
            a.put("indexLocation", h.indexLocation);
            a.put("indexAllocatedEntries", h.indexAllocated);
            a.put("namelistLocation", h.namelistLocation);
            a.put("namelistAllocatedEntries", h.namelistAllocated);
            a.put("size", size);
            long orphan = Math.max(0, size - committedEnd());
            a.put("orphanBytes", orphan); // e.g. a killed writer's uncommitted data
            // every problem in committed structures fails the open, so what is open is sound
            a.put("damage", "");
            a.put("uncommittedTail", orphan == 0 ? "" : orphan + " bytes from byte " + committedEnd()
                    + " after the committed data, index and name list (a frame not committed, or being written;"
                    + " gsd ignores them)");
            a.put("hoomdFallback", hoomd);
            return a;
        }
    }

    /** The root's names: "0" to "n-1", each made when asked (a listing asks each once, in order). */
    /**
     * A frame directory ({@code prefix == ""}) or a directory inside a frame, known by the chunk-name
     * prefix it stands for; its place in the frame's shape is looked up only when it is listed.
     */
    final class FrameDir extends DirectoryNode implements ChildSizes {
        final int frame;
        private final String prefix; // raw prefix bytes as Latin-1, "" for the frame itself
        private String name; // a frame's is spelled when asked: a listing makes the node only to reach its child
        private GsdTree.Dir dir;

        FrameDir(int frame, GsdTree.Dir dir) {
            this.frame = frame;
            this.dir = dir;
            this.prefix = dir == null ? "" : dir.rawPrefix;
            this.name = dir == null ? null : dir.name;
        }

        FrameDir(int frame, String prefix, String name) {
            this.frame = frame;
            this.prefix = prefix;
            this.name = name;
        }

        GsdTree.Dir dir() {
            if (dir == null) {
                GsdTree.Dir d = tree(frame).root;
                if (!prefix.isEmpty()) {
                    for (String part : prefix.split("/", -1)) {
                        Object c = d == null ? null : d.children.get(Names.component(part.getBytes(StandardCharsets.ISO_8859_1)));
                        d = c instanceof GsdTree.Dir cd ? cd : null;
                    }
                }
                // a directory found by the direct lookup is in the shape too; an empty one stands in otherwise
                return d != null ? d : new GsdTree.Dir(name(), prefix);
            }
            return dir;
        }

        /** The chunk-name prefix of this directory ("" for the frame itself), raw bytes as Latin-1. */
        String rawPrefix() {
            return prefix;
        }

        boolean isFrame() {
            return prefix.isEmpty();
        }

        boolean isStaged() {
            return staged != null && staged.frame == frame;
        }

        @Override
        public String name() {
            String n = name;
            if (n == null) {
                n = frameName(frame);
                name = n;
            }
            return n;
        }

        @Override
        public Node child(String name) {
            if (knownShape(frame) != null) {
                return wrap(dir().children.get(name)); // the shape is at hand: a hash lookup
            }
            Node direct = directChild(this, name);
            if (direct != fallback) {
                return direct;
            }
            return wrap(dir().children.get(name));
        }

        private Node wrap(Object o) {
            if (o instanceof GsdTree.Dir d) {
                return new FrameDir(frame, d);
            }
            if (o instanceof GsdTree.Leaf l) {
                return new Chunk(frame, l, isStaged());
            }
            return null;
        }

        /** A frame before the last committed one is complete: appends start new frames (or fill the staged one). */
        @Override
        public boolean mayGainChildren() {
            return isStaged() || frame >= committedFrames() - 1;
        }

        @Override
        public List<Node> children() {
            List<Object> all = dir().entries();
            return indexed(all.size(), i -> wrap(all.get(i))); // a node only for the child asked for
        }

        @Override
        public List<String> childNames() {
            return dir().names();
        }

        @Override
        public void childSizes(int from, long[] sizes) {
            List<Object> all = dir().entries();
            boolean stagedChunks = isStaged();
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = all.get(from + i) instanceof GsdTree.Leaf l ? chunkBytes(frame, l, stagedChunks) : -1;
            }
        }

        @Override
        public Map<String, Object> attributes() {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("frame", frame);
            if (isFrame()) {
                GsdTree t = tree(frame);
                a.put("chunkCount", t.chunkCount);
                a.put("duplicates", t.duplicates.isEmpty() ? "" : String.join("\n", t.duplicates));
                a.put("committed", !isStaged());
            } else {
                a.put("prefix", utf8(prefix));
            }
            return a;
        }
    }

    /** A chunk's place: in the staged frame's list, or its index entry. */
    private int chunkSlot(int frame, GsdTree.Leaf leaf, boolean stagedChunk) {
        return stagedChunk ? leaf.item().slot() : entryOf(frame, leaf.item());
    }

    /** A chunk's size in bytes, for its node and for a run of listed sizes alike. */
    private long chunkBytes(int frame, GsdTree.Leaf leaf, boolean stagedChunk) {
        int slot = chunkSlot(frame, leaf, stagedChunk);
        return stagedChunk ? staged.chunks.get(slot).bytes() : index.bytes(slot);
    }

    final class Chunk extends FileNode {
        final int frame;
        final GsdTree.Leaf leaf;
        final boolean stagedChunk;

        Chunk(int frame, GsdTree.Leaf leaf, boolean stagedChunk) {
            this.frame = frame;
            this.leaf = leaf;
            this.stagedChunk = stagedChunk;
        }

        @Override
        public String name() {
            return leaf.name();
        }

        private int slot() {
            return chunkSlot(frame, leaf, stagedChunk);
        }

        long location() {
            return stagedChunk ? staged.chunks.get(slot()).location() : index.location(slot());
        }

        @Override
        public long size() {
            return chunkBytes(frame, leaf, stagedChunk);
        }

        @Override
        public Content content() {
            String label = "GSD chunk " + new String(leaf.item().name(), StandardCharsets.UTF_8) + " of frame "
                    + (leaf.item().inherited() ? 0 : frame);
            // a chunk of the staged frame is not committed yet: not a stored range
            return stagedChunk ? new ByteRangeContent(source.channel(), location(), size(), label)
                    : ByteRangeContent.stored(source.channel(), location(), size(), label);
        }

        @Override
        public Map<String, Object> attributes() {
            int type;
            long n;
            int m;
            int id;
            if (stagedChunk) {
                GsdWriter.StagedChunk c = staged.chunks.get(slot());
                type = c.type();
                n = c.n();
                m = c.m();
                id = c.nameId();
            } else {
                type = index.type(slot());
                n = index.n(slot());
                m = index.m(slot());
                id = index.nameIdOf(slot());
            }
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("type", GsdHeader.typeName(type));
            a.put("typeId", type);
            a.put("N", n);
            a.put("M", m);
            a.put("frame", leaf.item().inherited() ? 0 : frame);
            a.put("location", location());
            a.put("nameId", id);
            a.put("name", new String(leaf.item().name(), StandardCharsets.UTF_8));
            a.put("rawName", leaf.item().name().clone());
            a.put("committed", !stagedChunk);
            if (hoomd) {
                a.put("inheritedFrom", leaf.item().inherited() ? 0 : -1);
            }
            return a;
        }
    }
}
