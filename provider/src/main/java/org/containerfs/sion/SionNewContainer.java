package org.containerfs.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.containerfs.spi.AppendSink;
import org.containerfs.spi.ByteRangeContent;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.ContainerWriter;
import org.containerfs.spi.InvalidNameException;
import org.containerfs.spi.Content;
import org.containerfs.spi.DirectoryNode;
import org.containerfs.spi.FileNode;
import org.containerfs.spi.FormatOptions;
import org.containerfs.spi.Names;
import org.containerfs.spi.Node;

/**
 * A new SION file being written (create-only). SION cannot grow in place: META1 holds per-task
 * arrays in front of the data and META2 sits behind it at an offset that depends on every task's
 * size. So the tasks the user writes ({@code /taskNNNNNN}, in order, one at a time) stream into one
 * staging file next to the target ({@code .<name>.sion-staging}, created and locked by the core, see
 * {@link SionFormat#creationStagingName}); when the file system closes, META1, one chunk per task
 * (capacity = length rounded up to the block size), META2 and the mapping size are written to
 * {@code .<name>.sion-commit} and renamed onto the target in one atomic step. That is the layout
 * {@code siondefrag} writes.
 *
 * <p>Crash behaviour: nothing is committed before close, and the target does not exist until the
 * rename. A writer killed earlier leaves no target, only the staging file (emptied by the next create
 * on that path); a writer killed at the rename leaves no target or the complete file. No byte of an
 * existing SION file is ever changed.
 */
final class SionNewContainer implements Container {
    /** {@code taskNNNNNN}, any number of digits: the shape of every task name. */
    private static final java.util.regex.Pattern TASK_NAME = java.util.regex.Pattern.compile(
            SionContainer.TASK_PREFIX + "[0-9]+");
    static final int WRITER_VERSION = 1007;
    static final int WRITER_PATCHLEVEL = 6;
    private static final int DEFAULT_BLOCK_SIZE = 4096;

    private final ContainerSource source;
    private final int blockSize;
    private final byte[] prefix;
    private final boolean userDataBigEndian;
    private final Path staging;
    private final Path commitFile;
    private final ContainerChannel stagingChannel;
    private final boolean sync;

    private long[] starts = new long[16];
    private long[] lengths = new long[16];
    private long[] ranks = new long[16];
    private int count;
    private long stagingEnd;
    private TaskSink active;
    private boolean finished;

    private SionNewContainer(ContainerSource source, int blockSize, byte[] prefix, boolean userDataBigEndian)
            throws IOException {
        this.source = source;
        this.blockSize = blockSize;
        this.prefix = prefix;
        this.userDataBigEndian = userDataBigEndian;
        String name = String.valueOf(source.path().getFileName());
        this.staging = source.sibling(stagingName(name));
        this.commitFile = source.sibling("." + name + ".sion-commit");
        this.sync = source.options().getBoolean("sync", true);
        this.stagingChannel = source.channel();
        // The core holds the writer lock on the staging file: what is there is a dead writer's.
        stagingChannel.truncate(0);
        Files.deleteIfExists(commitFile);
    }

    static String stagingName(String targetName) {
        return "." + targetName + ".sion-staging";
    }

