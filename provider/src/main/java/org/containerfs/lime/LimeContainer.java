package org.containerfs.lime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 * The LIME tree {@code /msgNN/recNN.<type>}: nodes are made on demand from {@link LimeIndex}, so
 * the heap holds only the index arrays, whatever the record count.
 */
final class LimeContainer implements Container {
    static final String MESSAGE_PREFIX = "msg";
    static final String RECORD_PREFIX = "rec";
    static final int WIDTH = 2;

    private final ContainerSource source;
    private final LimeIndex index;
    /** A message directory created by mkdir that has no record yet: LIME has no empty messages on disk. */
    private boolean pendingMessage;

    LimeContainer(ContainerSource source) throws IOException {
        this.source = source;
        this.index = new LimeIndex(source.name());
        index.scan(source.channel(), source.strict());
        index.trim();
    }

    private LimeContainer(ContainerSource source, LimeIndex index) {
        this.source = source;
        this.index = index;
    }

    /** From an index snapshot of the first {@code covered} bytes, then a scan of what follows; null if it cannot serve. */
    static LimeContainer fromSnapshot(ContainerSource source, ByteBuffer snapshot, long covered) throws IOException {
        LimeIndex index = new LimeIndex(source.name());
        if (!index.importSnapshot(snapshot, covered, source.strict())) {
            return null;
        }
        if (source.channel().size() != covered) {
            index.scan(source.channel(), source.strict()); // records appended since the snapshot
        }
        index.trim();
        return new LimeContainer(source, index);
    }

    /** The index's arrays (36 bytes a record, 4 a message, as allocated) and its distinct types. */
    @Override
    public long indexMemoryBytes() {
        return index.memoryBytes();
    }

    @Override
    public byte[] exportIndex() {
        return index.exportSnapshot();
    }

    LimeIndex index() {
        return index;
    }

    ContainerSource source() {
        return source;
    }

    boolean pendingMessage() {
        return pendingMessage;
    }

    void setPendingMessage(boolean pending) {
        this.pendingMessage = pending;
    }

    /** Messages as the tree shows them: the ones on disk plus a pending empty one. */
    int visibleMessages() {
        return index.messages() + (pendingMessage ? 1 : 0);
    }

    @Override
    public Node root() {
        return new Root();
    }

    @Override
    public boolean refresh() throws IOException {
        int before = index.records();
        index.scan(source.channel(), false);
        return index.records() != before;
    }

    /** A zero (reserved) header or a partial one at the end: a writer's commit may turn it into a record in place. */
    @Override
    public boolean hasIncompleteTail() {
        return index.damage() != null && index.tailIsUncommitted();
    }

