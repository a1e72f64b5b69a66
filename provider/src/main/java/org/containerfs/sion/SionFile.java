package org.containerfs.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.spi.UnsupportedVersionException;

/**
 * The index of one physical SION file: META1 (header, global ranks, chunk capacities, M13) and
 * META2 (block counts, used sizes, mapping), held in compact arrays. Task data is never read here.
 *
 * <p>Every count is checked against the file size before anything is allocated for it.
 */
final class SionFile {
    static final byte[] MAGIC = {'s', 'i', 'o', 'n'};
    /** Bytes of the NUL-padded prefix (SION_FILENAME_LENGTH). */
    static final int PREFIX_BYTES = 1024;
    /** META1 as the library sizes it for every file-format version: 1088 + 16 n. */
    static final int META1_FIXED = 1088;
    static final int CURRENT_FFV = 5;
    static final int KEYVAL_NONE = 50;
    static final int KEYVAL_INLINE = 51;
    /** Recovery guesses the block count from the file size; beyond this the guess is not believable. */
    static final int MAX_RECOVERED_BLOCKS = 1 << 20;

    final String name;
    final String physicalName;
    final ContainerChannel channel;
    final long fileSize;

    final boolean metadataBigEndian;
    final boolean userDataBigEndian;
    final ByteOrder order;
    final int sionVersion;
    final int patchLevel;
    final int fileFormatVersion;
    final int blockSize;
    final int ntasks;
    final int nfiles;
    /** -1 when the version has no such field (ffv &lt; 3). */
    final int fileNumber;
    final long flag1;
    final long flag2;
    final int keyValueMode;
    final byte[] prefix;

    final long[] globalRanks;
    final long[] storedChunkSizes;
    final long[] capacity;
    /** capStart[t] = sum of capacity[i] for i &lt; t. */
    final long[] capStart;
    final long globalSkip;
    final int maxUsedChunks;
    final long startOfVarheader;
    final long startOfData;

    /** Null when recovered (used sizes are then computed from the file size). */
    private final int[] blockCount;
    private final long[] blockSizes;
    final int mappingSize;
    /** (filenr, localrank) pairs, indexed by global position; null when absent. */
    final int[] mapping;
    final boolean mappingFieldPresent;
    /** File offset of the first mapping pair. */
    final long mappingOffset;

    final boolean recovered;
    private final int recoveredBlocks;

    private SionFile(Builder b) {
        name = b.name;
        physicalName = b.physicalName;
        channel = b.channel;
        fileSize = b.fileSize;
        metadataBigEndian = b.metadataBigEndian;
        userDataBigEndian = b.userDataBigEndian;
        order = metadataBigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        sionVersion = b.sionVersion;
        patchLevel = b.patchLevel;
        fileFormatVersion = b.ffv;
        blockSize = b.blockSize;
        ntasks = b.ntasks;
        nfiles = b.nfiles;
        fileNumber = b.fileNumber;
        flag1 = b.flag1;
        flag2 = b.flag2;
        keyValueMode = b.keyValueMode;
        prefix = b.prefix;
        globalRanks = b.globalRanks;
        storedChunkSizes = b.storedChunkSizes;
        capacity = b.capacity;
        capStart = b.capStart;
        globalSkip = b.globalSkip;
        maxUsedChunks = b.maxUsedChunks;
        startOfVarheader = b.startOfVarheader;
        startOfData = b.startOfData;
        blockCount = b.blockCount;
        blockSizes = b.blockSizes;
        mappingSize = b.mappingSize;
        mapping = b.mapping;
        mappingFieldPresent = b.mappingFieldPresent;
        mappingOffset = b.mappingOffset;
        recovered = b.recovered;
        recoveredBlocks = b.recoveredBlocks;
    }

    /** Number of chunks (blocks) task {@code t} uses. */
    int blocks(int t) {
        return recovered ? recoveredBlocks : blockCount[t];
    }

