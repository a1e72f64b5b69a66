package org.containerfs.g3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.ByteRangeContent;
import org.containerfs.spi.ChecksumMismatchException;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.Content;
import org.containerfs.spi.DirectoryNode;
import org.containerfs.spi.FileNode;
import org.containerfs.spi.Names;
import org.containerfs.spi.Node;

/**
 * The G3 tree {@code /NNNNNN.<FrameType>/<key>}: flyweight nodes over {@link G3Index}. Key files
 * hold the blob bytes as stored; the first read of a frame's data checks the frame CRC.
 */
final class G3Container implements Container {
    static final int WIDTH = 6;

    private final ContainerSource source;
    private final G3Index index;
    private final G3Data data;
    private final GzipIndex gzip;
    private final boolean verify;
    /** A frame created by mkdir and not yet written: the writer's staging area. */
    private StagedFrame staged;

    G3Container(ContainerSource source) throws IOException {
        this.source = source;
        this.index = new G3Index(source.name());
        this.verify = source.options().getBoolean("verify", true);
        if (G3Format.isGzip(source.channel())) {
            this.gzip = GzipIndex.open(source, index);
            this.data = gzip;
            for (int f = 0; f < index.frames(); f++) {
                if (index.crcState(f) == 2) { // the gzip scan checks every frame's CRC on its way
                    crcMismatches.add(f);
                }
            }
        } else {
            this.gzip = null;
            this.data = new PlainData(source.channel());
            index.scan(new PlainReader(source.channel(), 0), source.strict());
            classifyTail();
        }
        index.trim();
    }

    private G3Container(ContainerSource source, G3Index index, GzipIndex gzip) {
        this.source = source;
        this.index = index;
        this.verify = source.options().getBoolean("verify", true);
        this.gzip = gzip;
        this.data = gzip != null ? gzip : new PlainData(source.channel());
    }

    private static final int PLAIN = 0;
    private static final int GZIP = 1;

