package org.containerfs.spark;

import java.io.EOFException;
import java.io.FileNotFoundException;
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
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.unsafe.types.UTF8String;
import org.containerfs.hadoop.HadoopContainerInput;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks one container slice (a whole container, or the records whose header lies in a byte range of it), record
 * by record, for both readers (rows and columnar batches). Per slice: one open (the index), one walk of its
 * tree; per record: the pushed
 * filters on path, format, container and listed size first, then only what the selected columns need
 * (attributes and content are read only when selected).
 *
 * <p>The rows are the files the container lists, whatever the columns selected: a file whose bytes fail their
 * check (a wrong checksum, bytes the container declares but does not hold) gives its row with {@code content}
 * null and the problem in {@code damage}, or fails the read under {@code strict}; the files after it come
 * through as usual. The bytes are read, and so checked, only when {@code content} or {@code damage} is selected.
 */
final class RecordCursor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RecordCursor.class);
    /** A Spark binary value is one Java array. */
    static final long MAX_CONTENT = Integer.MAX_VALUE - 16;
    /** What a check of bytes that are not kept reads at a time. */
    private static final int CHECK_BUFFER = 64 << 10;

    private final ContainerSlice slice;
    private final Configuration conf;
    private final ReadOptions options;
    private final RecordFilter filter;
    /** The filters decidable once per container (they look at container and format only). */
    private final RecordFilter containerFilter;
    private final boolean readAttributes;
    private final boolean readContent;
    /** Whether each record's bytes are read: for its content, or only to check them ({@code damage}). */
    private final boolean readBytes;
    private OpenSlice current;
    /** The filters decidable from the container's URI alone: applied before it is opened. */
    private final RecordFilter uriFilter;
    private boolean opened;
    /** The current record's content, exactly its size (a row value is a whole array), reused while sizes repeat. */
    private byte[] content = new byte[0];
    private ByteBuffer checkBuffer;
    private Map<String, Object> attributes;
    /** What is wrong with the current record's bytes; null when they read back sound (or were not read). */
    private String damage;

    RecordCursor(ContainerSlice slice, Configuration conf, ReadOptions options, Column[] columns,
            RecordFilter filter) {
        this.slice = slice;
        this.conf = conf;
        this.options = options;
        this.filter = filter;
        this.containerFilter = filter.restrictedTo(EnumSet.of(Column.CONTAINER, Column.FORMAT));
        this.uriFilter = filter.restrictedTo(EnumSet.of(Column.CONTAINER));
        List<Column> selected = Arrays.asList(columns);
        this.readAttributes = selected.contains(Column.ATTRIBUTES);
        this.readContent = selected.contains(Column.CONTENT);
        this.readBytes = readContent || selected.contains(Column.DAMAGE);
    }

    /** Moves to the next record that passes the filters, with its selected values read; false at the end. */
    boolean next() throws IOException {
        if (!opened) {
            opened = true;
            ContainerOpener.checkFormatsInstalled();
            current = open();
        }
        if (current != null) {
            if (current.advance()) {
                return true;
            }
            closeCurrent();
        }
        return false;
    }

    /** How many records of the slice come after the current one, at most (filters may skip some). */
    long remaining() {
        return current == null ? 0 : current.end - current.next;
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

    /**
     * The record's bytes, an array of exactly {@link #size()} (only when content is selected; reused), or null
     * when they fail their check ({@link #damage()}).
     */
    byte[] content() {
        return damage == null ? content : null;
    }

    /** The record's attribute view (only when attributes are selected), or null when it cannot be read. */
    Map<String, Object> attributes() {
        return attributes;
    }

    /** What is wrong with the record's bytes (only when content or damage is selected), or null when sound. */
    String damage() {
        return damage;
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

    /**
     * Opens the slice's container and lists its records; null when the file gives no rows: a pushed filter on
     * {@code container} excludes it (then it is not even opened), or it is skipped (not a container, unreadable;
     * unless {@code strict}, when that fails the read, or is skipped by Spark's {@code ignoreCorruptFiles}). A file
     * that is gone since the listing throws {@link FileNotFoundException} as it is, for Spark's
     * {@code ignoreMissingFiles}.
     */
    private OpenSlice open() throws IOException {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(slice.path());
        org.apache.hadoop.fs.FileSystem hadoop = path.getFileSystem(conf);
        String container = HadoopContainerInput.uriOf(hadoop, path).toString();
        if (!uriFilter.isEmpty() && !uriFilter.accepts(new ContainerOnly(container))) {
            return null;
        }
        FileSystem fs;
        try {
            FileStatus status = new FileStatus(slice.length(), false, 0, 0, slice.modificationTime(), path);
            fs = ContainerOpener.open(HadoopContainerInput.open(hadoop, status), options.env);
        } catch (ProviderNotFoundException | UnsupportedOperationException notContainer) {
            if (options.strict) {
                throw new IOException("containerfs: " + container + " is not a container"
                        + (options.format == null ? " of any installed format" : " of format " + options.format)
                        + " (strict=true fails the read; without it such files are skipped)", notContainer);
            }
            LOG.warn("containerfs: skipping {}: {}", container, notContainer.getMessage());
            return null;
        } catch (IOException e) {
            if (gone(e)) {
                FileNotFoundException notFound = new FileNotFoundException("containerfs: " + container
                        + " is gone since it was listed: " + e.getMessage());
                notFound.initCause(e);
                throw notFound;
            }
            if (options.strict) {
                throw new IOException("containerfs: cannot open " + container + " (strict=true): " + e.getMessage(), e);
            }
            LOG.warn("containerfs: skipping {}: {}", container, e.getMessage());
            return null;
        }
        try {
            return new OpenSlice(container, fs, hadoop, path);
        } catch (IOException | RuntimeException e) {
            fs.close();
            throw e;
        }
    }

    /** Whether a failed open says the file is not there (deleted after Spark's listing). */
    private static boolean gone(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof FileNotFoundException || t instanceof java.nio.file.NoSuchFileException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a failed read is the bytes' own fault (the format found them wrong, or they end before their
     * declared length): the record's damage. Anything else (the store failing) fails the task, which Spark may
     * retry; it says nothing about the bytes.
     */
    static boolean isDamage(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ContainerFormatException || t instanceof EOFException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The {@code damage} value of a record whose read failed after {@code present} of its {@code size} bytes:
     * the format's message (file, offset, what was expected), led for missing bytes by how many are there.
     */
    static String damageOf(IOException e, long present, long size) {
        boolean missing = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            missing |= t instanceof TruncatedDataException || t instanceof EOFException;
        }
        String what = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        return missing ? "truncated: " + present + " of its " + size + " bytes are present: " + what : what;
    }

    /** One opened container, its files in file order, and which of them are this slice's. */
    private final class OpenSlice implements RecordFilter.Record {
        final String container;
        final FileSystem fs;
        final String format;
        final UTF8String containerValue;
        final UTF8String formatValue;
        final List<Path> files = new ArrayList<>();
        /** The listed size of each of {@link #files}. */
        long[] sizes = new long[64];
        final PathMatcher recordGlob;
        /** The indexes into {@link #files} of this slice's records, or null for all of them. */
        int[] selected;
        int next;
        final int end;
        /** The record being looked at. */
        Path path;
        /** The record's path as text, built on first use (it costs per record). */
        String pathString;
        long size;

        OpenSlice(String container, FileSystem fs, org.apache.hadoop.fs.FileSystem hadoop,
                org.apache.hadoop.fs.Path file) throws IOException {
            this.container = container;
            this.fs = fs;
            this.format = fs.provider().getScheme();
            this.containerValue = UTF8String.fromString(container);
            this.formatValue = UTF8String.fromString(format);
            this.recordGlob = options.recordGlob == null ? null : fs.getPathMatcher("glob:" + options.recordGlob);
            Path root = fs.getRootDirectories().iterator().next();
            Map<String, Object> rootAttributes = Files.readAttributes(root, format + ":*");
            if (memberOfASet(rootAttributes) && SetMembers.firstFileInLoad(hadoop, file, options)) {
                LOG.info("containerfs: {} is a member of a SIONlib set whose first file is read too: its tasks are "
                        + "the set's rows", slice);
                this.end = 0;
                return;
            }
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
            if (slice.whole()) {
                this.end = files.size();
            } else {
                this.selected = inRange();
                this.end = selected.length;
            }
            Object damageValue = rootAttributes.get("damage");
            if (damageValue != null && !damageValue.toString().isEmpty()) {
                LOG.warn("containerfs: {} is damaged ({}): files whose bytes fail their check give rows with the "
                        + "problem in `damage`", slice, damageValue);
            }
        }

        /**
         * The records whose header lies in the slice's byte range: where the format's attribute view gives a
         * record's position ({@code headerOffset}: LIME, scda; {@code offset}: G3, SIONlib chunks), that; otherwise
         * (GSD, SIONlib task streams) the record's share of the file in file order ({@code i * length / n}). Both
         * are the same in every task, so each record is in exactly one range of the file.
         */
        private int[] inRange() throws IOException {
            int n = files.size();
            String key = n == 0 ? null : positionKey(files.get(0));
            int[] out = new int[n];
            int count = 0;
            for (int i = 0; i < n; i++) {
                long position = key == null ? -1 : position(files.get(i), key);
                if (position < 0) {
                    position = slice.length() * i / n;
                }
                if (slice.holds(position)) {
                    out[count++] = i;
                }
            }
            return Arrays.copyOf(out, count);
        }

        /** The attribute giving a record's position in the container file, or null when the format has none. */
        private String positionKey(Path first) {
            for (String key : new String[] {"headerOffset", "offset"}) {
                if (position(first, key) >= 0) {
                    return key;
                }
            }
            return null;
        }

        /** A record's position from attribute {@code key}, or -1 when it has none (or it cannot be read). */
        private long position(Path record, String key) {
            try {
                return Files.readAttributes(record, format + ":" + key).get(key) instanceof Number n ? n.longValue() : -1;
            } catch (IOException | IllegalArgumentException | UnsupportedOperationException e) {
                return -1;
            }
        }

        /** A SIONlib file that says it is file 1 or later of a multi-file set (the root's {@code files}, {@code fileNumber}). */
        private boolean memberOfASet(Map<String, Object> rootAttributes) {
            return "sion".equals(format) && rootAttributes.get("files") instanceof Number files && files.intValue() > 1
                    && rootAttributes.get("fileNumber") instanceof Number number && number.intValue() > 0;
        }

        /** Moves to the next record that passes the filters and reads its selected values; false at the end. */
        boolean advance() throws IOException {
            while (next < end) {
                int i = selected == null ? next : selected[next];
                next++;
                path = files.get(i);
                pathString = null;     // built when a filter or the path column asks for it
                size = sizes[i];
                if (recordGlob != null && !recordGlob.matches(path)) {
                    continue;
                }
                if (!filter.isEmpty() && !filter.accepts(this)) {
                    continue;
                }
                if (readAttributes) {
                    readAttributes();
                }
                if (readBytes) {
                    readBytes();
                }
                return true;
            }
            return false;
        }

        private void readAttributes() throws IOException {
            try {
                attributes = Files.readAttributes(path, format + ":*");
            } catch (IOException e) {
                if (!isDamage(e) || options.strict) {
                    throw cannotRead("its attributes", e);
                }
                // some attributes are computed from the bytes (a G3 frame's CRC): their damage shows in `damage`
                LOG.warn("containerfs: {}!{}: attributes unreadable: {}", slice, path(), e.getMessage());
                attributes = null;
            }
        }

        /** Reads the record's bytes, into {@link #content} when selected; a failed check sets {@link #damage}. */
        private void readBytes() throws IOException {
            damage = null;
            // A listed size too large for one binary value is checked first: a record whose header declares more
            // than the file holds (a cut or damaged length) gets its row with `damage`, as every other damaged
            // record does; only a sound one that cannot be a value fails the read.
            boolean keep = readContent && size <= MAX_CONTENT;
            readBytes(keep);
            if (readContent && !keep && damage == null) {
                throw new IOException("containerfs: " + container + "!" + path() + ": " + size
                        + " bytes do not fit one Spark binary value (at most " + MAX_CONTENT + "): leave `content` out "
                        + "of this read, or filter such files out (size < " + MAX_CONTENT + " is pushed down)");
            }
        }

        /** Reads the record's bytes, into {@link #content} when {@code keep}, else only to check them. */
        private void readBytes(boolean keep) throws IOException {
            ByteBuffer buffer;
            if (keep) {
                // the readers copy the value at once (into a row or a vector): one array serves every record of its size
                if (content.length != size) {
                    content = new byte[(int) size];
                }
                buffer = ByteBuffer.wrap(content);
            } else {
                if (checkBuffer == null) {
                    checkBuffer = ByteBuffer.allocate(CHECK_BUFFER);
                }
                buffer = checkBuffer.clear();
            }
            long present = 0;
            try (SeekableByteChannel ch = Files.newByteChannel(path)) {
                while (present < size) {
                    if (!keep) {
                        buffer.clear().limit((int) Math.min(buffer.capacity(), size - present));
                    }
                    int n = ch.read(buffer);
                    if (n < 0) {
                        throw new EOFException(container + "!" + path() + ": the bytes end after " + present
                                + " of the " + size + " listed");
                    }
                    present += n;
                }
            } catch (IOException e) {
                if (!isDamage(e)) {
                    throw cannotRead("its bytes", e);
                }
                // a read that fails may still have delivered what the file holds (a truncated record's first bytes)
                damage = damageOf(e, keep ? buffer.position() : present + buffer.position(), size);
                if (options.strict) {
                    throw new IOException("containerfs: " + container + "!" + path() + " is damaged "
                            + "(strict=true fails the read; without it the row has its damage): " + damage, e);
                }
                LOG.warn("containerfs: {}!{}: {}", slice, path(), damage);
            }
        }

        private IOException cannotRead(String what, IOException e) {
            return new IOException("containerfs: cannot read " + what + " of " + path() + " in " + container
                    + (options.strict ? " (strict=true)" : "") + ": " + e.getMessage(), e);
        }

        @Override
        public String container() {
            return container;
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

    /** A record of which only the container is known (before the container is opened). */
    private record ContainerOnly(String container) implements RecordFilter.Record {
        @Override
        public String path() {
            throw new IllegalStateException("container filters look at the container only");
        }

        @Override
        public String format() {
            throw new IllegalStateException("container filters look at the container only");
        }

        @Override
        public long size() {
            throw new IllegalStateException("container filters look at the container only");
        }
    }
}