    static SionNewContainer create(ContainerSource source) throws IOException {
        if (Files.exists(source.path())) {
            // An empty file is there (the core only creates through our staging sibling).
            throw new FileAlreadyExistsException(source.name(), null, "SION files are created on a path that "
                    + "does not exist and appear there atomically when the file system closes; remove the empty "
                    + "file first");
        }
        try {
            return configure(source);
        } catch (IOException | RuntimeException e) {
            // Nothing staged yet: leave no staging file behind for a refused create.
            try {
                Files.deleteIfExists(source.sibling(stagingName(String.valueOf(source.path().getFileName()))));
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static SionNewContainer configure(ContainerSource source) throws IOException {
        FormatOptions o = source.options();
        long blockSize;
        if (o.has("blockSize")) {
            blockSize = o.getLong("blockSize", 0);
        } else if (o.has("fsblksize")) {
            blockSize = o.getLong("fsblksize", 0);
        } else {
            // the staging sibling exists (the core created it) and lives on the target's file store
            blockSize = defaultBlockSize(source.sibling(stagingName(String.valueOf(source.path().getFileName()))));
        }
        if (blockSize < 1 || blockSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("env blockSize (the SION file system block size) must be between 1 and "
                    + Integer.MAX_VALUE + ", got " + blockSize);
        }
        String prefixString = o.getString("prefix", String.valueOf(source.path().getFileName()));
        byte[] prefix = prefixString.getBytes(StandardCharsets.UTF_8);
        if (prefix.length >= SionFile.PREFIX_BYTES || prefixString.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("env prefix must be at most " + (SionFile.PREFIX_BYTES - 1)
                    + " UTF-8 bytes without NUL, got " + prefix.length + " bytes");
        }
        String endianness = o.getString("endianness", "little");
        if (!endianness.equals("little") && !endianness.equals("big")) {
            throw new IllegalArgumentException("env endianness (the user-data label, as SIONlib's "
                    + "endianness= option) must be little or big, got " + endianness);
        }
        return new SionNewContainer(source, (int) blockSize, prefix, endianness.equals("big"));
    }

    /** SIONlib takes st_blksize when none is given, and 2 MiB when that exceeds 32 MiB. */
    private static long defaultBlockSize(Path path) {
        try {
            long b = Files.getFileStore(path).getBlockSize();
            if (b <= 0) {
                return DEFAULT_BLOCK_SIZE;
            }
            return b > 32L << 20 ? 2L << 20 : b;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return DEFAULT_BLOCK_SIZE;
        }
    }

    @Override
    public Node root() {
        return new Root();
    }

    @Override
    public ContainerWriter openWriter() {
        return new Writer();
    }

    @Override
    public void close() throws IOException {
        finish();
    }

    private String expectedName() {
        return SionContainer.taskName(count);
    }

    private String allowedWrites() {
        return "a new SION file takes /taskNNNNNN files in order, one at a time (next: /" + expectedName()
                + "), optionally with the attribute sion:globalRank (default: the task index); "
                + "the file is assembled when the file system closes";
    }

    // ---- the tree of staged tasks ----------------------------------------------------------------

    private final class Root extends DirectoryNode {
        @Override
        public String name() {
            return "";
        }

        @Override
        public Node child(String name) {
            long g = Names.parseIndexed(name, SionContainer.TASK_PREFIX, SionContainer.WIDTH);
            return g >= 0 && g < count ? new StagedTask((int) g) : null;
        }

        @Override
        public List<Node> children() {
            int n = count;
            return indexed(n, i -> new StagedTask(i));
        }

        @Override
        public Map<String, Object> attributes() {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("format", "sion");
            a.put("blockSize", blockSize);
            a.put("tasks", count);
            a.put("files", 1);
            a.put("maxChunks", 1);
            a.put("fileFormatVersion", SionFile.CURRENT_FFV);
            a.put("writerVersion", "1.7p6");
            a.put("endianness", "little");
            a.put("userDataEndianness", userDataBigEndian ? "big" : "little");
            a.put("keyValueMode", SionFile.KEYVAL_NONE);
            a.put("prefix", new String(prefix, StandardCharsets.UTF_8));
            a.put("staging", staging.toString());
            a.put("pending", true);
            return a;
        }
    }

    private final class StagedTask extends FileNode {
        private final int g;

        StagedTask(int g) {
            this.g = g;
        }

        @Override
        public String name() {
            return SionContainer.taskName(g);
        }

        @Override
        public long size() {
            return lengths[g];
        }

        @Override
        public Content content() {
            return new ByteRangeContent(stagingChannel, starts[g], lengths[g], "staged SION " + name());
        }

        @Override
        public Map<String, Object> attributes() {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("task", g);
            a.put("globalRank", ranks[g]);
            a.put("localRank", g);
            a.put("capacity", SionFile.roundUp(lengths[g], blockSize));
            a.put("pending", true);
            return a;
        }
    }

    // ---- writing -------------------------------------------------------------------------------

    private final class Writer implements ContainerWriter {
        @Override
        public String allowedWrites() {
            return SionNewContainer.this.allowedWrites();
        }

        @Override
        public void createDirectory(Node parent, String name, Map<String, Object> attributes) throws IOException {
            throw new AccessDeniedException(name, null, "a SION file has no directories to create; "
                    + allowedWrites());
        }

        @Override
        public void checkNewFile(Node parent, String name, Map<String, Object> attributes) throws IOException {
            taskRank(parent, name, attributes);
        }

        /** The global rank of the task {@code name} if it is the next task's name; else refused. */
        private long taskRank(Node parent, String name, Map<String, Object> attributes) throws IOException {
            if (finished) {
                throw new ClosedChannelException();
            }
            if (!parent.name().isEmpty()) {
                throw new AccessDeniedException(name, null, "tasks live at the root; " + allowedWrites());
            }
            if (!TASK_NAME.matcher(name).matches()) {
                throw new InvalidNameException(name, "SION tasks are named " + SionContainer.TASK_PREFIX + "NNNNNN; "
                        + allowedWrites());
            }
            if (!name.equals(expectedName())) {
                throw new AccessDeniedException(name, null, "the next task is " + expectedName() + "; "
                        + allowedWrites());
            }
            long rank = count;
            for (Map.Entry<String, Object> e : attributes.entrySet()) {
                if (!e.getKey().equals("sion:globalRank")) {
                    throw new AccessDeniedException(name, null, "attribute " + e.getKey() + " cannot be given; "
                            + allowedWrites());
                }
                rank = parseRank(name, e.getValue());
            }
            return rank;
        }

        @Override
        public WritableByteChannel createFile(Node parent, String name, Map<String, Object> attributes)
                throws IOException {
            if (active != null && !finished) {
                throw new IOException(source.name() + ": " + active.name + " is still being written; close it "
                        + "first (tasks are staged one at a time)");
            }
            long rank = taskRank(parent, name, attributes);
            active = new TaskSink(name, stagingEnd, rank);
            return active;
        }

        @Override
        public void close() throws IOException {
            finish();
        }
    }

    private static long parseRank(String name, Object value) throws AccessDeniedException {
        long rank;
        if (value instanceof Number n) {
            rank = n.longValue();
        } else {
            try {
                rank = Long.parseLong(String.valueOf(value).trim());
            } catch (NumberFormatException e) {
                throw new AccessDeniedException(name, null, "sion:globalRank must be an integer, got " + value);
            }
        }
        if (rank < 0) {
            throw new AccessDeniedException(name, null, "sion:globalRank must be >= 0, got " + rank);
        }
        return rank;
    }

    private final class TaskSink extends AppendSink {
        private final String name;
        private final long start;
        private final long rank;

        TaskSink(String name, long start, long rank) {
            super(stagingChannel, start);
            this.name = name;
            this.start = start;
            this.rank = rank;
        }

        @Override
        protected void commit() {
            active = null;
            long written = written();
            if (count == starts.length) {
                int grown = count * 2;
                starts = Arrays.copyOf(starts, grown);
                lengths = Arrays.copyOf(lengths, grown);
                ranks = Arrays.copyOf(ranks, grown);
            }
            starts[count] = start;
            lengths[count] = written;
            ranks[count] = rank;
            count++;
            stagingEnd = start + written;
        }
    }

    // ---- commit --------------------------------------------------------------------------------

    /** Assembles the SION file once; later calls do nothing. */
    private void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        if (active != null) {
            active.close();
        }
        try {
            assemble();
            move(commitFile, source.path());
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(commitFile);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new IOException(source.name() + ": the SION file could not be assembled; the staged task data "
                    + "stays in " + staging, e);
        }
        // The core closes the staging channel after this; unlinking an open file is fine.
        Files.deleteIfExists(staging);
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Writes META1, one chunk per task, META2 and mapping_size = 0 (siondefrag's layout). */
    private void assemble() throws IOException {
        int n = count;
        long[] cap = new long[n];
        long skip = 0;
        for (int t = 0; t < n; t++) {
            cap[t] = SionFile.roundUp(lengths[t], blockSize);
            skip = Math.addExact(skip, cap[t]);
        }
        long meta1 = SionFile.META1_FIXED + 16L * n;
        long startOfData = SionFile.roundUp(meta1, blockSize);
        long startOfVarheader = startOfData + skip;

        Set<StandardOpenOption> options = EnumSet.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING);
        SeekableByteChannel channel;
        try {
            channel = commitFile.getFileSystem().provider().newFileChannel(commitFile, options);
        } catch (UnsupportedOperationException e) {
            channel = Files.newByteChannel(commitFile, options);
        }
        try (SeekableByteChannel out = channel) {
            Sequential w = new Sequential(out);
            w.bytes(SionFile.MAGIC);
            byte u = (byte) (userDataBigEndian ? 1 : 0);
            w.bytes(new byte[] {0, u, u, 0}); // metadata little-endian; bytes 1-2: user-data label
            w.int32(WRITER_VERSION);
            w.int32(WRITER_PATCHLEVEL);
            w.int32(SionFile.CURRENT_FFV);
            w.int32(blockSize);
            w.int32(n);
            w.int32(1); // nfiles
            w.int32(1); // filenumber: the serial writer's value
            w.int64((long) SionFile.KEYVAL_NONE << 32); // flag1
            w.int64(0); // flag2
            w.bytes(prefix);
            w.zeros(SionFile.PREFIX_BYTES - prefix.length);
            for (int t = 0; t < n; t++) {
                w.int64(ranks[t]);
            }
            for (int t = 0; t < n; t++) {
                w.int64(cap[t]);
            }
            w.int32(1); // maxusedchunks
            w.int64(startOfVarheader);
            w.zeros(startOfData - meta1);
            for (int t = 0; t < n; t++) {
                w.copy(stagingChannel, starts[t], lengths[t]);
                w.zeros(cap[t] - lengths[t]);
            }
            for (int t = 0; t < n; t++) {
                w.int64(1); // blockcount
            }
            for (int t = 0; t < n; t++) {
                w.int64(lengths[t]); // used bytes of block 0
            }
            w.int32(0); // mapping_size: one file needs no mapping
            w.flush();
            if (sync && out instanceof FileChannel fc) {
                fc.force(true);
            }
        }
    }

    /** Buffered little-endian sequential output. */
    private static final class Sequential {
        private static final byte[] ZEROS = new byte[1 << 16];
        private final SeekableByteChannel out;
        private final ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);

        Sequential(SeekableByteChannel out) {
            this.out = out;
        }

        private void room(int bytes) throws IOException {
            if (buf.remaining() < bytes) {
                flush();
            }
        }

        void int32(int v) throws IOException {
            room(4);
            buf.putInt(v);
        }

        void int64(long v) throws IOException {
            room(8);
            buf.putLong(v);
        }

        void bytes(byte[] b) throws IOException {
            int off = 0;
            while (off < b.length) {
                room(1);
                int take = Math.min(buf.remaining(), b.length - off);
                buf.put(b, off, take);
                off += take;
            }
        }

        void zeros(long count) throws IOException {
            long left = count;
            while (left > 0) {
                room(1);
                int take = (int) Math.min(buf.remaining(), left);
                buf.put(ZEROS, 0, take);
                left -= take;
            }
        }

        void copy(ContainerChannel from, long position, long length) throws IOException {
            flush();
            long done = 0;
            while (done < length) {
                long n = from.transferTo(position + done, length - done, out);
                if (n <= 0) {
                    throw new IOException(from.name() + ": staged data ends at byte " + (position + done)
                            + ", expected " + (length - done) + " more bytes");
                }
                done += n;
            }
        }

        void flush() throws IOException {
            buf.flip();
            while (buf.hasRemaining()) {
                out.write(buf);
            }
            buf.clear();
        }
    }
}