    /** File offset of chunk {@code b} of task {@code t}. */
    long offset(int t, int b) {
        return startOfData + b * globalSkip + capStart[t];
    }

    /** Used bytes of chunk {@code b} of task {@code t}; when recovered, the capacity clipped to the file. */
    long used(int t, int b) {
        if (recovered) {
            long off = offset(t, b);
            return Math.max(0, Math.min(capacity[t], fileSize - off));
        }
        return blockSizes[b * ntasks + t];
    }

    long streamSize(int t) {
        long sum = 0;
        int n = blocks(t);
        for (int b = 0; b < n; b++) {
            sum += used(t, b);
        }
        return sum;
    }

    String writerVersion() {
        return (sionVersion / 1000) + "." + (sionVersion % 1000) + "p" + patchLevel;
    }

    String prefixString() {
        return new String(prefix, StandardCharsets.UTF_8);
    }

    static String keyValueModeName(int mode) {
        switch (mode) {
            case 50: return "none";
            case 51: return "inline";
            case 52: return "meta";
            case 53: return "hash";
            case 54: return "unknown";
            case 55: return "notset";
            default: return "invalid(" + mode + ")";
        }
    }

    static long roundUp(long value, long block) {
        long r = value % block;
        return r == 0 ? value : Math.addExact(value, block - r);
    }

    // ---- parsing ------------------------------------------------------------------------------

