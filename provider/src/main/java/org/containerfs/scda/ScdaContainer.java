package org.containerfs.scda;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.ByteRangeContent;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.Content;
import org.containerfs.spi.DirectoryNode;
import org.containerfs.spi.FileNode;
import org.containerfs.spi.Names;
import org.containerfs.spi.Node;

/**
 * The scda tree {@code /NNNN.<T>.<user string>}: I and B sections are files, A and V sections are
 * directories of element files {@code NNNNNN}. A compressed pair is one logical section shown
 * decoded (env {@code decode=false}: every raw section on its own). Nodes are flyweights over
 * {@link ScdaIndex}.
 */
final class ScdaContainer implements Container {
    static final int SECTION_WIDTH = 4;
    static final int ELEMENT_WIDTH = 6;

    private final ContainerSource source;
    private final ScdaIndex index;
    private ScdaWriter writer;

    ScdaContainer(ContainerSource source) throws IOException {
        this.source = source;
        boolean lenient = source.options().getBoolean("lenient", false);
        boolean decode = source.options().getBoolean("decode", true);
        this.index = new ScdaIndex(source.name(), lenient, decode);
        index.scan(source.channel());
        index.trim();
        ContainerFormatException damage = index.damage();
        if (damage != null && source.strict() && !(damage instanceof UncommittedSectionException)) {
            throw damage;
        }
    }

    ScdaIndex index() {
        return index;
    }

    ContainerSource source() {
        return source;
    }

    @Override
    public Node root() {
        return new Root();
    }

    @Override
    public boolean refresh() throws IOException {
        int before = index.logicals();
        long next = index.next();
        index.scan(source.channel());
        return index.logicals() != before || index.next() != next;
    }

    /**
     * A torn tail may be a section in progress: its commit turns the type byte from '?' into the type
     * in place, without growing the file, so the core must look again at equal size.
     */
    @Override
    public boolean hasIncompleteTail() {
        return index.tornTail();
    }

    @Override
    public ContainerWriter openWriter() throws IOException {
        if (writer == null) {
            writer = new ScdaWriter(this);
        }
        return writer;
    }

    static String sectionName(int index, char type, byte[] user) {
        return Names.prefixed(Names.indexed("", index, SECTION_WIDTH) + "." + type, user);
    }

    static String elementName(long i) {
        return Names.indexed("", i, ELEMENT_WIDTH);
    }

    /** Sections the tree shows: the committed ones plus the writer's open array section. */
    int visibleSections() {
        return index.logicals() + (writer != null && writer.pendingArray() != null ? 1 : 0);
    }

    Node section(int l) {
        if (l < index.logicals()) {
            return new Section(l);
        }
        return writer.pendingArray();
    }

    private String label(int l) {
        return "scda section " + sectionName(l, index.type(l), index.user(l));
    }

    private final class Root extends DirectoryNode {
        @Override
        public String name() {
            return "";
        }

        @Override
        public Node child(String name) {
            int dot = name.indexOf('.');
            long l = Names.parseIndexed(dot < 0 ? name : name.substring(0, dot), "", SECTION_WIDTH);
            if (l < 0 || l >= visibleSections()) {
                return null;
            }
            Node n = section((int) l);
            return n.name().equals(name) ? n : null;
        }

        @Override
        public List<Node> children() {
            int count = visibleSections();
            return indexed(count, i -> section(i));
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            ContainerFormatException d = index.damage();
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("format", "scda");
            a.put("magic", "scdata0");
            a.put("version", 0xa0);
            a.put("vendor", index.vendor.clone());
            a.put("userString", index.userString.clone());
            a.put("sections", index.logicals());
            a.put("rawSections", index.raws());
            a.put("decode", index.decode);
            a.put("lenient", index.lenient);
            a.put("size", source.channel().size());
            a.put("end", index.next());
            // a '?' section is an append that did not reach its commit point: no committed byte is lost
            boolean uncommitted = d instanceof UncommittedSectionException;
            a.put("damage", d == null || uncommitted ? "" : d.getMessage());
            a.put("uncommittedTail", uncommitted ? d.getMessage() : "");
            a.put("damageOffset", d == null ? -1L : d.offset());
            a.put("tornTail", index.tornTail());
            return a;
        }
    }

    final class Section implements Node {
        final int l;

        Section(int l) {
            this.l = l;
        }

        @Override
        public String name() {
            return sectionName(l, index.type(l), index.user(l));
        }

        @Override
        public boolean isDirectory() {
            char t = index.type(l);
            return t == 'A' || t == 'V';
        }

        @Override
        public long size() {
            if (isDirectory()) {
                return 0;
            }
            return index.compressed(l) ? index.uncompressed(l) : index.rawDataLength(index.dataRaw(l));
        }

        @Override
        public Node child(String name) throws IOException {
            long i = Names.parseIndexed(name, "", ELEMENT_WIDTH);
            return i >= 0 && i < index.count(l) ? new Element(this, i) : null;
        }

