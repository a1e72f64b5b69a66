package org.containerfs.sion;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds SION files byte by byte from sion.md's layout, for the variants the reference corpus does
 * not contain (file-format versions 2 and 3, key-value files, multi-file sets, killed writers,
 * hostile headers). Tests patch single fields of the result to make damaged files.
 */
final class SionBytes {
    ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    boolean userDataBig;
    int ffv = 5;
    int version = 1007;
    int patch = 6;
    int blockSize = 512;
    int nfiles = 1;
    int fileNumber = 1;
    long flag1 = 50L << 32;
    String prefix = "synthetic.sion";
    long[] globalRanks;
    /** Stored chunk sizes; null = each task's largest block rounded up to the block size. */
    long[] chunkSizes;
    /** data[task][block]: the used bytes of each chunk. A task with no blocks gets one empty block. */
    byte[][][] data;
    /** (filenr, localrank) pairs; null = mapping_size 0. */
    int[] mapping;
    boolean mappingField = true;
    /** A writer killed before close: M13 stays zero, no META2, the file ends after the last data. */
    boolean killed;

    // Offsets of interest after build()
    int varStart;
    long startOfData;
    long startOfVarheader;
    long globalSkip;
    long[] capStart;

    static SionBytes of(byte[][][] data) {
        SionBytes s = new SionBytes();
        s.data = data;
        return s;
    }

    int headerSize() {
        return ffv >= 3 ? 52 : 32;
    }

    long capacity(int t) {
        long stored = chunkSizes[t];
        return ffv <= 3 ? roundUp(stored, blockSize) : stored;
    }

    static long roundUp(long v, long b) {
        return v % b == 0 ? v : (v / b + 1) * b;
    }

    byte[] build() {
        int n = data.length;
        if (globalRanks == null) {
            globalRanks = new long[n];
            for (int t = 0; t < n; t++) {
                globalRanks[t] = t;
            }
        }
        if (chunkSizes == null) {
            chunkSizes = new long[n];
            for (int t = 0; t < n; t++) {
                long max = 1;
                for (byte[] block : data[t]) {
                    max = Math.max(max, block.length);
                }
                chunkSizes[t] = roundUp(max, blockSize);
            }
        }
        int maxUsed = 1;
        for (byte[][] task : data) {
            maxUsed = Math.max(maxUsed, task.length);
        }
        varStart = headerSize() + 1024;
        capStart = new long[n];
        long skip = 0;
        for (int t = 0; t < n; t++) {
            capStart[t] = skip;
            skip += capacity(t);
        }
        globalSkip = skip;
        startOfData = roundUp(1088 + 16L * n, blockSize);
        startOfVarheader = startOfData + maxUsed * skip;
        int mappingSize = mapping == null ? 0 : mapping.length / 2;
        long meta2 = 8L * n + 8L * n * maxUsed + (mappingField ? 4 + 8L * mappingSize : 0);
        ByteBuffer b = ByteBuffer.allocate((int) (startOfVarheader + meta2)).order(order);
        b.put(new byte[] {'s', 'i', 'o', 'n'});
        byte m = (byte) (order == ByteOrder.BIG_ENDIAN ? 1 : 0);
        byte u = (byte) (userDataBig ? 1 : 0);
        b.put(new byte[] {m, u, u, m});
        b.putInt(version).putInt(patch).putInt(ffv).putInt(blockSize).putInt(n).putInt(nfiles);
        if (ffv >= 3) {
            b.putInt(fileNumber).putLong(flag1).putLong(0);
        }
        byte[] p = Arrays.copyOf(prefix.getBytes(StandardCharsets.UTF_8), 1024);
        b.put(p);
        for (long r : globalRanks) {
            b.putLong(r);
        }
        for (long c : chunkSizes) {
            b.putLong(c);
        }
        long end = startOfData;
        if (!killed) {
            b.putInt(maxUsed).putLong(startOfVarheader);
        }
        for (int t = 0; t < n; t++) {
            for (int blk = 0; blk < data[t].length; blk++) {
                long off = startOfData + blk * skip + capStart[t];
                b.put((int) off, data[t][blk]);
                end = Math.max(end, off + data[t][blk].length);
            }
        }
        if (killed) {
            return Arrays.copyOf(b.array(), (int) end);
        }
        b.position((int) startOfVarheader);
        for (int t = 0; t < n; t++) {
            b.putLong(Math.max(1, data[t].length));
        }
        for (int blk = 0; blk < maxUsed; blk++) {
            for (int t = 0; t < n; t++) {
                b.putLong(blk < data[t].length ? data[t][blk].length : 0);
            }
        }
        if (mappingField) {
            b.putInt(mappingSize);
            if (mapping != null) {
                for (int v : mapping) {
                    b.putInt(v);
                }
            }
        }
        return b.array();
    }

    /** A key-value (INLINE) record stream: key(uint64) len(uint64) bytes, in {@code order}. */
    static byte[] records(ByteOrder order, Object... keysAndValues) {
        int size = 0;
        for (int i = 0; i < keysAndValues.length; i += 2) {
            size += 16 + ((byte[]) keysAndValues[i + 1]).length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(order);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            byte[] v = (byte[]) keysAndValues[i + 1];
            b.putLong(((Number) keysAndValues[i]).longValue()).putLong(v.length).put(v);
        }
        return b.array();
    }

    static byte[] filled(int length, int seed) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) (seed * 31 + i * 7 + (i >> 8));
        }
        return out;
    }
}