    /**
     * Reads the index of a SION file. {@code recover}: a file whose META2 is missing (writer killed
     * before close) opens with positions from META1 and lengths clipped to the file.
     */
    static SionFile read(ContainerChannel channel, String name, String physicalName, boolean recover)
            throws IOException {
        Builder b = new Builder();
        b.name = name;
        b.physicalName = physicalName;
        b.channel = channel;
        long size = channel.size();
        b.fileSize = size;
        if (size == 0) {
            throw new ContainerFormatException(name, 0, null, "a SION file", "an empty file (a create=true "
                    + "writer that was killed before close leaves such an empty placeholder)");
        }
        ByteBuffer head = ByteBuffer.allocate((int) Math.min(size, 52));
        channel.readUpTo(head, 0);
        head.flip();
        if (head.remaining() < 4 || !startsWithMagic(head)) {
            throw new ContainerFormatException(name, 0, null, "the magic \"sion\"", head.remaining() < 4
                    ? "a file of " + size + " bytes" : String.format("%02x %02x %02x %02x",
                            head.get(0) & 0xFF, head.get(1) & 0xFF, head.get(2) & 0xFF, head.get(3) & 0xFF));
        }
        if (head.remaining() < 32) {
            throw new TruncatedDataException(name, size, null, "a SION header of at least 32 bytes",
                    "the file ends at byte " + size);
        }
        int e0 = head.get(4) & 0xFF;
        int e1 = head.get(5) & 0xFF;
        int e2 = head.get(6) & 0xFF;
        int e3 = head.get(7) & 0xFF;
        if (e0 > 1 || e0 != e3 || e1 > 1 || e1 != e2) {
            throw new ContainerFormatException(name, 4, "header", "an endianness word of the form "
                    + "m u u m with m, u in {0,1}", String.format("%02x %02x %02x %02x", e0, e1, e2, e3));
        }
        b.metadataBigEndian = e0 == 1;
        b.userDataBigEndian = e1 == 1;
        ByteOrder order = b.metadataBigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        head.order(order);
        b.sionVersion = head.getInt(8);
        b.patchLevel = head.getInt(12);
        b.ffv = head.getInt(16);
        if (b.ffv < 2 || b.ffv > CURRENT_FFV) {
            // SIONlib rejects versions below 2; no SIONlib release defines a version above 5.
            throw new UnsupportedVersionException(name, 16, "header", "SION file-format version 2 to " + CURRENT_FFV,
                    Integer.toString(b.ffv));
        }
        b.blockSize = head.getInt(20);
        if (b.blockSize <= 0) {
            throw new ContainerFormatException(name, 20, "header", "a positive file system block size",
                    Integer.toString(b.blockSize));
        }
        b.ntasks = head.getInt(24);
        if (b.ntasks < 0) {
            throw new ContainerFormatException(name, 24, "header", "a task count >= 0", Integer.toString(b.ntasks));
        }
        b.nfiles = head.getInt(28);
        if (b.nfiles < 1) {
            throw new ContainerFormatException(name, 28, "header", "a file count >= 1", Integer.toString(b.nfiles));
        }
        int prefixAt;
        if (b.ffv >= 3) {
            if (head.remaining() < 52) {
                throw new TruncatedDataException(name, size, null, "a SION header of 52 bytes before the prefix",
                        "the file ends at byte " + size);
            }
            b.fileNumber = head.getInt(32);
            b.flag1 = head.getLong(36);
            b.flag2 = head.getLong(44);
            prefixAt = 52;
        } else {
            // Before ffv 3 there is no filenumber, flag1 or flag2: the prefix follows nfiles
            // (_lsion_read_header_fix_part reads those three fields only when ffv >= 3).
            b.fileNumber = -1;
            prefixAt = 32;
        }
        int mode = b.ffv >= 5 ? (int) (b.flag1 >>> 32) : 0;
        b.keyValueMode = mode == 0 ? KEYVAL_NONE : mode;
        long varStart = prefixAt + PREFIX_BYTES;
        int n = b.ntasks;
        long meta1End = varStart + 16L * n + 12;
        if (meta1End > size) {
            throw new TruncatedDataException(name, size, null, "META1 for " + n + " tasks (" + meta1End
                    + " bytes: header, global ranks, chunk sizes, maxusedchunks, start_of_varheader)",
                    "the file ends at byte " + size);
        }
        ByteBuffer prefixBuf = ByteBuffer.allocate(PREFIX_BYTES);
        channel.readFully(prefixBuf, prefixAt);
        int len = 0;
        while (len < PREFIX_BYTES && prefixBuf.get(len) != 0) {
            len++;
        }
        b.prefix = java.util.Arrays.copyOf(prefixBuf.array(), len);

        b.globalRanks = readLongs(channel, varStart, n, order);
        b.storedChunkSizes = readLongs(channel, varStart + 8L * n, n, order);
        ByteBuffer m13 = ByteBuffer.allocate(12).order(order);
        channel.readFully(m13, varStart + 16L * n);
        b.maxUsedChunks = m13.getInt(0);
        b.startOfVarheader = m13.getLong(4);
        long m13At = varStart + 16L * n;

        // From ffv 4 the stored sizes are the capacities: share the array.
        b.capacity = b.ffv <= 3 ? new long[n] : b.storedChunkSizes;
        b.capStart = new long[n];
        long skip = 0;
        for (int t = 0; t < n; t++) {
            long stored = b.storedChunkSizes[t];
            if (stored < 0) {
                throw new ContainerFormatException(name, varStart + 8L * n + 8L * t, "task " + t, "a chunk size >= 0",
                        Long.toString(stored));
            }
            long cap;
            try {
                // ffv <= 3 stores the requested size; the library aligns it when reading.
                cap = b.ffv <= 3 ? roundUp(stored, b.blockSize) : stored;
                if (b.ffv <= 3) {
                    b.capacity[t] = cap;
                }
                b.capStart[t] = skip;
                skip = Math.addExact(skip, cap);
            } catch (ArithmeticException e) {
                throw new ContainerFormatException(name, varStart + 8L * n + 8L * t, "task " + t,
                        "chunk sizes whose sum fits in 64 bits", "a sum past 2^63 with chunk size " + stored);
            }
        }
        b.globalSkip = skip;
        long formulaStart = roundUp(META1_FIXED + 16L * n, b.blockSize);

        boolean meta2Missing = b.startOfVarheader == 0;
        if (!meta2Missing) {
            if (b.maxUsedChunks < 0 || (b.maxUsedChunks == 0 && n > 0)) {
                throw new ContainerFormatException(name, m13At, "META1", "maxusedchunks >= 1", Long.toString(b.maxUsedChunks));
            }
            if (b.startOfVarheader < meta1End || b.startOfVarheader > size) {
                if (b.startOfVarheader > size && recover) {
                    meta2Missing = true;
                } else {
                    String expected = "start_of_varheader between the end of META1 (" + meta1End
                            + ") and the end of the file (" + size + ")";
                    if (b.startOfVarheader > size) {
                        throw new TruncatedDataException(name, m13At + 4, "META1", expected, b.startOfVarheader
                                + ": the file was cut short (env recover=true opens what is left)");
                    }
                    throw new ContainerFormatException(name, m13At + 4, "META1", expected, Long.toString(b.startOfVarheader));
                }
            }
        }
        if (meta2Missing) {
            if (!recover) {
                throw new ContainerFormatException(name, m13At + 4, "META1", "the start of META2 (start_of_varheader)",
                        "0: META2 is missing, so the writer never closed the file (killed?) and the used size of every "
                        + "chunk is lost (SIONlib refuses such files too); env recover=true opens it read-only with chunk "
                        + "positions from META1 and lengths clipped to the file");
            }
            b.recovered = true;
            b.startOfData = formulaStart;
            // Heuristic: every block row that has at least started before the end of file.
            long rows = 1;
            if (skip > 0 && size > formulaStart) {
                rows = Math.max(1, (size - formulaStart + skip - 1) / skip);
            }
            if (rows > MAX_RECOVERED_BLOCKS) {
                throw new ContainerFormatException(name, m13At, "recover", "at most " + MAX_RECOVERED_BLOCKS
                        + " block rows to recover", rows + " from the file size and chunk sizes");
            }
            b.recoveredBlocks = (int) rows;
            b.mappingSize = 0;
            return new SionFile(b);
        }

        int maxChunks = b.maxUsedChunks;
        long meta2;
        long derivedStart;
        try {
            meta2 = Math.addExact(8L * n, Math.multiplyExact(8L * n, (long) maxChunks));
            derivedStart = b.startOfVarheader - Math.multiplyExact((long) maxChunks, skip);
        } catch (ArithmeticException e) {
            throw new ContainerFormatException(name, m13At, "META1", "maxusedchunks times the sum of chunk sizes to fit "
                    + "in 64 bits", maxChunks + " times " + skip);
        }
        if (meta2 > size - b.startOfVarheader) {
            throw new TruncatedDataException(name, b.startOfVarheader, "META2", meta2 + " bytes (" + n
                    + " tasks, maxusedchunks " + maxChunks + ")", "the file ends at byte " + size);
        }
        // start_of_data is not stored: derive it, and require it to lie behind META1 (a library built
        // with WFLARGEMETABLOCK puts it further back than the formula says).
        if (derivedStart < meta1End) {
            throw new ContainerFormatException(name, m13At, "META1", "start_of_varheader (" + b.startOfVarheader
                    + ") = start of data + maxusedchunks (" + maxChunks + ") * sum of chunk sizes (" + skip
                    + ") with the data behind META1 (byte " + meta1End + ")", "data at byte " + derivedStart);
        }
        b.startOfData = derivedStart;

        long bcAt = b.startOfVarheader;
        long[] counts = readLongs(channel, bcAt, n, order);
        b.blockCount = new int[n];
        for (int t = 0; t < n; t++) {
            if (counts[t] < 0 || counts[t] > maxChunks) {
                throw new ContainerFormatException(name, bcAt + 8L * t, "task " + t, "a block count between 0 and "
                        + "maxusedchunks (" + maxChunks + ")", Long.toString(counts[t]));
            }
            b.blockCount[t] = (int) counts[t];
        }
        long bsAt = bcAt + 8L * n;
        b.blockSizes = readLongs(channel, bsAt, (long) n * maxChunks, order);
        for (int blk = 0; blk < maxChunks; blk++) {
            for (int t = 0; t < n; t++) {
                if (blk >= b.blockCount[t]) {
                    continue; // 0 or -1 there: unused
                }
                long used = b.blockSizes[blk * n + t];
                if (used < 0 || used > b.capacity[t]) {
                    throw new ContainerFormatException(name, bsAt + 8L * (blk * (long) n + t), "task " + t + " block " + blk,
                            "used bytes between 0 and its capacity " + b.capacity[t], Long.toString(used));
                }
            }
        }
        long mapAt = b.startOfVarheader + meta2;
        if (size - mapAt >= 4) {
            // par_single.sion (MPI writer, one file) ends right after the block sizes: the field is optional.
            b.mappingFieldPresent = true;
            ByteBuffer ms = ByteBuffer.allocate(4).order(order);
            channel.readFully(ms, mapAt);
            int mappingSize = ms.getInt(0);
            if (mappingSize < 0 || 8L * mappingSize > size - mapAt - 4) {
                throw new TruncatedDataException(name, mapAt, "mapping", "mapping_size (int32) pairs within the "
                        + "file's " + (size - mapAt - 4) + " remaining bytes", "mapping_size " + mappingSize);
            }
            b.mappingSize = mappingSize;
            b.mappingOffset = mapAt + 4;
            if (mappingSize > 0) {
                b.mapping = readInts(channel, mapAt + 4, 2L * mappingSize, order);
            }
        }
        return new SionFile(b);
    }

