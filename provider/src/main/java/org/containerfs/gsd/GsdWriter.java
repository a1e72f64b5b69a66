package org.containerfs.gsd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.AppendSink;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.InvalidNameException;
import org.containerfs.spi.Names;
import org.containerfs.spi.Node;

/**
 * Appends frames the way gsd's {@code gsd_end_frame} + {@code gsd_flush} do, so the gsd library can
 * read and keep appending to the file.
 *
 * <p>A frame is staged by {@code mkdir /<n>} (n = the frame count). Each chunk file written into it
 * streams its bytes to the end of the file as the user writes (gsd: data first); its type and width
 * come from the creation attributes {@code gsd:type} and {@code gsd:M}. The frame is committed when
 * the next frame directory is created, on {@code Files.setAttribute(frameDir, "gsd:commit", true)},
 * or when the file system closes. Commit order, as gsd:
 * <ol>
 *   <li>data (already at the end of the file);</li>
 *   <li>new names: the name list's zero tail is filled in place, or, when the list outgrows its
 *       block, the whole list is written at the end of the file in a block of double size and the
 *       header repointed;</li>
 *   <li>index growth when the new entries do not fit: the index is copied to the end of the file,
 *       zero-filled to double size, and the header repointed; a file that gets its first character
 *       chunk has its header version raised to 2.1 here too;</li>
 *   <li>the frame's index entries, sorted by name id (v2; v1 keeps write order), written in one
 *       write into the index's zero slots: <b>the commit point</b>. Readers count entries up to the
 *       first slot with location 0, so until this write the frame does not exist.</li>
 * </ol>
 * In-place changes of existing bytes, all part of gsd's own protocol: the header (steps 2 and 3),
 * the name list's zero tail (step 2) and the index's zero slots (step 4). Nothing committed is ever
 * rewritten. With env {@code sync=true} each step is followed by an fsync; without it a commit is
 * durable against a process kill (the page cache keeps what was written) but not a power loss.
 *
 * <p>Choices: a v1.0 (or 0.3) file stays v1 and a chunk name longer than 63 bytes is refused there
 * (gsd would silently cut it, renaming the chunk); character chunks are refused in v1 files. A frame
 * committed without chunks exists while the file system stays open, but like gsd's trailing empty
 * frames it is not stored unless a later frame holds a chunk. The staged frame is shown with the
 * same split rule as a stored one, so a name is written before the names that extend it
 * ({@code particles} before {@code particles/position}): once {@code particles/} is a directory of
 * the staged frame, a file of that name can no longer be created in it. Chunk names come from the
 * path: {@code /3/particles/position} (after {@code mkdir /3/particles}) and
 * {@code /3/particles%2Fposition} both write the chunk {@code particles/position}.
 */
final class GsdWriter implements ContainerWriter {
    private static final int COPY_BUFFER = 1 << 20;

    record StagedChunk(byte[] name, int nameId, int type, long n, int m, long location) {
        long bytes() {
            return n * m * GsdHeader.typeSize(type);
        }
    }

    /** The frame being written: its chunks and the directories mkdir'd inside it. */
    static final class StagedFrame {
        final int frame;
        final List<StagedChunk> chunks = new ArrayList<>();
        final List<List<String>> dirs = new ArrayList<>();
        private GsdTree tree;

        StagedFrame(int frame) {
            this.frame = frame;
        }

        GsdTree tree() {
            if (tree == null) {
                List<GsdTree.Item> items = new ArrayList<>();
                for (int i = 0; i < chunks.size(); i++) {
                    items.add(new GsdTree.Item(chunks.get(i).name(), i, false));
                }
                GsdTree t = GsdTree.build(items);
                for (List<String> path : dirs) {
                    GsdTree.Dir d = t.root;
                    StringBuilder raw = new StringBuilder();
                    for (String c : path) {
                        if (raw.length() > 0 || d != t.root) {
                            raw.append('/');
                        }
                        raw.append(GsdIndex.key(Names.decode(c)));
                        Object child = d.children.get(c);
                        if (child == null) {
                            GsdTree.Dir nd = new GsdTree.Dir(c, raw.toString());
                            d.children.put(c, nd);
                            d = nd;
                        } else if (child instanceof GsdTree.Dir existing) {
                            d = existing;
                        } else {
                            break;
                        }
                    }
                }
                tree = t;
            }
            return tree;
        }

