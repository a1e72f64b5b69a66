package org.containerfs.scda;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.ByteRangeContent;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.InvalidNameException;
import org.containerfs.spi.Content;
import org.containerfs.spi.DirectoryNode;
import org.containerfs.spi.FileNode;
import org.containerfs.spi.Names;
import org.containerfs.spi.Node;

/**
 * Appends scda sections at the end of the file (libsc has no append mode; appending complete
 * sections to a valid file gives a valid file, since scda has no global fields).
 *
 * <p>Commit protocol, the same for every section and for a compressed pair: the new bytes start at
 * the old end {@code T} with a section header whose type byte is the placeholder {@code '?'}.
 * Everything else is written after it or patched behind it (the B count entry reserved at
 * {@code T+64} and filled at close, the size prefix of encoded text, the N, E, U and E_i entries of
 * arrays). Only when all of it, the data padding included, is in the file is the real type byte
 * written at {@code T}: that one-byte write is the commit point. These patches change bytes of the
 * uncommitted tail only; committed sections are never touched.
 *
 * <p>A writer killed before the commit point leaves a tail starting with {@code "? "} (or a
 * shorter, truncated tail): libsc reads every committed section and then stops with
 * "Invalid file section type" (FORMAT) or a count error (COUNT); our reader lists the committed
 * sections and reports the torn tail; the next append truncates the file back to the end of the
 * last complete section (the torn tail holds nothing committed) and writes there.
 *
 * <p>A and V sections are directories of element files written in order and committed as one
 * section when the next section is created, on {@code Files.setAttribute(dir, "scda:commit", true)}
 * (also accepted on the root), or when the file system closes. Element data streams to disk: A data
 * goes to its final place; V data (and encoded arrays) are spooled in the file behind a fixed
 * reserve and moved up by 32 (64) bytes per element at commit, because the size entries precede the
 * data. B blocks stream with their count entry filled at close.
 */
final class ScdaWriter implements ContainerWriter {
    /** Every section name has this shape: a number, a type letter, an optional user string. */
    private static final java.util.regex.Pattern SECTION_NAME = java.util.regex.Pattern.compile("[0-9]+\\.[A-Za-z](\\..*)?");
    private final ScdaContainer container;
    private final ScdaIndex index;
    private final ContainerChannel channel;
    private final String file;
    private final boolean sync;
    private final boolean mime;
    private final boolean encodeDefault;
    private final int level;
    private FileSink activeFile;
    private PendingArray pending;

