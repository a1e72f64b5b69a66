package org.containerfs.spark;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.unsafe.types.UTF8String;
import org.containerfs.hadoop.HadoopContainerInput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks a task's containers (or record ranges of one), record by record, for both readers (rows and
 * columnar batches). Per container: one open (the index), one walk of its tree; per record: the pushed
 * filters on path, format, container and listed size first, then only what the selected columns need
 * (attributes and content are read only when selected). A record whose selected values cannot be read ends
 * its container's records (the good prefix), or fails the read under {@code strict}.
 */
final class RecordCursor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RecordCursor.class);
    /** A Spark binary value is one Java array. */
    static final long MAX_CONTENT = Integer.MAX_VALUE - 16;

    private final Iterator<ContainerSlice> slices;
    private final Configuration conf;
    private final ReadOptions options;
    private final RecordFilter filter;
    /** The filters decidable once per container (they look at container and format only). */
    private final RecordFilter containerFilter;
    private final boolean readAttributes;
    private final boolean readContent;
    private OpenSlice current;
    /** Counts the slices opened: a change tells a batch that the container changed. */
    private int sliceNumber;
    private boolean formatsChecked;
    /** The current record's content, exactly its size (a row value is a whole array), reused while sizes repeat. */
    private byte[] content = new byte[0];
    private Map<String, Object> attributes;

    RecordCursor(List<ContainerSlice> slices, Configuration conf, ReadOptions options, Column[] columns,
            RecordFilter filter) {
        this.slices = slices.iterator();
        this.conf = conf;
        this.options = options;
        this.filter = filter;
        this.containerFilter = filter.restrictedTo(EnumSet.of(Column.CONTAINER, Column.FORMAT));
        List<Column> selected = Arrays.asList(columns);
        this.readAttributes = selected.contains(Column.ATTRIBUTES);
        this.readContent = selected.contains(Column.CONTENT);
    }

    /** Moves to the next record that passes the filters, with its selected values read; false at the end. */
    boolean next() throws IOException {
        while (true) {
            if (current != null) {
                if (current.advance()) {
                    return true;
                }
                closeCurrent();
            }
            if (!slices.hasNext()) {
                return false;
            }
            if (!formatsChecked) {
                ContainerOpener.checkFormatsInstalled();
                formatsChecked = true;
            }
            current = open(slices.next());
            sliceNumber++;
        }
    }

    /** Which opened slice the current record is in (changes when the container or its record range changes). */
    int sliceNumber() {
        return sliceNumber;
    }

    UTF8String container() {
        return current.containerValue;
    }

    UTF8String format() {
        return current.formatValue;
    }

    /** The record's tree path. */
    String path() {
        return current.path();
    }

    long size() {
        return current.size;
    }

    /** The record's bytes, an array of exactly {@link #size()} (only when content is selected; reused). */
    byte[] content() {
        return content;
    }

    /** The record's attribute view (only when attributes are selected). */
    Map<String, Object> attributes() {
        return attributes;
    }

    @Override
    public void close() throws IOException {
        closeCurrent();
    }

    private void closeCurrent() throws IOException {
        OpenSlice c = current;
        current = null;
        if (c != null) {
            c.fs.close();
        }
    }

    /** Opens a slice's container and lists its records; null when the file is skipped (not a container, unreadable). */
    private OpenSlice open(ContainerSlice slice) throws IOException {
        FileSystem fs;
        try {
            org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(slice.path());
            org.apache.hadoop.fs.FileSystem hadoop = path.getFileSystem(conf);
            FileStatus status = new FileStatus(slice.length(), false, 0, 0, slice.modificationTime(), path);
            fs = ContainerOpener.open(HadoopContainerInput.open(hadoop, status), options.env);
        } catch (ProviderNotFoundException | UnsupportedOperationException notContainer) {
            if (options.strict) {
                throw new IOException("containerfs: " + slice.container() + " is not a container"
                        + (options.format == null ? " of any installed format" : " of format " + options.format)
                        + " (strict=true fails the read; without it such files are skipped)", notContainer);
            }
            LOG.warn("containerfs: skipping {}: {}", slice.container(), notContainer.getMessage());
            return null;
        } catch (IOException e) {
            if (options.strict) {
                throw new IOException("containerfs: cannot open " + slice.container() + " (strict=true): " + e.getMessage(), e);
            }
            LOG.warn("containerfs: skipping {}: {}", slice.container(), e.getMessage());
            return null;
        }
        try {
            return new OpenSlice(slice, fs);
        } catch (IOException | RuntimeException e) {
            fs.close();
            throw e;
        }
    }

    /** One opened container, its files in file order, and where this slice is among them. */
    private final class OpenSlice implements RecordFilter.Record {
        final ContainerSlice slice;
        final FileSystem fs;
        final String format;
        final UTF8String containerValue;
        final UTF8String formatValue;
        final List<Path> files = new ArrayList<>();
        /** The listed size of each of {@link #files}. */
        long[] sizes = new long[64];
        final PathMatcher recordGlob;
        /** The container's damage as its root reports it ("" when sound or not reported). */
        final String damage;
        int next;
        final int end;
        /** The record being looked at. */
        Path path;
        /** The record's path as text, built on first use (it costs per record). */
        String pathString;
        long size;

        OpenSlice(ContainerSlice slice, FileSystem fs) throws IOException {
            this.slice = slice;
            this.fs = fs;
            this.format = fs.provider().getScheme();
            this.containerValue = UTF8String.fromString(slice.container());
            this.formatValue = UTF8String.fromString(format);
            this.recordGlob = options.recordGlob == null ? null : fs.getPathMatcher("glob:" + options.recordGlob);
            Path root = fs.getRootDirectories().iterator().next();
            Object damageValue = Files.readAttributes(root, format + ":*").get("damage");
            this.damage = damageValue == null ? "" : damageValue.toString();
            if (!containerFilter.accepts(this)) {
                this.end = 0;
                return;
            }
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (!attrs.isDirectory()) {
                        if (files.size() == sizes.length) {
                            sizes = Arrays.copyOf(sizes, sizes.length * 2);
                        }
                        sizes[files.size()] = attrs.size();
                        files.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
            this.next = (int) slice.firstRecord(files.size());
            this.end = (int) slice.endRecord(files.size());
            if (!damage.isEmpty()) {
                LOG.warn("containerfs: {} is damaged ({}): reading the records before the damage", slice, damage);
            }
        }

        /** Moves to the next record that passes the filters and reads its selected values; false at the end. */
        boolean advance() throws IOException {
            while (next < end) {
                int i = next++;
                path = files.get(i);
                pathString = null;     // built when a filter or the path column asks for it
                size = sizes[i];
                if (recordGlob != null && !recordGlob.matches(path)) {
                    continue;
                }
                if (!filter.isEmpty() && !filter.accepts(this)) {
                    continue;
                }
                if (!damage.isEmpty() && !whole(i)) {
                    next = end;
                    return false;
                }
                try {
                    if (readAttributes) {
                        attributes = Files.readAttributes(path, format + ":*");
                    }
                    if (readContent) {
                        readContent();
                    }
                } catch (IOException e) {
                    stopAt(e);
                    return false;
                }
                return true;
            }
            return false;
        }

        /** In a damaged container: whether the record's last byte can be read (else the good prefix ends here). */
        private boolean whole(int i) throws IOException {
            long length = sizes[i];
            if (length == 0) {
                return true;
            }
            try (SeekableByteChannel ch = Files.newByteChannel(files.get(i))) {
                ch.position(length - 1);
                if (ch.read(ByteBuffer.allocate(1)) == 1) {
                    return true;
                }
                throw new EOFException(slice.container() + "!" + files.get(i) + ": no byte at offset " + (length - 1)
                        + " of its " + length);
            } catch (IOException e) {
                stopAt(e);
                return false;
            }
        }

        private void stopAt(IOException e) throws IOException {
            next = end;
            String pathString = path.toString();
            if (options.strict) {
                throw new IOException("containerfs: cannot read " + pathString + " in " + slice.container()
                        + " (strict=true): " + e.getMessage(), e);
            }
            LOG.warn("containerfs: {}: rows end before {}: {}", slice, pathString, e.getMessage());
        }

        private void readContent() throws IOException {
            if (size > MAX_CONTENT) {
                throw new IOException(slice.container() + "!" + path + ": " + size
                        + " bytes do not fit one Spark binary value (at most " + MAX_CONTENT + ")");
            }
            // the readers copy the value at once (into a row or a vector): one array serves every record of its size
            if (content.length != size) {
                content = new byte[(int) size];
            }
            ByteBuffer buffer = ByteBuffer.wrap(content);
            try (SeekableByteChannel ch = Files.newByteChannel(path)) {
                while (buffer.hasRemaining()) {
                    if (ch.read(buffer) < 0) {
                        throw new EOFException(slice.container() + "!" + path + ": ended at byte "
                                + buffer.position() + " of its listed " + size);
                    }
                }
            }
        }

        @Override
        public String container() {
            return slice.container();
        }

        @Override
        public String path() {
            if (pathString == null) {
                pathString = path.toString();
            }
            return pathString;
        }

        @Override
        public String format() {
            return format;
        }

        @Override
        public long size() {
            return size;
        }
    }

    /** An attribute value as text: raw bytes as lower-case hex, everything else as Java prints it. */
    static String text(Object value) {
        if (value instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof long[] a) {
            return Arrays.toString(a);
        }
        if (value instanceof int[] a) {
            return Arrays.toString(a);
        }
        if (value instanceof Object[] a) {
            return Arrays.deepToString(a);
        }
        return String.valueOf(value);
    }
}