        boolean hasChunk(byte[] name) {
            for (StagedChunk c : chunks) {
                if (java.util.Arrays.equals(c.name(), name)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final GsdContainer container;
    private final GsdIndex index;
    private final ContainerChannel channel;
    private final String file;
    private final boolean sync;
    /** Names first used by the staged frame, with their provisional ids (nameCount + position). */
    private final Map<String, Integer> newNames = new LinkedHashMap<>();
    private ChunkSink active;

    GsdWriter(GsdContainer container) {
        this.container = container;
        this.index = container.index();
        this.channel = container.source().channel();
        this.file = container.source().name();
        this.sync = container.source().options().getBoolean("sync", false);
    }

    @Override
    public String allowedWrites() {
        return "GSD files grow by frames: create directory /" + container.visibleFrames()
                + " (the next frame), write chunk files into it (type and width as FileAttributes gsd:type and gsd:M),"
                + " and commit it by creating the next frame, by Files.setAttribute(frameDir, \"gsd:commit\", true)"
                + " or by closing the file system";
    }

    @Override
    public void createDirectory(Node parent, String name, Map<String, Object> attributes) throws IOException {
        if (parent instanceof GsdContainer.Root) {
            int expected = container.visibleFrames();
            if (GsdContainer.parseFrame(name) != expected) {
                throw new AccessDeniedException(name, null, "the next frame is /" + expected + "; " + allowedWrites());
            }
            ensureNoActiveChunk();
            if (container.staged != null) {
                commit();
            }
            container.staged = new StagedFrame(container.committedFrames());
            return;
        }
        StagedFrame s = container.staged;
        if (!(parent instanceof GsdContainer.FrameDir dir) || s == null || dir.frame != s.frame) {
            throw new AccessDeniedException(name, null, "committed frames are never modified; " + allowedWrites());
        }
        byte[] raw = decodeComponent(name);
        if (GsdTree.split(raw) == null || raw.length == 0 || indexOf(raw, (byte) '/') >= 0) {
            throw new AccessDeniedException(name, null, "a directory inside a frame is one chunk-name component"
                    + " (not empty, '.', '..' or containing '/')");
        }
        List<String> path = new ArrayList<>(componentsOf(dir));
        path.add(name);
        s.dirs.add(path);
        s.tree = null;
    }

    private static List<String> componentsOf(GsdContainer.FrameDir dir) {
        List<String> out = new ArrayList<>();
        String prefix = dir.rawPrefix();
        if (prefix.isEmpty()) {
            return out;
        }
        for (String part : prefix.split("/", -1)) {
            out.add(Names.component(part.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
        }
        return out;
    }

    @Override
    public void checkNewFile(Node parent, String name, Map<String, Object> attributes) throws IOException {
        plannedChunk(parent, name, attributes);
    }

    /** A chunk the staged frame can take: its full raw name, type and width. */
    private record PlannedChunk(StagedFrame frame, byte[] raw, int type, long m) {}

    /** What {@code name} in {@code parent} with {@code attributes} would be as a new chunk; refused if it cannot be one. */
    private PlannedChunk plannedChunk(Node parent, String name, Map<String, Object> attributes) throws IOException {
        StagedFrame s = container.staged;
        if (!(parent instanceof GsdContainer.FrameDir dir) || s == null || dir.frame != s.frame) {
            throw new AccessDeniedException(name, null, "chunks are written into the frame being staged only"
                    + (s == null ? " (none: create /" + container.visibleFrames() + " first)" : " (/" + s.frame + ")")
                    + "; " + allowedWrites());
        }
        byte[] leaf = decodeComponent(name);
        String prefix = dir.rawPrefix();
        byte[] raw;
        if (prefix.isEmpty()) {
            raw = leaf;
        } else {
            byte[] p = prefix.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            raw = new byte[p.length + 1 + leaf.length];
            System.arraycopy(p, 0, raw, 0, p.length);
            raw[p.length] = '/';
            System.arraycopy(leaf, 0, raw, p.length + 1, leaf.length);
        }
        if (raw.length == 0 || indexOf(raw, (byte) 0) >= 0) {
            throw new InvalidNameException(name, "a GSD chunk name is a non-empty C string (no NUL byte)");
        }
        GsdHeader h = index.header();
        if (h.v1Layout() && raw.length > GsdHeader.V1_MAX_NAME) {
            throw new InvalidNameException(name, "this file is GSD " + GsdHeader.versionString(h.version)
                    + ", whose names have at most 63 bytes (gsd would cut this " + raw.length
                    + "-byte name and so rename the chunk): refused");
        }
        if (s.hasChunk(raw)) {
            throw new FileAlreadyExistsException(name, null, "frame " + s.frame + " already has a chunk of that name");
        }
        int type = GsdHeader.parseType(attribute(attributes, "type", 1));
        if (type < 0) {
            throw new IllegalArgumentException("gsd:type must be one of uint8 uint16 uint32 uint64 int8 int16 int32"
                    + " int64 float double character (or its id 1-11), got " + attribute(attributes, "type", null));
        }
        if (type == GsdHeader.TYPE_CHARACTER && h.v1Layout()) {
            throw new AccessDeniedException(name, null, "character chunks (type 11) need GSD 2.1; this file is "
                    + GsdHeader.versionString(h.version));
        }
        Object mValue = attribute(attributes, "M", 1);
        long m;
        try {
            m = mValue instanceof Number num ? num.longValue() : Long.parseLong(String.valueOf(mValue).trim());
        } catch (NumberFormatException e) {
            m = -1;
        }
        if (m < 1 || m > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("gsd:M must be an integer from 1 to 2^32-1, got " + mValue);
        }
        if (m > Integer.MAX_VALUE) {
            // gsd's M is a u32 (byte 24 of an index entry), but this library reads widths up to 2^31-1 only:
            // a chunk it could not read back is refused before any byte of it is written
            throw new AccessDeniedException(name, null, "gsd:M = " + m + " is wider than " + Integer.MAX_VALUE
                    + " (2^31-1), the widest chunk containerfs reads back; nothing was written");
        }
        for (Map.Entry<String, Object> e : attributes.entrySet()) {
            String k = e.getKey().startsWith("gsd:") ? e.getKey().substring(4) : e.getKey();
            if (!k.equals("type") && !k.equals("M")) {
                throw new IllegalArgumentException("unknown creation attribute " + e.getKey() + " (gsd:type, gsd:M)");
            }
        }
        if (index.idOf(raw) < 0 && !newNames.containsKey(GsdIndex.key(raw))
                && index.nameCount() + newNames.size() >= GsdHeader.MAX_NAMES) {
            throw new AccessDeniedException(name, null, "the name list is full (65535 names, gsd's limit)");
        }
        return new PlannedChunk(s, raw, type, m);
    }

    @Override
    public WritableByteChannel createFile(Node parent, String name, Map<String, Object> attributes) throws IOException {
        ensureNoActiveChunk();
        PlannedChunk c = plannedChunk(parent, name, attributes);
        int id = index.idOf(c.raw());
        if (id < 0) {
            // a name new to the file: a provisional id, in the order names will be written to the name list
            id = newNames.computeIfAbsent(GsdIndex.key(c.raw()), k -> index.nameCount() + newNames.size());
        }
        active = new ChunkSink(c.frame(), c.raw(), id, c.type(), (int) c.m(), channel.size());
        return active;
    }

    private static Object attribute(Map<String, Object> attributes, String name, Object fallback) {
        Object v = attributes.get("gsd:" + name);
        if (v == null) {
            v = attributes.get(name);
        }
        return v == null ? fallback : v;
    }

    private static byte[] decodeComponent(String name) throws InvalidNameException {
        byte[] raw;
        try {
            raw = Names.decode(name);
        } catch (IllegalArgumentException e) {
            throw new InvalidNameException(name, "malformed %-escape in the name");
        }
        if (raw == null) {
            throw new InvalidNameException(name, "a shortened name (with %%) cannot be written");
        }
        return raw;
    }

    private static int indexOf(byte[] a, byte b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private void ensureNoActiveChunk() throws IOException {
        if (active != null) {
            throw new IOException(file + ": chunk " + new String(active.name, java.nio.charset.StandardCharsets.UTF_8)
                    + " is still being written; close it first");
        }
    }

    @Override
    public void setAttribute(Node node, String attribute, Object value) throws IOException {
        if (!attribute.equals("commit") || !(node instanceof GsdContainer.FrameDir dir) || !dir.isFrame()) {
            throw new AccessDeniedException(node.name(), null, "attribute gsd:" + attribute
                    + " cannot be set; only gsd:commit on a frame directory; " + allowedWrites());
        }
        if (!Boolean.TRUE.equals(value) && !"true".equals(String.valueOf(value))) {
            throw new IllegalArgumentException("gsd:commit takes the value true");
        }
        if (dir.isStaged()) {
            ensureNoActiveChunk();
            commit();
        }
        // a committed frame: nothing to do
    }

    @Override
    public void close() throws IOException {
        if (active != null) {
            active.close();
        }
        if (container.staged != null && !container.staged.chunks.isEmpty()) {
            commit();
        }
        container.staged = null;
    }

    /** gsd_end_frame + gsd_flush for the staged frame (see the class comment for the order). */
    private void commit() throws IOException {
        StagedFrame s = container.staged;
        if (s.chunks.isEmpty()) {
            container.emptyCommitted++;
            container.staged = null;
            container.invalidate();
            return;
        }
        GsdHeader h = index.header();
        boolean v1 = h.v1Layout();

        // 2. names
        List<byte[]> names = new ArrayList<>();
        for (String key : newNames.keySet()) {
            names.add(key.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        long used = index.namelistUsed();
        long usedAfter = used;
        if (!names.isEmpty()) {
            ByteBuffer add = encodeNames(names, v1);
            usedAfter = used + add.remaining();
            long reserved = h.namelistAllocated * GsdHeader.NAME_SLOT;
            if (usedAfter > reserved) {
                long grown = reserved * 2;
                while (usedAfter >= grown) {
                    grown *= 2;
                }
                long at = channel.size();
                copy(h.namelistLocation, at, used);
                channel.writeFully(add, at + used);
                zeroFill(at + usedAfter, at + grown);
                force();
                h.namelistLocation = at;
                h.namelistAllocated = grown / GsdHeader.NAME_SLOT;
                writeHeader(h);
            } else {
                channel.writeFully(add, h.namelistLocation + used); // into the list's zero tail
            }
        }
        force(); // data and names before the index

        // 3. index growth, version
        int k = s.chunks.size();
        long needed = (long) index.entries() + k;
        // gsd's readers also require frame < index slots: after many empty frames gsd itself would
        // write a file it calls corrupt, so the index grows for that too (never the case otherwise)
        if (needed > h.indexAllocated || s.frame >= h.indexAllocated) {
            long grown = Math.max(1, h.indexAllocated) * 2;
            while (grown <= needed || grown <= s.frame) {
                grown *= 2;
            }
            // 32-byte aligned, so that no entry ever straddles a page (a kill then leaves whole entries)
            long at = (channel.size() + 31) & ~31L;
            zeroFill(channel.size(), at);
            copy(h.indexLocation, at, h.indexAllocated * GsdHeader.ENTRY_SIZE);
            zeroFill(at + h.indexAllocated * GsdHeader.ENTRY_SIZE, at + grown * GsdHeader.ENTRY_SIZE);
            force();
            h.indexLocation = at;
            h.indexAllocated = grown;
            writeHeader(h);
        }
        boolean hasCharacter = false;
        for (StagedChunk c : s.chunks) {
            hasCharacter |= c.type() == GsdHeader.TYPE_CHARACTER;
        }
        if (hasCharacter && Integer.compareUnsigned(h.version, GsdHeader.V2_1) < 0) {
            h.version = GsdHeader.V2_1;
            writeHeader(h);
        }

        // 4. the entries: the commit point
        List<StagedChunk> order = new ArrayList<>(s.chunks);
        if (!v1) {
            order.sort((a, b) -> Integer.compare(a.nameId(), b.nameId()));
        }
        ByteBuffer entries = ByteBuffer.allocate(k * GsdHeader.ENTRY_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        for (StagedChunk c : order) {
            entries.putLong(s.frame).putLong(c.n()).putLong(c.location()).putInt(c.m())
                    .putShort((short) c.nameId()).put((byte) c.type()).put((byte) 0);
        }
        entries.flip();
        channel.writeFully(entries, h.indexLocation + index.entries() * (long) GsdHeader.ENTRY_SIZE);
        force();

        // the in-memory view follows the file
        long nameEnd = used;
        for (byte[] n : names) {
            nameEnd += v1 ? GsdHeader.NAME_SLOT : n.length + 1;
            index.appendName(n, nameEnd);
        }
        for (StagedChunk c : order) {
            index.add(s.frame, c.n(), c.location(), c.m(), c.nameId(), c.type());
        }
        newNames.clear();
        container.staged = null;
        container.emptyCommitted = 0; // the earlier empty frames are now stored (frame numbers skip them)
        container.invalidate();
    }

    private static ByteBuffer encodeNames(List<byte[]> names, boolean v1) {
        int total = 0;
        for (byte[] n : names) {
            total += v1 ? GsdHeader.NAME_SLOT : n.length + 1;
        }
        ByteBuffer b = ByteBuffer.allocate(total);
        for (byte[] n : names) {
            int start = b.position();
            b.put(n).put((byte) 0);
            if (v1) {
                b.position(start + GsdHeader.NAME_SLOT);
            }
        }
        return b.flip();
    }

    private void copy(long from, long to, long length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(COPY_BUFFER, Math.max(1, length)));
        long done = 0;
        while (done < length) {
            buf.clear().limit((int) Math.min(buf.capacity(), length - done));
            channel.readFully(buf, from + done);
            buf.flip();
            int n = buf.remaining();
            channel.writeFully(buf, to + done);
            done += n;
        }
    }

    private void zeroFill(long from, long to) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(COPY_BUFFER, Math.max(1, to - from)));
        for (long p = from; p < to; ) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), to - p));
            int n = zeros.remaining();
            channel.writeFully(zeros, p);
            p += n;
        }
    }

    private void writeHeader(GsdHeader h) throws IOException {
        channel.writeFully(h.encode(), 0); // gsd's own protocol rewrites the header in place
        force();
    }

    private void force() throws IOException {
        if (sync) {
            channel.force(false);
        }
    }

    private final class ChunkSink extends AppendSink {
        private final StagedFrame frame;
        private final byte[] name;
        private final int nameId;
        private final int type;
        private final int m;
        private final long start;

        ChunkSink(StagedFrame frame, byte[] name, int nameId, int type, int m, long start) {
            super(channel, start);
            this.frame = frame;
            this.name = name;
            this.nameId = nameId;
            this.type = type;
            this.m = m;
            this.start = start;
        }

        @Override
        protected void commit() throws IOException {
            active = null;
            long written = written();
            long row = (long) m * GsdHeader.typeSize(type);
            if (written % row != 0) {
                forgetName();
                throw new IOException(file + ": chunk " + new String(name, java.nio.charset.StandardCharsets.UTF_8)
                        + " has " + written + " bytes, not a multiple of M=" + m + " x " + GsdHeader.typeSize(type)
                        + " bytes (" + GsdHeader.typeName(type) + "); it was not added to frame " + frame.frame);
            }
            frame.chunks.add(new StagedChunk(name, nameId, type, written / row, m, start));
            frame.tree = null;
        }

        /** A refused chunk's new name must not reach the name list. */
        private void forgetName() {
            String key = GsdIndex.key(name);
            Integer id = newNames.get(key);
            if (id != null && id == index.nameCount() + newNames.size() - 1) {
                boolean usedElsewhere = false;
                for (StagedChunk c : frame.chunks) {
                    usedElsewhere |= c.nameId() == id;
                }
                if (!usedElsewhere) {
                    newNames.remove(key);
                }
            }
        }
    }
}
