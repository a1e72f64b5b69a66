package org.containerfs.sion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.containerfs.spi.ByteRangeContent;
import org.containerfs.spi.ConcatenatedContent;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.Content;
import org.containerfs.spi.DirectoryNode;
import org.containerfs.spi.FileNode;
import org.containerfs.spi.Names;
import org.containerfs.spi.Node;

/**
 * A SION file (or a whole multi-file set, opened by its first file) as the tree {@code /taskNNNNNN}.
 * Nodes are flyweights over {@link SionFile}'s arrays; a task's file is the concatenation of the used
 * bytes of its chunks, read in place.
 *
 * <ul>
 *   <li>Task numbers are the logical index ({@code sioncat -t}, {@code sionsplit}); in a set, the order
 *       of file 0's mapping. A member opened alone (mapping_size 0) shows its own tasks.</li>
 *   <li>Key-value files in INLINE mode: each task is a directory of {@code stream} and
 *       {@code key-<unsigned decimal key>} files. Other key-value modes (META, HASH), which SIONlib's
 *       tools do not split by key either, show the plain streams.</li>
 *   <li>env {@code chunks=true}: {@code /taskNNNNNN/chunkNNNNNN} for every file, key-value or not.</li>
 *   <li>env {@code recover=true}: a file whose META2 is missing opens with chunk positions from META1
 *       and capacity-sized chunks clipped to the end of file, marked {@code recovered}. If the first file
 *       of a set lost its META2, its mapping is lost with it and only its own tasks are shown.</li>
 * </ul>
 */
final class SionContainer implements Container {
    static final String TASK_PREFIX = "task";
    static final String CHUNK_PREFIX = "chunk";
    static final int WIDTH = 6;
    static final String STREAM = "stream";

    private final ContainerSource source;
    private final List<SionFile> files = new ArrayList<>();
    private final List<ContainerChannel> members = new ArrayList<>();
    private final int tasks;
    /** Null when every task lives in file 0 in physical order. */
    private final int[] fileOf;
    private final int[] localOf;
    private final boolean chunks;
    private final boolean keyValue;
    private final Map<Integer, SionKeyIndex> keyIndexes = new ConcurrentHashMap<>();

    SionContainer(ContainerSource source) throws IOException {
        this.source = source;
        boolean recover = source.options().getBoolean("recover", false);
        this.chunks = source.options().getBoolean("chunks", false);
        SionFile first = SionFile.read(source.channel(), source.name(), fileName(source), recover);
        files.add(first);
        try {
            if (first.nfiles > 1 && first.mappingSize > 0) {
                // The first file of a set holds the mapping; the members sit next to it.
                for (int i = 1; i < first.nfiles; i++) {
                    String member = fileName(source) + String.format(".%06d", i);
                    ContainerChannel ch = source.openSibling(member);
                    members.add(ch);
                    files.add(SionFile.read(ch, source.siblingName(member), member, recover));
                }
                int m = first.mappingSize;
                fileOf = new int[m];
                localOf = new int[m];
                for (int g = 0; g < m; g++) {
                    int f = first.mapping[2 * g];
                    int local = first.mapping[2 * g + 1];
                    if (f < 0 || f >= files.size() || local < 0 || local >= files.get(f).ntasks) {
                        throw new ContainerFormatException(source.name(), first.mappingOffset + 8L * g, "task " + g,
                                "a mapping entry (file number < " + files.size() + ", local rank within that file)",
                                "(" + f + ", " + local + ")");
                    }
                    fileOf[g] = f;
                    localOf[g] = local;
                }
                tasks = m;
            } else {
                fileOf = null;
                localOf = null;
                tasks = first.ntasks;
            }
        } catch (IOException | RuntimeException e) {
            closeMembers(e);
            throw e;
        }
        this.keyValue = !chunks && first.keyValueMode == SionFile.KEYVAL_INLINE;
    }

    private static String fileName(ContainerSource source) {
        return source.fileName();
    }