    /**
     * Whether the tail is an append that never reached its commit point, so no committed byte is lost:
     * the zero header a writer reserves before the payload (all of it, or the first bytes of that write).
     * Other bytes after the last record (a cut header, junk) are damage, even where c-lime ignores them.
     */
    private boolean tailIsUncommittedAppend() throws IOException {
        if (index.damage() == null || !index.tailIsUncommitted()) {
            return false;
        }
        long n = index.tailBytes();
        if (n >= LimeHeader.SIZE) {
            return true; // the scan found the reserved zero header
        }
        ByteBuffer partial = ByteBuffer.allocate((int) n);
        source.channel().readUpTo(partial, index.nextHeader());
        for (int i = 0; i < partial.position(); i++) {
            if (partial.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public ContainerWriter openWriter() throws IOException {
        return new LimeWriter(this);
    }

    static String messageName(int message) {
        return Names.indexed(MESSAGE_PREFIX, message + 1L, WIDTH);
    }

    String recordName(int record, int positionInMessage) {
        EncodedType type = encodedType(record);
        // Same result as Names.prefixed(prefix, type), without re-encoding the type for every name.
        if (!type.fitsAnyPrefix()) {
            return Names.prefixed(Names.indexed(RECORD_PREFIX, positionInMessage + 1L, WIDTH), index.type(record));
        }
        String[] cached = positionInMessage < CACHED_POSITIONS ? type.names(index.typeId(record)) : null;
        if (cached != null && cached[positionInMessage] != null) {
            return cached[positionInMessage];
        }
        String name = Names.indexed(RECORD_PREFIX, positionInMessage + 1L, WIDTH, type.suffix);
        if (cached != null) {
            cached[positionInMessage] = name;
        }
        return name;
    }

    /**
     * Record names are made once per (type, position in message) below these bounds: a file of a
     * million records has a handful of distinct names (rec01.<type> ... rec10.<type>), and a listing
     * formatting each again was most of its time. Bounded so a hostile file with many types or long
     * messages keeps the cache small (at most 64 x 256 names).
     */
    private static final int CACHED_POSITIONS = 256;

    /** The last message's names (of at most {@link #SHARED_NAMES} records) and its records' type ids, made whole before they are shared. */
    private record SharedNames(int[] typeIds, List<String> names) {}

    private static final int SHARED_NAMES = 256;
    private volatile SharedNames lastNames;
    private static final int CACHED_TYPES = 64;

    /**
     * Whether {@code name}, whose first {@code prefixEnd} characters are already known to be this
     * record's canonical {@code recNN}, is the record's name: compared in place, since every lookup
     * (a walk asks one per file) would otherwise make the name to compare with.
     */
    boolean isRecordName(int record, int positionInMessage, String name, int prefixEnd) {
        EncodedType type = encodedType(record);
        if (!type.fitsAnyPrefix()) {
            return recordName(record, positionInMessage).equals(name);
        }
        return name.length() - prefixEnd == type.suffix.length() && name.startsWith(type.suffix, prefixEnd);
    }

    private EncodedType encodedType(int record) {
        int typeId = index.typeId(record);
        EncodedType[] cache = encodedTypes;
        if (typeId >= cache.length) {
            cache = Arrays.copyOf(cache, index.typeCount());
            encodedTypes = cache;
        }
        EncodedType type = cache[typeId];
        if (type == null) {
            type = new EncodedType(index.type(record));
            cache[typeId] = type;
        }
        return type;
    }

    /**
     * A distinct record type encoded once: names are made on every lookup and listing, and a
     * container has a handful of types for up to millions of records. Racing threads may both fill a
     * slot with equal values, which is harmless.
     */
    private volatile EncodedType[] encodedTypes = new EncodedType[0];

    private static final class EncodedType {
        /** ".<encoded type>", "" for an empty type, or null if the encoded type alone is too long. */
        final String suffix;
        final int suffixBytes;

        EncodedType(byte[] raw) {
            if (raw.length == 0) {
                suffix = "";
                suffixBytes = 0;
                return;
            }
            String encoded = "." + Names.encodeBytes(raw);
            int bytes = encoded.getBytes(StandardCharsets.UTF_8).length;
            suffix = bytes <= Names.MAX_COMPONENT_BYTES ? encoded : null;
            suffixBytes = bytes;
        }

        /** Whether "rec" and any record number (up to 10 digits) plus this suffix stay within a component. */
        boolean fitsAnyPrefix() {
            return suffix != null && RECORD_PREFIX.length() + 10 + suffixBytes <= Names.MAX_COMPONENT_BYTES;
        }

        /** The cache of this type's names by position, made on first use; null if the type is not cached. */
        String[] names(int typeId) {
            String[] n = names;
            if (n == null && typeId < CACHED_TYPES) {
                n = new String[CACHED_POSITIONS];
                names = n; // racing threads may each make one: both hold equal names
            }
            return n;
        }

        /** Names by position in the message (racy fills of equal immutable Strings are harmless). */
        private volatile String[] names;
    }

    private final class Root extends DirectoryNode implements ChildSizes {
        @Override
        public String name() {
            return "";
        }

        @Override
        public Node child(String name) {
            long m = Names.parseIndexed(name, MESSAGE_PREFIX, WIDTH);
            return m >= 1 && m <= visibleMessages() ? new Message((int) m - 1) : null;
        }

        @Override
        public List<Node> children() {
            return indexed(visibleMessages(), Message::new);
        }

        /** Every child is a directory. */
        @Override
        public void childSizes(int from, long[] sizes) {
            java.util.Arrays.fill(sizes, -1);
        }

        /** Message names are their numbers spelled: no node per message for a listing. */
        @Override
        public List<String> childNames() {
            return indexedNames(visibleMessages(), LimeContainer::messageName);
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("format", "lime");
            a.put("version", 1);
            a.put("records", index.records());
            a.put("messages", index.messages());
            a.put("trailingBytes", index.tailBytes());
            boolean uncommitted = tailIsUncommittedAppend();
            a.put("damage", index.damage() == null || uncommitted ? "" : index.damage());
            a.put("uncommittedTail", uncommitted ? index.damage() : "");
            a.put("size", source.channel().size());
            return a;
        }
    }

    final class Message extends DirectoryNode implements ChildSizes {
        final int message;

        Message(int message) {
            this.message = message;
        }

        boolean onDisk() {
            return message < index.messages();
        }

        int first() {
            return onDisk() ? index.messageFirst(message) : index.records();
        }

        int end() {
            return onDisk() ? index.messageEnd(message) : index.records();
        }

        @Override
        public String name() {
            return messageName(message);
        }

        @Override
        public Node child(String name) {
            if (!name.startsWith(RECORD_PREFIX)) {
                return null;
            }
            int dot = name.indexOf('.');
            long r = Names.parseIndexed(name, dot < 0 ? name.length() : dot, RECORD_PREFIX, WIDTH);
            if (r < 1 || r > end() - first()) {
                return null;
            }
            Record rec = new Record(first() + (int) r - 1, (int) r - 1, message);
            return isRecordName(rec.record, rec.position, name, dot < 0 ? name.length() : dot) ? rec : null;
        }

        @Override
        public List<Node> children() {
            int first = first();
            return indexed(end() - first, i -> new Record(first + i, i, message));
        }

        /**
         * A record's name depends only on its type and position, so a message whose records have the types of the
         * last message listed, in the same order, takes that message's names: files of many messages repeat one
         * pattern (a walk of 10^5 messages spelled 10^6 names to make 10 distinct lists).
         */
        @Override
        public List<String> childNames() {
            int first = first();
            int count = end() - first;
            SharedNames last = lastNames;
            if (last != null && last.typeIds.length == count && index.hasTypeIds(first, last.typeIds)) {
                return last.names;
            }
            String[] names = new String[count];
            for (int i = 0; i < count; i++) {
                names[i] = recordName(first + i, i);
            }
            List<String> list = List.of(names);
            if (count <= SHARED_NAMES) {
                lastNames = new SharedNames(index.typeIds(first, count), list);
            }
            return list;
        }

        @Override
        public void childSizes(int from, long[] sizes) {
            int first = first() + from;
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = index.length(first + i); // as Record.size()
            }
        }

        /** Appends add records to the last message only (an MB record starts a new one): earlier messages are complete. */
        @Override
        public boolean mayGainChildren() {
            return message >= index.messages() - 1;
        }

        @Override
        public Map<String, Object> attributes() {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("message", message + 1);
            a.put("records", end() - first());
            a.put("pending", !onDisk());
            return a;
        }
    }

    final class Record extends FileNode {
        final int record;
        final int position;
        final int message;

        Record(int record, int position, int message) {
            this.record = record;
            this.position = position;
            this.message = message;
        }

        @Override
        public String name() {
            return recordName(record, position);
        }

        @Override
        public long size() {
            return index.length(record);
        }

        @Override
        public Content content() {
            return ByteRangeContent.stored(source.channel(), index.headerOffset(record) + LimeHeader.SIZE,
                    index.length(record), "LIME record " + messageName(message) + "/" + name());
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            long length = index.length(record);
            long header = index.headerOffset(record);
            int flags = index.flags(record);
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("type", index.type(record).clone());
            a.put("mb", (flags & LimeHeader.MB) != 0);
            a.put("me", (flags & LimeHeader.ME) != 0);
            a.put("version", 1);
            a.put("length", length);
            a.put("padding", LimeHeader.padding(length));
            a.put("headerOffset", header);
            a.put("dataOffset", header + LimeHeader.SIZE);
            a.put("truncated", length > source.channel().size() - header - LimeHeader.SIZE);
            a.put("message", message + 1);
            a.put("record", position + 1);
            return a;
        }
    }
}