        @Override
        public List<Node> children() throws IOException {
            if (!isDirectory()) {
                throw new IllegalStateException("not a directory");
            }
            long n = index.count(l);
            if (n > Integer.MAX_VALUE) {
                throw new ContainerFormatException(source.name(), index.rawOffset(index.dataRaw(l)), label(l),
                        "at most 2^31-1 elements to list", n + " elements");
            }
            // Every other node of a tree takes bytes of the file; elements of 0 bytes take none, so a
            // tiny file could declare billions of them for a listing to hold.
            long size = source.channel().size();
            if (n > size) {
                throw new ContainerFormatException(source.name(), index.rawOffset(index.dataRaw(l)) + ScdaSyntax.COMMON_HEADER,
                        label(l), "at most one element per byte of the file (" + size + ") to list",
                        n + " elements of 0 bytes");
            }
            return DirectoryNode.indexed((int) n, i -> new Element(Section.this, i));
        }

        @Override
        public Content content() {
            int r = index.dataRaw(l);
            if (index.compressed(l)) {
                return new DecodedContent(source.channel(), index.rawDataOffset(r), index.rawE(r), index.uncompressed(l),
                        index.lenient, label(l));
            }
            return ByteRangeContent.stored(source.channel(), index.rawDataOffset(r), index.rawDataLength(r), label(l));
        }

        /** Element i: its offset within the data section's data, its stored length and its shown size. */
        long[] element(long i) throws IOException {
            int r = index.dataRaw(l);
            if (index.type(l) == 'A' && !index.compressed(l)) {
                long e = index.rawE(r);
                return new long[] {i * e, e, e};
            }
            long[] starts = index.elementStarts(source.channel(), l);
            long stored = starts[(int) i + 1] - starts[(int) i];
            long shown;
            if (!index.compressed(l)) {
                shown = stored;
            } else if (index.type(l) == 'A') {
                shown = index.uncompressed(l);
            } else {
                shown = index.decodedSizes(source.channel(), l)[(int) i];
            }
            return new long[] {starts[(int) i], stored, shown};
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            int first = index.firstRaw(l);
            int r = index.dataRaw(l);
            char t = index.type(l);
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("type", String.valueOf(t));
            a.put("userString", index.user(l).clone());
            a.put("index", l);
            a.put("rawIndex", first);
            switch (t) {
                case 'I', 'B' -> a.put("size", size());
                case 'A' -> {
                    a.put("count", index.count(l));
                    a.put("elementSize", index.compressed(l) ? index.uncompressed(l) : index.rawE(r));
                }
                default -> {
                    a.put("count", index.count(l));
                    long n = index.count(l);
                    long[] sizes = new long[(int) Math.min(n, Integer.MAX_VALUE)];
                    if (index.compressed(l)) {
                        sizes = index.decodedSizes(source.channel(), l).clone();
                    } else {
                        long[] starts = index.elementStarts(source.channel(), l);
                        for (int i = 0; i < sizes.length; i++) {
                            sizes[i] = starts[i + 1] - starts[i];
                        }
                    }
                    a.put("sizes", sizes);
                }
            }
            a.put("headerOffset", index.rawOffset(first));
            a.put("dataOffset", index.rawDataOffset(r));
            a.put("dataLength", index.rawDataLength(r));
            a.put("paddingLength", index.rawPadding(r));
            a.put("compressed", index.compressed(l));
            if (index.compressed(l)) {
                a.put("compressedRawIndex", r);
                a.put("compressedHeaderOffset", index.rawOffset(r));
                if (t == 'B') {
                    a.put("compressedSize", index.rawE(r));
                }
            }
            return a;
        }
    }

    final class Element extends FileNode {
        private final Section section;
        private final long i;

        Element(Section section, long i) {
            this.section = section;
            this.i = i;
        }

        @Override
        public String name() {
            return elementName(i);
        }

        @Override
        public long size() {
            try {
                return section.element(i)[2];
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public Content content() throws IOException {
            long[] e = section.element(i);
            int r = index.dataRaw(section.l);
            long at = index.rawDataOffset(r) + e[0];
            String label = label(section.l) + "/" + name();
            if (index.compressed(section.l)) {
                return new DecodedContent(source.channel(), at, e[1], e[2], index.lenient, label);
            }
            return ByteRangeContent.stored(source.channel(), at, e[1], label);
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            long[] e = section.element(i);
            int r = index.dataRaw(section.l);
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("type", "element");
            a.put("index", i);
            a.put("section", section.l);
            a.put("size", e[2]);
            a.put("dataOffset", index.rawDataOffset(r) + e[0]);
            a.put("compressed", index.compressed(section.l));
            if (index.compressed(section.l)) {
                a.put("compressedSize", e[1]);
            }
            return a;
        }
    }
}