    /**
     * The index cache snapshot: the frame index as a {@code .zidx} holds it, and for a .g3.gz the
     * restart points first. Null while a writer's frame is staged (never: writable opens skip the cache).
     */
    @Override
    public byte[] exportIndex() throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(FieldWriter.to(bytes))) {
            out.writeByte(gzip != null ? GZIP : PLAIN);
            if (gzip != null) {
                out.writeLong(gzip.span());
                IndexStore.writeGzip(out, gzip);
            }
            IndexStore.writeFrames(out, index);
        }
        return bytes.toByteArray();
    }

    /**
     * From a snapshot of the first {@code covered} bytes; a plain file then scans the frames appended
     * since. A .g3.gz that changed at all, or a snapshot made with another restart span, cannot serve (null).
     */
    static G3Container fromSnapshot(ContainerSource source, ByteBuffer snapshot, long covered) throws IOException {
        int length = snapshot.remaining();
        FieldReader in = FieldReader.of(snapshot);
        int kind = in.readByte();
        boolean isGzip = G3Format.isGzip(source.channel());
        if (kind != (isGzip ? GZIP : PLAIN)) {
            throw new org.containerfs.spi.ContainerFormatException(source.name() + " (index cache snapshot)", 0, null,
                    "the index of a " + (isGzip ? "gzip-compressed" : "plain") + " G3 file",
                    "a snapshot of kind " + kind + (kind == GZIP ? " (gzip-compressed)" : kind == PLAIN ? " (plain)" : ""));
        }
        if (isGzip && source.channel().size() != covered) {
            return null;
        }
        G3Index index = new G3Index(source.name());
        GzipIndex gz = null;
        if (isGzip) {
            gz = GzipIndex.open(source, index, in.readLong());
            if (gz == null) {
                return null;
            }
            IndexStore.readGzip(in, length, gz, covered);
            IndexStore.readFrames(in, length, index, gz.streamSize());
            gz.loadedFrom("the index cache");
            gz.persistAsAsked(source, index);
        } else {
            IndexStore.readFrames(in, length, index, covered);
        }
        if (!in.atEnd()) {
            throw new org.containerfs.spi.ContainerFormatException(source.name() + " (index cache snapshot)", in.position(),
                    null, "the end of the snapshot", (length - in.position()) + " more bytes");
        }
        if (source.strict() && index.damage() != null) {
            return null; // the scan reports it as a strict open must
        }
        G3Container c = new G3Container(source, index, gz);
        if (source.channel().size() != covered) {
            c.refresh(); // frames appended since the snapshot
        } else {
            c.classifyTail(); // a snapshot made before torn tails were told from damage says "torn" of both
        }
        index.trim();
        return c;
    }

    G3Index index() {
        return index;
    }

    ContainerSource source() {
        return source;
    }

    GzipIndex gzip() {
        return gzip;
    }

    StagedFrame staged() {
        return staged;
    }

    void setStaged(StagedFrame frame) {
        this.staged = frame;
    }

    int visibleFrames() {
        return index.frames() + (staged != null ? 1 : 0);
    }

    static String frameName(int frame, int typeCode) {
        return Names.indexed("", frame, WIDTH, "." + G3FrameTypes.name(typeCode));
    }

    /**
     * A listing names every frame and key: the ".Scan" suffixes and the encoded key names are made
     * once (per type code, per interned key id) instead of once per name. Filled lazily; a race only
     * computes a value twice (the Strings here are never changed after they are stored).
     */
    private volatile String[] suffixByType = new String[0];
    private volatile String[] componentByKeyId = new String[0];
    private static final int CACHED_TYPE_CODES = 128;

    private String cachedFrameName(int frame, int typeCode) {
        if (typeCode < 0 || typeCode >= CACHED_TYPE_CODES) {
            return frameName(frame, typeCode);
        }
        String[] suffixes = suffixByType;
        String suffix = typeCode < suffixes.length ? suffixes[typeCode] : null;
        if (suffix == null) {
            suffix = "." + G3FrameTypes.name(typeCode);
            String[] grown = java.util.Arrays.copyOf(suffixes, CACHED_TYPE_CODES);
            grown[typeCode] = suffix;
            suffixByType = grown;
        }
        return Names.indexed("", frame, WIDTH, suffix);
    }

    /** {@link Names#component} of the key with interned id {@code id}. */
    private String keyComponent(int id) {
        String[] names = componentByKeyId;
        String name = id < names.length ? names[id] : null;
        if (name == null) {
            name = Names.component(index.keyById(id));
            String[] grown = id < names.length ? names.clone() : java.util.Arrays.copyOf(names, Math.max(id + 1, names.length * 2));
            grown[id] = name;
            componentByKeyId = grown;
        }
        return name;
    }

    String frameName(int frame) {
        return cachedFrameName(frame, frame < index.frames() ? index.frameType(frame) : staged.typeCode);
    }

    @Override
    public Node root() {
        return new Root();
    }

    @Override
    public boolean refresh() throws IOException {
        if (gzip != null) {
            return false; // a gzip stream cannot be extended in place by G3 writers
        }
        int before = index.frames();
        index.scan(new PlainReader(source.channel(), index.nextFrame()), false);
        classifyTail();
        return index.frames() != before;
    }

    /**
     * A frame cut off by the end of the file may be one being written: its writer commits it by writing
     * its entry count in place, which need not grow the file (the CRC may already be there).
     */
    @Override
    public boolean hasIncompleteTail() {
        return gzip == null && index.damage() != null && index.tailTruncated();
    }

    @Override
    public ContainerWriter openWriter() throws IOException {
        return new G3Writer(this);
    }

    @Override
    public void close() throws IOException {
        data.close();
    }

    /** Computes a frame's CRC once (reading its key and blob bytes) and remembers the verdict. */
    int checkFrame(int f) throws IOException {
        int state = index.crcState(f);
        if (state != 0) {
            return state;
        }
        index.setCrc(f, computeCrc(index, f, data, "frame " + frameName(f)));
        int verdict = index.crcState(f);
        if (verdict == 2) {
            synchronized (crcMismatches) {
                crcMismatches.add(f);
            }
        }
        return verdict;
    }

    /** The CRC of frame {@code f} of {@code index} over its keys and the blob bytes {@code data} holds. */
    static int computeCrc(G3Index index, int f, G3Data data, String frame) throws IOException {
        int crc = 0;
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(64 * 1024, Math.max(index.frameLength(f), 1)));
        for (int e = index.firstEntry(f); e < index.endEntry(f); e++) {
            byte[] key = index.key(e);
            crc = G3Crc.update(crc, key, 0, key.length);
            long off = index.blobOffset(e);
            long left = index.blobLength(e);
            while (left > 0) {
                buf.clear().limit((int) Math.min(buf.capacity(), left));
                int n = data.read(buf, off);
                if (n <= 0) {
                    throw new org.containerfs.spi.TruncatedDataException(index.file(), off, frame,
                            "blob bytes up to byte " + (off + left), "the data ends at byte " + off);
                }
                buf.flip();
                crc = G3Crc.update(crc, buf);
                off += n;
                left -= n;
            }
        }
        return crc;
    }

    /**
     * A truncated tail of an uncompressed file counts as a writer's torn append only if it can be one torn
     * frame; a committed frame found inside it makes it damage ({@link TornTail}).
     */
    private void classifyTail() throws IOException {
        if (gzip == null && index.damage() != null && index.tailTruncated()) {
            String evidence = TornTail.evidenceOfDamage(index, source.channel(), data);
            if (evidence != null) {
                index.tailIsDamage(evidence);
            }
        }
    }

    void requireGoodCrc(int f) throws IOException {
        if (verify && checkFrame(f) == 2) {
            throw new ChecksumMismatchException(source.name(), index.frameOffset(f), "frame " + frameName(f),
                    "the stored CRC-32C " + G3Crc.show(index.crcStored(f)),
                    "the computed " + G3Crc.show(index.crcComputed(f)) + " (env verify=false reads it anyway)");
        }
    }

    private String crcMismatch(int f) {
        return "frame " + frameName(f) + " at byte " + index.frameOffset(f) + ": expected the stored CRC-32C "
                + G3Crc.show(index.crcStored(f)) + ", found the computed " + G3Crc.show(index.crcComputed(f));
    }

    /**
     * Damage to committed data, for the root's {@code damage}: the gzip stream's, the frame stream's
     * (a truncated tail of an uncompressed file is a writer's uncommitted frame instead, see
     * {@link #uncommittedTail()}), and every frame whose CRC was found wrong so far (a frame's CRC is
     * computed when its data is first read or its attributes are asked, never at open).
     */
    private String damage() {
        List<String> parts = new ArrayList<>();
        if (gzip != null && gzip.gzipDamage() != null) {
            parts.add("gzip stream: " + gzip.gzipDamage());
        }
        if (index.damage() != null && uncommittedTail().isEmpty()) {
            parts.add(index.damage());
        }
        synchronized (crcMismatches) {
            int shown = 0;
            for (int f : crcMismatches) {
                if (shown++ == 10) {
                    parts.add((crcMismatches.size() - 10) + " more frames with a wrong CRC");
                    break;
                }
                parts.add(crcMismatch(f));
            }
        }
        return String.join("; ", parts);
    }

    /** A truncated last frame of an uncompressed file: what a writer killed during its append leaves. */
    private String uncommittedTail() {
        return gzip == null && index.damage() != null && index.tailTruncated() ? index.damage() : "";
    }

    /** Frames whose CRC was computed and found wrong, in the order found. */
    private final java.util.SortedSet<Integer> crcMismatches = new java.util.TreeSet<>();

    private final class Root extends DirectoryNode {
        @Override
        public String name() {
            return "";
        }

        @Override
        public Node child(String name) {
            int dot = name.indexOf('.');
            if (dot < 0) {
                return null;
            }
            long f = Names.parseIndexed(name.substring(0, dot), "", WIDTH);
            if (f < 0 || f >= visibleFrames()) {
                return null;
            }
            Frame frame = new Frame((int) f);
            return frame.name().equals(name) ? frame : null;
        }

        @Override
        public List<Node> children() {
            int count = visibleFrames();
            return indexed(count, i -> new Frame(i));
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("format", "g3");
            a.put("frames", index.frames());
            a.put("entries", index.entries());
            a.put("compressed", gzip != null);
            a.put("size", source.channel().size());
            a.put("streamSize", index.nextFrame() + index.tailLength());
            a.put("tailOffset", index.nextFrame());
            a.put("tailLength", index.tailLength());
            a.put("damage", damage());
            a.put("uncommittedTail", uncommittedTail());
            a.put("verify", verify);
            if (gzip != null) {
                gzip.describe(a);
            }
            return a;
        }
    }

    final class Frame extends DirectoryNode {
        final int frame;

        Frame(int frame) {
            this.frame = frame;
        }

        boolean onDisk() {
            return frame < index.frames();
        }

        @Override
        public String name() {
            return frameName(frame);
        }

        @Override
        public Node child(String name) {
            if (!onDisk()) {
                int i = staged.indexOf(name);
                return i < 0 ? null : new StagedKey(i);
            }
            byte[] raw;
            try {
                raw = Names.decode(name);
            } catch (IllegalArgumentException e) {
                return null;
            }
            if (raw != null) {
                int id = index.keyIdOf(raw);
                if (id < 0 || !keyComponent(id).equals(name)) {
                    return null;
                }
                for (int e = index.firstEntry(frame); e < index.endEntry(frame); e++) {
                    if (index.keyId(e) == id) {
                        return new Key(frame, e);
                    }
                }
                return null;
            }
            // a shortened long name: compare encoded forms
            for (int e = index.firstEntry(frame); e < index.endEntry(frame); e++) {
                if (!index.duplicate(e) && Names.component(index.key(e)).equals(name)) {
                    return new Key(frame, e);
                }
            }
            return null;
        }

        /** A frame is appended whole: only the staged frame gains keys (the last one is asked too, to be safe). */
        @Override
        public boolean mayGainChildren() {
            return !onDisk() || frame >= index.frames() - 1;
        }

        @Override
        public List<Node> children() {
            List<Node> out = new ArrayList<>();
            if (!onDisk()) {
                for (int i = 0; i < staged.keys.size(); i++) {
                    out.add(new StagedKey(i));
                }
                return out;
            }
            for (int e = index.firstEntry(frame); e < index.endEntry(frame); e++) {
                if (!index.duplicate(e)) {
                    out.add(new Key(frame, e));
                }
            }
            return out;
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("frame", frame);
            if (!onDisk()) {
                a.put("type", G3FrameTypes.name(staged.typeCode));
                a.put("typeCode", staged.typeCode);
                a.put("staged", true);
                a.put("entries", staged.keys.size());
                return a;
            }
            a.put("type", G3FrameTypes.name(index.frameType(frame)));
            a.put("typeCode", index.frameType(frame));
            a.put("offset", index.frameOffset(frame));
            a.put("length", index.frameLength(frame));
            a.put("endianness", index.bigEndian(frame) ? "big" : "little");
            a.put("version", 1);
            a.put("entries", index.endEntry(frame) - index.firstEntry(frame));
            // unsigned 32-bit values, as spt3g and CRC tools show them
            a.put("crcStored", Integer.toUnsignedLong(index.crcStored(frame)));
            int state = checkFrame(frame);
            a.put("crcComputed", Integer.toUnsignedLong(index.crcComputed(frame)));
            a.put("crcOk", state == 1);
            List<String> dupNames = new ArrayList<>();
            List<Long> dupOffsets = new ArrayList<>();
            for (int e = index.firstEntry(frame); e < index.endEntry(frame); e++) {
                if (index.duplicate(e)) {
                    dupNames.add(Names.component(index.key(e)));
                    dupOffsets.add(index.blobOffset(e));
                }
            }
            a.put("duplicates", dupNames.size());
            // '/' never occurs in an encoded name, so it separates them unambiguously
            a.put("duplicateKeys", String.join("/", dupNames));
            a.put("duplicateBlobOffsets", dupOffsets.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")));
            a.put("staged", false);
            return a;
        }
    }

    final class Key extends FileNode {
        final int frame;
        final int entry;

        Key(int frame, int entry) {
            this.frame = frame;
            this.entry = entry;
        }

        @Override
        public String name() {
            return keyComponent(index.keyId(entry));
        }

        @Override
        public long size() {
            return index.blobLength(entry);
        }

        @Override
        public Content content() {
            Content range = data.range(index.blobOffset(entry), index.blobLength(entry),
                    "G3 blob " + frameName(frame) + "/" + name());
            return new CheckedContent(range, frame);
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            Map<String, Object> a = new LinkedHashMap<>();
            long off = index.blobOffset(entry);
            long len = index.blobLength(entry);
            a.put("key", index.key(entry).clone());
            a.put("offset", off);
            a.put("length", len);
            ByteBuffer head = ByteBuffer.allocate((int) Math.min(len, BlobHeader.MAX_HEADER));
            data.read(head, off);
            BlobHeader h = BlobHeader.parse(head.flip());
            a.put("blobType", h == null ? "" : h.typeName());
            a.put("classVersion", h == null ? -1L : h.classVersion());
            a.put("blobEndianness", h == null ? "" : h.order() == java.nio.ByteOrder.BIG_ENDIAN ? "big" : "little");
            a.put("frame", frame);
            return a;
        }
    }

    /** A key's bytes, readable once its frame's CRC has been checked. */
    private final class CheckedContent implements Content {
        private final Content range;
        private final int frame;

        CheckedContent(Content range, int frame) {
            this.range = range;
            this.frame = frame;
        }

        @Override
        public long size() {
            return range.size();
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            requireGoodCrc(frame);
            return range.read(dst, position);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            requireGoodCrc(frame);
            return range.transferTo(position, count, target);
        }

        /** The blob's range once its frame's CRC is good; none for a bad frame, whose reads fail. */
        @Override
        public ByteRangeContent storedRange() throws IOException {
            try {
                requireGoodCrc(frame);
            } catch (ChecksumMismatchException bad) {
                return null;
            }
            return range.storedRange();
        }
    }

    /** A key file written into the staged frame: its value is in the file already, read from there. */
    final class StagedKey extends FileNode {
        final int i;

        StagedKey(int i) {
            this.i = i;
        }

        @Override
        public String name() {
            return Names.component(staged.keys.get(i));
        }

        @Override
        public long size() {
            return staged.blobLength(i);
        }

        @Override
        public Content content() {
            return new ByteRangeContent(source.channel(), staged.blobOffset(i), staged.blobLength(i),
                    source.name() + " (staged frame " + frameName(index.frames()) + ", key " + name() + ")");
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            Map<String, Object> a = new LinkedHashMap<>();
            long length = staged.blobLength(i);
            a.put("key", staged.keys.get(i).clone());
            a.put("offset", staged.blobOffset(i));
            a.put("length", length);
            ByteBuffer head = ByteBuffer.allocate((int) Math.min(length, BlobHeader.MAX_HEADER));
            source.channel().readFully(head, staged.blobOffset(i));
            BlobHeader h = BlobHeader.parse(head.flip());
            a.put("blobType", h == null ? "" : h.typeName());
            a.put("classVersion", h == null ? -1L : h.classVersion());
            a.put("staged", true);
            return a;
        }
    }

    /** The frame being built: keys in the order their files were written, their values already in the file. */
    static final class StagedFrame {
        final int typeCode;
        /** Where its header is. */
        final long start;
        final List<byte[]> keys = new ArrayList<>();
        /** Offset and length of each key's value. */
        long[] blobs = new long[16];
        /** Where the next entry (or the CRC) goes. */
        long end;
        /** The CRC over the keys and values written so far. */
        int crc;
        /** Why a write into the frame failed; the frame can then never be committed. */
        String failure;

        StagedFrame(int typeCode, long start, long end) {
            this.typeCode = typeCode;
            this.start = start;
            this.end = end;
        }

        void add(byte[] key, long offset, long length) {
            int i = keys.size();
            if (blobs.length < 2 * (i + 1)) {
                blobs = java.util.Arrays.copyOf(blobs, blobs.length * 2);
            }
            blobs[2 * i] = offset;
            blobs[2 * i + 1] = length;
            keys.add(key);
        }

        long blobOffset(int i) {
            return blobs[2 * i];
        }

        long blobLength(int i) {
            return blobs[2 * i + 1];
        }

        int indexOf(String name) {
            for (int i = 0; i < keys.size(); i++) {
                if (Names.component(keys.get(i)).equals(name)) {
                    return i;
                }
            }
            return -1;
        }
    }
}