    ScdaWriter(ScdaContainer container) {
        this.container = container;
        this.index = container.index();
        this.channel = container.source().channel();
        this.file = container.source().name();
        var o = container.source().options();
        this.sync = o.getBoolean("sync", false);
        this.mime = ScdaFormat.mime(o);
        this.encodeDefault = o.getBoolean("encode", false);
        this.level = (int) o.getLong("encodeLevel", 9);
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException("env encodeLevel must be 0..9, got " + level);
        }
    }

    PendingArray pendingArray() {
        return pending;
    }

    @Override
    public String allowedWrites() {
        String n = Names.indexed("", container.visibleSections(), ScdaContainer.SECTION_WIDTH);
        return "scda files grow by appending sections under the next number " + n + ": a file " + n + ".I.<user string> "
                + "(exactly 32 bytes) or " + n + ".B.<user string>, or a directory " + n + ".A.<user string> or " + n
                + ".V.<user string> of element files 000000, 000001, ... written in order";
    }

    // ---- sections ------------------------------------------------------------------------------

    @Override
    public void createDirectory(Node parent, String name, Map<String, Object> attributes) throws IOException {
        if (!parent.name().isEmpty()) {
            throw new AccessDeniedException(name, null, "sections are created at the root; " + allowedWrites());
        }
        ensureNoOpenFile(name);
        char type = parseType(name);
        byte[] user = parseUser(name, type);
        if (type != 'A' && type != 'V') {
            throw new AccessDeniedException(name, null, "I and B sections are files, not directories; " + allowedWrites());
        }
        boolean encode = encode(name, attributes);
        long elementSize = -1;
        Object es = attributes.get("scda:elementSize");
        if (es != null) {
            if (type != 'A') {
                throw new AccessDeniedException(name, null, "scda:elementSize applies to A sections only");
            }
            try {
                elementSize = es instanceof Number num ? num.longValue() : Long.parseLong(es.toString().trim());
            } catch (NumberFormatException e) {
                elementSize = -1;
            }
            if (elementSize < 0) {
                throw new AccessDeniedException(name, null, "scda:elementSize must be a byte count (0 or more), got " + es);
            }
        }
        if (!encode && type == 'A' && Arrays.equals(user, ScdaSyntax.MAGIC_VARRAY)) {
            throw reserved(name, user);
        }
        commitPending();
        long start = prepareTail();
        pending = new PendingArray(index.logicals(), type, user, encode, elementSize, start);
    }

    @Override
    public void checkNewFile(Node parent, String name, Map<String, Object> attributes) throws IOException {
        if (pending != null && parent == pending) {
            pending.checkElement(name);
            return;
        }
        plannedSection(parent, name, attributes);
    }

    /** A file section (I or B) the container can take next. */
    private record PlannedSection(char type, byte[] user, boolean encode) {}

    /** What {@code name} at the root would be as the next file section; refused if it cannot be one. */
    private PlannedSection plannedSection(Node parent, String name, Map<String, Object> attributes) throws IOException {
        if (!parent.name().isEmpty()) {
            throw new AccessDeniedException(name, null, "elements are written into the last, uncommitted array section "
                    + (pending == null ? "(none is open)" : pending.name()) + "; " + allowedWrites());
        }
        char type = parseType(name);
        byte[] user = parseUser(name, type);
        if (type != 'I' && type != 'B') {
            throw new AccessDeniedException(name, null, "A and V sections are directories (create the directory, then "
                    + "its element files); " + allowedWrites());
        }
        boolean encode = encode(name, attributes);
        if (type == 'I' && encode) {
            throw new AccessDeniedException(name, null, "the compression convention covers B, A and V sections, not I");
        }
        if (type == 'I' && (Arrays.equals(user, ScdaSyntax.MAGIC_BLOCK) || Arrays.equals(user, ScdaSyntax.MAGIC_ARRAY))) {
            throw reserved(name, user);
        }
        return new PlannedSection(type, user, encode);
    }

    @Override
    public WritableByteChannel createFile(Node parent, String name, Map<String, Object> attributes) throws IOException {
        if (pending != null && parent == pending) {
            return pending.createElement(name);
        }
        if (parent.name().isEmpty()) {
            ensureNoOpenFile(name);
        }
        PlannedSection section = plannedSection(parent, name, attributes);
        commitPending();
        long start = prepareTail();
        activeFile = new FileSink(name, section.type(), section.user(), section.encode(), start);
        return activeFile;
    }

    @Override
    public void setAttribute(Node node, String attribute, Object value) throws IOException {
        if (attribute.equals("commit") && (node.name().isEmpty() || node == pending)) {
            if (!Boolean.TRUE.equals(value) && !"true".equals(String.valueOf(value))) {
                throw new IllegalArgumentException("scda:commit takes the value true");
            }
            commitPending();
            return;
        }
        throw new AccessDeniedException(node.name(), null, "only scda:commit=true can be set (on the root or the open "
                + "array section); " + allowedWrites());
    }

    @Override
    public void close() throws IOException {
        if (activeFile != null) {
            activeFile.close();
        }
        commitPending();
    }

    private void ensureNoOpenFile(String name) throws IOException {
        if (activeFile != null) {
            throw new IOException(file + ": section " + activeFile.name + " is still being written; close it before "
                    + "creating " + name + " (sections are appended one at a time)");
        }
    }

    private AccessDeniedException reserved(String name, byte[] user) {
        return new AccessDeniedException(name, null, "the user string \"" + new String(user, java.nio.charset.StandardCharsets.US_ASCII)
                + "\" on this section type is reserved by the compression convention (use scda:encode=true)");
    }

    private boolean encode(String name, Map<String, Object> attributes) throws AccessDeniedException {
        Object v = attributes.get("scda:encode");
        boolean encode = v == null ? encodeDefault : Boolean.parseBoolean(v.toString());
        if (encode && !index.decode) {
            throw new AccessDeniedException(name, null, "compressed sections are written through the decoded view "
                    + "(this file system was opened with decode=false)");
        }
        for (String k : attributes.keySet()) {
            if (!k.equals("scda:encode") && !k.equals("scda:elementSize")) {
                throw new AccessDeniedException(name, null, "unknown attribute " + k + " (scda:encode, scda:elementSize)");
            }
        }
        return encode;
    }

    /** The type letter of a canonical next-section name. */
    private char parseType(String name) throws AccessDeniedException {
        if (!SECTION_NAME.matcher(name).matches()) {
            throw new InvalidNameException(name, "scda sections are named NN.<T> or NN.<T>.<user string> (the "
                    + "section's number and type letter); " + allowedWrites());
        }
        String n = Names.indexed("", container.visibleSections(), ScdaContainer.SECTION_WIDTH);
        if (!name.startsWith(n + ".") || name.length() < n.length() + 2
                || (name.length() > n.length() + 2 && name.charAt(n.length() + 2) != '.')) {
            throw new AccessDeniedException(name, null, "the next section is " + n + ".<T>.<user string>; " + allowedWrites());
        }
        char t = name.charAt(n.length() + 1);
        if (t != 'I' && t != 'B' && t != 'A' && t != 'V') {
            throw new InvalidNameException(name, "section types are I, B, A and V; " + allowedWrites());
        }
        return t;
    }

    private byte[] parseUser(String name, char type) throws AccessDeniedException {
        String n = Names.indexed("", container.visibleSections(), ScdaContainer.SECTION_WIDTH);
        String rest = name.length() > n.length() + 2 ? name.substring(n.length() + 3) : "";
        byte[] user;
        try {
            user = rest.isEmpty() ? new byte[0] : Names.decode(rest);
        } catch (IllegalArgumentException e) {
            throw new InvalidNameException(name, "malformed %-escape in the user string");
        }
        if (user == null) {
            throw new InvalidNameException(name, "a shortened name (with %%) cannot be written");
        }
        if (user.length > ScdaSyntax.MAX_USER) {
            throw new InvalidNameException(name, "scda user strings have at most 58 bytes; this one has " + user.length);
        }
        String canonical = ScdaContainer.sectionName(container.visibleSections(), type, user);
        if (!canonical.equals(name)) {
            throw new InvalidNameException(name, "not the canonical name of that user string: use " + canonical);
        }
        return user;
    }

    /** Where the new section goes: the end of the last complete section, after removing a torn tail. */
    private long prepareTail() throws IOException {
        ContainerFormatException damage = index.damage();
        long next = index.next();
        if (damage != null) {
            if (!index.tornTail()) {
                throw new ContainerFormatException(file, damage.offset(), "refusing to append after damage",
                        "a file that ends on a section boundary before appending", damage.getMessage());
            }
            // A truncated last section or our '?' placeholder: nothing in it was committed.
            channel.truncate(next);
            index.scan(channel);
        }
        if (channel.size() != next) {
            throw new ContainerFormatException(file, next, null, "the file to end on the section boundary at byte " + next,
                    "a file of " + channel.size() + " bytes");
        }
        return next;
    }

    private byte[] header(char type, byte[] user) {
        byte[] h = new byte[ScdaSyntax.COMMON_HEADER];
        h[0] = (byte) type;
        h[1] = ' ';
        System.arraycopy(ScdaSyntax.fixedField(user, ScdaSyntax.USER_FIELD, mime), 0, h, 2, ScdaSyntax.USER_FIELD);
        return h;
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** Writes the real type byte at {@code start}: the commit point. */
    private void commitAt(long start, char type) throws IOException {
        if (sync) {
            channel.force(false);
        }
        channel.writeFully(ByteBuffer.wrap(new byte[] {(byte) type}), start);
        if (sync) {
            channel.force(false);
        }
        index.scan(channel);
        if (index.damage() != null) {
            throw new IOException(file + ": the section committed at byte " + start + " does not read back: "
                    + index.damage().getMessage());
        }
    }

    private void commitPending() throws IOException {
        if (pending != null) {
            PendingArray p = pending;
            p.commit();
            pending = null;
        }
    }

    // ---- I and B ------------------------------------------------------------------------------

    private final class FileSink implements WritableByteChannel {
        final String name;
        private final char type;
        private final byte[] user;
        private final boolean encode;
        private final long start;
        private final byte[] inline = new byte[ScdaSyntax.INLINE_DATA];
        private int inlineLength;
        private TailOutput out;
        private Encoder encoder;
        private boolean open = true;

        FileSink(String name, char type, byte[] user, boolean encode, long start) throws IOException {
            this.name = name;
            this.type = type;
            this.user = user;
            this.encode = encode;
            this.start = start;
            if (type == 'B' && !encode) {
                channel.writeFully(ByteBuffer.wrap(concat(header('?', user), ScdaSyntax.countEntry('E', 0, mime))), start);
                out = new TailOutput(channel, start + 96);
            } else if (type == 'B') {
                channel.writeFully(ByteBuffer.wrap(concat(header('?', ScdaSyntax.MAGIC_BLOCK),
                        ScdaSyntax.countEntry('U', 0, mime), header('B', user), ScdaSyntax.countEntry('E', 0, mime))), start);
                out = new TailOutput(channel, start + 192);
                encoder = new Encoder(out, level, mime);
            }
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            int n = src.remaining();
            if (type == 'I') {
                if (inlineLength + n > inline.length) {
                    throw new IOException(file + ": an inline section " + name + " holds exactly 32 bytes; "
                            + (inlineLength + n) + " were written");
                }
                src.get(inline, inlineLength, n);
                inlineLength += n;
            } else if (encoder != null) {
                encoder.write(src);
            } else {
                out.write(src);
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() throws IOException {
            if (!open) {
                return;
            }
            open = false;
            activeFile = null;
            if (type == 'I') {
                if (inlineLength != inline.length) {
                    throw new IOException(file + ": an inline section " + name + " holds exactly 32 bytes; only "
                            + inlineLength + " were written, so nothing was appended");
                }
                channel.writeFully(ByteBuffer.wrap(concat(header('?', user), inline)), start);
                commitAt(start, 'I');
                return;
            }
            if (encoder == null) {
                long e = out.written();
                out.write(ScdaSyntax.dataPadding(e, out.last(), mime), 0, ScdaSyntax.padLength(e));
                out.flush();
                channel.writeFully(ByteBuffer.wrap(ScdaSyntax.countEntry('E', e, mime)), start + 64);
                commitAt(start, 'B');
                return;
            }
            long e = encoder.finish();
            long u = encoder.uncompressed();
            out.write(ScdaSyntax.dataPadding(e, '\n', mime), 0, ScdaSyntax.padLength(e));
            out.flush();
            channel.writeFully(ByteBuffer.wrap(Encoder.prefixText(u)), start + 192);
            channel.writeFully(ByteBuffer.wrap(ScdaSyntax.countEntry('E', e, mime)), start + 96 + 64);
            channel.writeFully(ByteBuffer.wrap(ScdaSyntax.countEntry('U', u, mime)), start + 64);
            commitAt(start, 'I');
        }
    }

    // ---- A and V -------------------------------------------------------------------------------

    /** A growable list of longs (element sizes). */
    private static final class Longs {
        long[] a = new long[64];
        int n;

        void add(long v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }
    }

    /** The open array section: a directory node of the tree until it is committed. */
    final class PendingArray extends DirectoryNode {
        private final int logical;
        private final char type;
        private final byte[] user;
        private final boolean encode;
        private long elementSize;
        private final long start;
        private final long spoolStart;
        private final TailOutput out;
        private final Longs stored = new Longs();
        private final Longs shown = new Longs();
        private final Longs offsets = new Longs();
        private int lastByte = -1;
        private ElementSink active;
        /** How far the spooled data moved at commit (guarded by this). */
        private long movedBy;

        PendingArray(int logical, char type, byte[] user, boolean encode, long elementSize, long start) throws IOException {
            this.logical = logical;
            this.type = type;
            this.user = user;
            this.encode = encode;
            this.elementSize = elementSize;
            this.start = start;
            long reserve;
            if (!encode) {
                reserve = type == 'A' ? 128 : 96;
            } else {
                reserve = type == 'A' ? 192 : 256;
            }
            this.spoolStart = start + reserve;
            byte[] first = encode ? (type == 'A' ? ScdaSyntax.MAGIC_ARRAY : ScdaSyntax.MAGIC_VARRAY) : user;
            byte[] placeholder = new byte[(int) reserve];
            System.arraycopy(header('?', first), 0, placeholder, 0, 64);
            channel.writeFully(ByteBuffer.wrap(placeholder), start);
            this.out = new TailOutput(channel, spoolStart);
        }

        private long plainElements;

        @Override
        public String name() {
            return ScdaContainer.sectionName(logical, type, user);
        }

        @Override
        public Node child(String name) {
            long i = Names.parseIndexed(name, "", ScdaContainer.ELEMENT_WIDTH);
            return i >= 0 && i < elements() ? new PendingElement((int) i) : null;
        }

        int elements() {
            return (!encode && type == 'A') ? (int) plainElements : stored.n;
        }

        @Override
        public List<Node> children() {
            int n = elements();
            return indexed(n, i -> new PendingElement(i));
        }

        @Override
        public Map<String, Object> attributes() {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("type", String.valueOf(type));
            a.put("userString", user.clone());
            a.put("index", logical);
            a.put("count", (long) elements());
            if (type == 'A') {
                a.put("elementSize", elementSize);
            }
            a.put("headerOffset", start);
            a.put("compressed", encode);
            a.put("pending", true);
            return a;
        }

        /** Refuses a name that is not this section's next element. */
        void checkElement(String name) throws AccessDeniedException {
            String expected = ScdaContainer.elementName(elements());
            if (!name.equals(expected)) {
                throw new AccessDeniedException(name, null, "the next element of " + name() + " is " + expected);
            }
        }

        WritableByteChannel createElement(String name) throws IOException {
            if (active != null) {
                throw new IOException(file + ": element " + active.name + " of " + name() + " is still being written; "
                        + "close it first (elements are written one at a time, in order)");
            }
            checkElement(name);
            active = new ElementSink(name);
            return active;
        }

        /** Element i: offset relative to the spool start, stored length, shown size. */
        long[] element(int i) {
            if (!encode && type == 'A') {
                return new long[] {i * elementSize, elementSize, elementSize};
            }
            return new long[] {offsets.a[i], stored.a[i], shown.a[i]};
        }

        void commit() throws IOException {
            if (active != null) {
                active.close();
            }
            int n = elements();
            long s = out.written();
            long shift = switch (type) {
                case 'A' -> encode ? 32L * n : 0;
                default -> (encode ? 64L : 32L) * n;
            };
            if (shift > 0 && s > 0) {
                // readers of this section's elements (channels opened before the commit) wait for
                // the move and then follow the data to its new place
                synchronized (this) {
                    moveUp(spoolStart, s, shift);
                    movedBy = shift;
                }
            }
            long dataStart = spoolStart + shift;
            int last = encode ? '\n' : lastByte;
            channel.writeFully(ByteBuffer.wrap(ScdaSyntax.dataPadding(s, last, mime)), dataStart + s);
            TailOutput h = new TailOutput(channel, start);
            long e = Math.max(elementSize, 0);
            if (!encode && type == 'A') {
                writeAll(h, header('?', user), ScdaSyntax.countEntry('N', n, mime), ScdaSyntax.countEntry('E', e, mime));
            } else if (!encode) {
                writeAll(h, header('?', user), ScdaSyntax.countEntry('N', n, mime));
                entries(h, 'E', stored, n);
            } else if (type == 'A') {
                writeAll(h, header('?', ScdaSyntax.MAGIC_ARRAY), ScdaSyntax.countEntry('U', e, mime));
                writeAll(h, header('V', user), ScdaSyntax.countEntry('N', n, mime));
                entries(h, 'E', stored, n);
            } else {
                writeAll(h, header('?', ScdaSyntax.MAGIC_VARRAY), ScdaSyntax.countEntry('N', n, mime),
                        ScdaSyntax.countEntry('E', 32, mime));
                entries(h, 'U', shown, n);
                writeAll(h, ScdaSyntax.dataPadding(32L * n, '\n', mime));
                writeAll(h, header('V', user), ScdaSyntax.countEntry('N', n, mime));
                entries(h, 'E', stored, n);
            }
            h.flush();
            if (h.position() != dataStart) {
                throw new IllegalStateException("scda writer: header ends at " + h.position() + ", data at " + dataStart);
            }
            char commitType;
            if (!encode) {
                commitType = type;
            } else {
                commitType = type == 'A' ? 'I' : 'A';
            }
            commitAt(start, commitType);
        }

        private void writeAll(TailOutput h, byte[]... parts) throws IOException {
            for (byte[] p : parts) {
                h.write(p, 0, p.length);
            }
        }

        private void entries(TailOutput h, char ident, Longs values, int n) throws IOException {
            for (int i = 0; i < n; i++) {
                byte[] e = ScdaSyntax.countEntry(ident, values.a[i], mime);
                h.write(e, 0, e.length);
            }
        }

        /** Moves {@code [from, from+length)} up by {@code shift} bytes, last chunk first (the ranges overlap). */
        private void moveUp(long from, long length, long shift) throws IOException {
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(1 << 20, length));
            long end = length;
            while (end > 0) {
                long s = Math.max(0, end - buf.capacity());
                buf.clear().limit((int) (end - s));
                channel.readFully(buf, from + s);
                buf.flip();
                channel.writeFully(buf, from + s + shift);
                end = s;
            }
        }

        private final class ElementSink implements WritableByteChannel {
            final String name;
            private final long startWritten = out.written();
            private final Encoder encoder;
            private long written;
            private boolean open = true;

            ElementSink(String name) throws IOException {
                this.name = name;
                this.encoder = encode ? new Encoder(out, level, mime) : null;
            }

            @Override
            public int write(ByteBuffer src) throws IOException {
                if (!open) {
                    throw new ClosedChannelException();
                }
                int n = src.remaining();
                if (type == 'A' && elementSize >= 0 && written + n > elementSize) {
                    throw new IOException(file + ": elements of " + name() + " have " + elementSize + " bytes; element "
                            + name + " would get " + (written + n));
                }
                if (encoder != null) {
                    encoder.write(src);
                } else {
                    out.write(src);
                }
                written += n;
                return n;
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() throws IOException {
                if (!open) {
                    return;
                }
                open = false;
                active = null;
                long storedLength = encoder != null ? encoder.finish() : out.written() - startWritten;
                out.flush();
                if (type == 'A' && elementSize >= 0 && written != elementSize) {
                    // roll the spool back: the element never happened
                    channel.truncate(spoolStart + startWritten);
                    out.rewind(startWritten, lastByte);
                    throw new IOException(file + ": elements of " + name() + " have " + elementSize + " bytes; element "
                            + name + " got " + written + " and was not added");
                }
                if (encoder != null) {
                    channel.writeFully(ByteBuffer.wrap(Encoder.prefixText(written)), spoolStart + startWritten);
                }
                if (type == 'A' && elementSize < 0) {
                    elementSize = written;
                }
                if (storedLength > 0) {
                    lastByte = out.last();
                }
                if (!encode && type == 'A') {
                    plainElements++;
                } else {
                    offsets.add(startWritten);
                    stored.add(storedLength);
                    shown.add(written);
                }
            }
        }

        private final class PendingElement extends FileNode {
            private final int i;

            PendingElement(int i) {
                this.i = i;
            }

            @Override
            public String name() {
                return ScdaContainer.elementName(i);
            }

            @Override
            public long size() {
                return element(i)[2];
            }

            @Override
            public Content content() {
                long[] e = element(i);
                String label = "uncommitted scda section " + PendingArray.this.name() + "/" + name();
                return new Content() {
                    private long base = -1;
                    private Content delegate;

                    @Override
                    public long size() {
                        return e[2];
                    }

                    @Override
                    public int read(ByteBuffer dst, long position) throws IOException {
                        // under the section's monitor: the commit's move cannot run under this read
                        synchronized (PendingArray.this) {
                            long now = spoolStart + movedBy + e[0];
                            if (now != base) {
                                base = now;
                                delegate = encode ? new DecodedContent(channel, now, e[1], e[2], index.lenient, label)
                                        : new ByteRangeContent(channel, now, e[1], label);
                            }
                            return delegate.read(dst, position);
                        }
                    }
                };
            }

            @Override
            public Map<String, Object> attributes() {
                Map<String, Object> a = new LinkedHashMap<>();
                a.put("type", "element");
                a.put("index", (long) i);
                a.put("section", logical);
                a.put("size", element(i)[2]);
                a.put("pending", true);
                return a;
            }
        }
    }
}