    static boolean startsWithMagic(ByteBuffer head) {
        int p = head.position();
        for (int i = 0; i < MAGIC.length; i++) {
            if (head.get(p + i) != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    private static final int IO_CHUNK = 1 << 16;

    /** {@code count} int64 at {@code pos}; the caller has checked that they lie inside the file. */
    static long[] readLongs(ContainerChannel channel, long pos, long count, ByteOrder order) throws IOException {
        if (count > Integer.MAX_VALUE - 8) {
            throw new ContainerFormatException(channel.name(), pos, null, "an array of at most 2^31 entries",
                    count + " entries");
        }
        long[] out = new long[(int) count];
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(IO_CHUNK, Math.max(8, count * 8))).order(order);
        int done = 0;
        while (done < count) {
            int take = (int) Math.min(buf.capacity() / 8, count - done);
            buf.clear().limit(take * 8);
            channel.readFully(buf, pos + 8L * done);
            buf.flip();
            buf.asLongBuffer().get(out, done, take);
            done += take;
        }
        return out;
    }

    static int[] readInts(ContainerChannel channel, long pos, long count, ByteOrder order) throws IOException {
        if (count > Integer.MAX_VALUE - 8) {
            throw new ContainerFormatException(channel.name(), pos, null, "an array of at most 2^31 entries",
                    count + " entries");
        }
        int[] out = new int[(int) count];
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(IO_CHUNK, Math.max(4, count * 4))).order(order);
        int done = 0;
        while (done < count) {
            int take = (int) Math.min(buf.capacity() / 4, count - done);
            buf.clear().limit(take * 4);
            channel.readFully(buf, pos + 4L * done);
            buf.flip();
            buf.asIntBuffer().get(out, done, take);
            done += take;
        }
        return out;
    }

    private static final class Builder {
        String name;
        String physicalName;
        ContainerChannel channel;
        long fileSize;
        boolean metadataBigEndian;
        boolean userDataBigEndian;
        int sionVersion;
        int patchLevel;
        int ffv;
        int blockSize;
        int ntasks;
        int nfiles;
        int fileNumber;
        long flag1;
        long flag2;
        int keyValueMode;
        byte[] prefix;
        long[] globalRanks;
        long[] storedChunkSizes;
        long[] capacity;
        long[] capStart;
        long globalSkip;
        int maxUsedChunks;
        long startOfVarheader;
        long startOfData;
        int[] blockCount;
        long[] blockSizes;
        int mappingSize;
        int[] mapping;
        boolean mappingFieldPresent;
        long mappingOffset;
        boolean recovered;
        int recoveredBlocks;
    }
}