    private void closeMembers(Exception failure) {
        for (ContainerChannel ch : members) {
            try {
                ch.close();
            } catch (IOException e) {
                failure.addSuppressed(e);
            }
        }
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (ContainerChannel ch : members) {
            try {
                ch.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        members.clear();
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public Node root() {
        return new Root();
    }

    int tasks() {
        return tasks;
    }

    SionFile fileOf(int g) {
        return files.get(fileOf == null ? 0 : fileOf[g]);
    }

    int localOf(int g) {
        return localOf == null ? g : localOf[g];
    }

    static String taskName(long g) {
        return Names.indexed(TASK_PREFIX, g, WIDTH);
    }

    static String chunkName(long b) {
        return Names.indexed(CHUNK_PREFIX, b, WIDTH);
    }

    private int parseTask(String name) {
        long g = Names.parseIndexed(name, TASK_PREFIX, WIDTH);
        return g >= 0 && g < tasks ? (int) g : -1;
    }

    /** The task's logical stream: the used bytes of its chunks, one range per chunk, never copied. */
    Content stream(int g) {
        SionFile f = fileOf(g);
        int t = localOf(g);
        int blocks = f.blocks(t);
        List<Content> parts = new ArrayList<>(blocks);
        for (int b = 0; b < blocks; b++) {
            long used = f.used(t, b);
            if (used > 0) {
                parts.add(chunk(g, b));
            }
        }
        return parts.size() == 1 ? parts.get(0) : new ConcatenatedContent(parts);
    }

    private ByteRangeContent chunk(int g, int b) {
        SionFile f = fileOf(g);
        int t = localOf(g);
        return ByteRangeContent.stored(f.channel, f.offset(t, b), f.used(t, b),
                "SION " + taskName(g) + " " + chunkName(b));
    }

    private SionKeyIndex keyIndex(int g) throws IOException {
        try {
            return keyIndexes.computeIfAbsent(g, key -> {
                try {
                    return SionKeyIndex.scan(stream(g), fileOf(g).order, fileOf(g).name, taskName(g));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private final class Root extends DirectoryNode {
        @Override
        public String name() {
            return "";
        }

        @Override
        public Node child(String name) {
            int g = parseTask(name);
            return g < 0 ? null : task(g);
        }

        @Override
        public List<Node> children() {
            return indexed(tasks, i -> task(i));
        }

        private Node task(int g) {
            if (chunks) {
                return new ChunkDir(g);
            }
            return keyValue ? new KeyValueDir(g) : new TaskFile(g, taskName(g));
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            SionFile f = files.get(0);
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("format", "sion");
            a.put("blockSize", f.blockSize);
            a.put("tasks", tasks);
            a.put("files", f.nfiles);
            a.put("filesOpened", files.size());
            a.put("fileNumber", f.fileNumber);
            int maxChunks = 0;
            for (SionFile m : files) {
                maxChunks = Math.max(maxChunks, m.recovered ? m.blocks(0) : m.maxUsedChunks);
            }
            a.put("maxChunks", maxChunks);
            a.put("fileFormatVersion", f.fileFormatVersion);
            a.put("writerVersion", f.writerVersion());
            a.put("writerVersionNumber", f.sionVersion);
            a.put("patchLevel", f.patchLevel);
            a.put("endianness", f.metadataBigEndian ? "big" : "little");
            a.put("userDataEndianness", f.userDataBigEndian ? "big" : "little");
            a.put("keyValueMode", f.keyValueMode);
            a.put("keyValueModeName", SionFile.keyValueModeName(f.keyValueMode));
            a.put("flag1", f.flag1);
            a.put("flag2", f.flag2);
            a.put("prefix", f.prefixString());
            a.put("chunkSizesStored", f.storedChunkSizes.clone());
            a.put("startOfData", f.startOfData);
            a.put("startOfVarheader", f.startOfVarheader);
            a.put("mappingSize", f.mappingSize);
            a.put("recovered", f.recovered);
            a.put("view", chunks ? "chunks" : keyValue ? "keyvalue" : "tasks");
            a.put("size", f.fileSize);
            a.put("damage", recoveredDamage());
            a.put("uncommittedTail", ""); // a SION file is created whole, renamed into place at close
            return a;
        }
    }

    /** Files opened with recover=true: their chunk sizes are guessed, so what is listed may not be what was written. */
    private String recoveredDamage() {
        StringBuilder d = new StringBuilder();
        for (SionFile m : files) {
            if (m.recovered) {
                d.append(d.length() == 0 ? "" : "; ").append(m.physicalName).append(": no META2 block at the end of the ")
                        .append(m.fileSize).append("-byte file (expected after the chunks; the writer did not close it):"
                        + " chunk sizes are capacities clipped to the end of the file (recover=true)");
            }
        }
        return d.toString();
    }

    private Map<String, Object> taskAttributes(int g) {
        SionFile f = fileOf(g);
        int t = localOf(g);
        int blocks = f.blocks(t);
        long[] sizes = new long[blocks];
        long[] offsets = new long[blocks];
        long total = 0;
        for (int b = 0; b < blocks; b++) {
            sizes[b] = f.used(t, b);
            offsets[b] = f.offset(t, b);
            total += sizes[b];
        }
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("task", g);
        a.put("globalRank", f.globalRanks[t]);
        a.put("localRank", t);
        a.put("physicalFile", f.physicalName);
        a.put("fileIndex", fileOf == null ? 0 : fileOf[g]);
        a.put("blockCount", blocks);
        a.put("capacity", f.capacity[t]);
        a.put("chunkSizes", sizes);
        a.put("chunkOffsets", offsets);
        a.put("streamSize", total);
        a.put("recovered", f.recovered);
        return a;
    }

    /** {@code /taskNNNNNN}: the logical stream. Also {@code stream} inside a key-value task. */
    private final class TaskFile extends FileNode {
        private final int g;
        private final String name;

        TaskFile(int g, String name) {
            this.g = g;
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public long size() {
            return fileOf(g).streamSize(localOf(g));
        }

        @Override
        public Content content() {
            return stream(g);
        }

        @Override
        public Map<String, Object> attributes() {
            return taskAttributes(g);
        }
    }

    /** {@code /taskNNNNNN/} with {@code chunks=true}. */
    private final class ChunkDir extends DirectoryNode {
        private final int g;

        ChunkDir(int g) {
            this.g = g;
        }

        @Override
        public String name() {
            return taskName(g);
        }

        @Override
        public Node child(String name) {
            long b = Names.parseIndexed(name, CHUNK_PREFIX, WIDTH);
            return b >= 0 && b < fileOf(g).blocks(localOf(g)) ? new ChunkFile(g, (int) b) : null;
        }

        @Override
        public List<Node> children() {
            int blocks = fileOf(g).blocks(localOf(g));
            return indexed(blocks, i -> new ChunkFile(g, i));
        }

        @Override
        public Map<String, Object> attributes() {
            return taskAttributes(g);
        }
    }

    private final class ChunkFile extends FileNode {
        private final int g;
        private final int b;

        ChunkFile(int g, int b) {
            this.g = g;
            this.b = b;
        }

        @Override
        public String name() {
            return chunkName(b);
        }

        @Override
        public long size() {
            return fileOf(g).used(localOf(g), b);
        }

        @Override
        public Content content() {
            return chunk(g, b);
        }

        @Override
        public Map<String, Object> attributes() {
            SionFile f = fileOf(g);
            int t = localOf(g);
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("task", g);
            a.put("chunk", b);
            a.put("globalRank", f.globalRanks[t]);
            a.put("localRank", t);
            a.put("physicalFile", f.physicalName);
            a.put("offset", f.offset(t, b));
            a.put("size", f.used(t, b));
            a.put("capacity", f.capacity[t]);
            a.put("recovered", f.recovered);
            return a;
        }
    }

    /** {@code /taskNNNNNN/} of a key-value (INLINE) file: {@code stream} and {@code key-<key>} files. */
    private final class KeyValueDir extends DirectoryNode {
        private final int g;

        KeyValueDir(int g) {
            this.g = g;
        }

        @Override
        public String name() {
            return taskName(g);
        }

        @Override
        public Node child(String name) throws IOException {
            if (name.equals(STREAM)) {
                return new TaskFile(g, STREAM);
            }
            if (!name.startsWith("key-")) {
                return null;
            }
            long key;
            try {
                key = Long.parseUnsignedLong(name.substring(4));
            } catch (NumberFormatException e) {
                return null;
            }
            SionKeyIndex index = keyIndex(g);
            int i = index.find(key);
            return i >= 0 && SionKeyIndex.fileName(key).equals(name) ? new KeyFile(g, index, i) : null;
        }

        @Override
        public List<Node> children() throws IOException {
            SionKeyIndex index = keyIndex(g);
            List<Node> out = new ArrayList<>(index.keyCount() + 1);
            out.add(new TaskFile(g, STREAM));
            for (int i = 0; i < index.keyCount(); i++) {
                out.add(new KeyFile(g, index, i));
            }
            return out;
        }

        @Override
        public Map<String, Object> attributes() throws IOException {
            Map<String, Object> a = taskAttributes(g);
            a.put("keys", keyIndex(g).keyCount());
            return a;
        }
    }

    private final class KeyFile extends FileNode {
        private final int g;
        private final SionKeyIndex index;
        private final int i;

        KeyFile(int g, SionKeyIndex index, int i) {
            this.g = g;
            this.index = index;
            this.i = i;
        }

        @Override
        public String name() {
            return SionKeyIndex.fileName(index.key(i));
        }

        @Override
        public long size() {
            return index.size(i);
        }

        @Override
        public Content content() {
            return index.content(i);
        }

        @Override
        public Map<String, Object> attributes() {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("task", g);
            a.put("key", Long.toUnsignedString(index.key(i)));
            a.put("records", index.recordSizes(i).length); // non-empty records; empty ones add no bytes
            a.put("recordOffsets", index.recordOffsets(i));
            a.put("recordSizes", index.recordSizes(i));
            a.put("globalRank", fileOf(g).globalRanks[localOf(g)]);
            return a;
        }
    }
}
