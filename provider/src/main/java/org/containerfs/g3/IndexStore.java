package org.containerfs.g3;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.CRC32C;
import org.containerfs.spi.ContainerSource;

/**
 * The persisted index of a .g3.gz: frame index plus restart points (with their 32 KiB windows), so a
 * second open reads no compressed data at all. Enabled by env {@code gzipIndex=true} (file
 * {@code <name>.zidx} beside the container) or {@code gzipIndexDir=<directory>} (same name there, on the
 * container's file system; a local directory for a container in an object store, beside which nothing is
 * ever written). It is used only if it records the container's current size and
 * modification time and the same restart span; otherwise the file is scanned and the index rewritten.
 * A CRC-32C of all its bytes ends the file: a damaged index is ignored (and rewritten), never trusted,
 * since its offsets decide which bytes a read returns.
 */
final class IndexStore {
    private static final long MAGIC = 0x4733_5A49_4458_3033L; // "G3ZIDX03": 02 plus a CRC-32C trailer

    private final Path path;
    private final long size;
    private final long mtime;

    private IndexStore(Path path, long size, long mtime) {
        this.path = path;
        this.size = size;
        this.mtime = mtime;
    }

    static IndexStore of(ContainerSource source) throws IOException {
        String dir = source.options().getString("gzipIndexDir", null);
        boolean beside = source.options().getBoolean("gzipIndex", false);
        if (dir == null && !beside) {
            return null;
        }
        String name = source.fileName() + ".zidx";
        if (!source.canWriteBeside()) {
            // an object store (an input, or an NIO path without in-place writes): never write beside the
            // object; a gzipIndexDir is a local directory, and without one the core's index cache keeps it
            if (dir == null) {
                throw new java.nio.file.AccessDeniedException(source.name(), null, "env gzipIndex=true would write "
                        + name + " beside the container, in a store that is only read; nothing was written. "
                        + "Leave it out (the local index cache keeps this index) or give gzipIndexDir=<local directory>");
            }
            long mtime = source.path() == null ? source.input().lastModified().toMillis()
                    : Files.getLastModifiedTime(source.path()).toMillis();
            return new IndexStore(Path.of(dir).resolve(name), source.channel().size(), mtime);
        }
        Path at = dir != null ? source.path().getFileSystem().getPath(dir).resolve(name) : source.sibling(name);
        return new IndexStore(at, source.channel().size(), Files.getLastModifiedTime(source.path()).toMillis());
    }

    /** Whether the file there is an index of this container as it is now, made with restart span {@code span}. */
    boolean holds(long span) {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        try (java.io.DataInputStream in = new java.io.DataInputStream(Files.newInputStream(path))) {
            return in.readLong() == MAGIC && in.readLong() == size && in.readLong() == mtime && in.readLong() == span;
        } catch (IOException e) {
            return false;
        }
    }

    String location() {
        return path.toString();
    }

    boolean load(GzipIndex gz, G3Index index) {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        try (java.io.InputStream file = Files.newInputStream(path)) {
            FieldReader in = FieldReader.summing(file);
            long limit = Files.size(path);
            if (in.readLong() != MAGIC || in.readLong() != size || in.readLong() != mtime || in.readLong() != gz.span()) {
                return false;
            }
            readGzip(in, limit, gz, size);
            readFrames(in, limit, index, gz.streamSize());
            int computedSum = in.checksum();
            if (in.readInt() != computedSum || !in.atEnd()) {
                throw new IOException("checksum mismatch in " + path);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            index.clear();
            gz.clear();
            return false;
        }
    }

    /** Members and restart points (with their windows), checked against the compressed file's size. */
    static void readGzip(java.io.DataInput in, long limit, GzipIndex gz, long fileSize) throws IOException {
        gz.restart().readFrom(in, limit, fileSize);
    }

    static void writeGzip(DataOutputStream out, GzipIndex gz) throws IOException {
        gz.restart().writeTo(out);
    }

    /**
     * Interned keys, frames with their entries and what follows the last frame, checked against the
     * (decompressed) stream's length {@code streamEnd} before anything is trusted.
     */
    static void readFrames(java.io.DataInput in, long limit, G3Index index, long streamEnd) throws IOException {
        int keyCount = count(in, limit / 4); // each key takes at least its 4-byte length
        int[] idOf = new int[keyCount]; // interned once here, so that no frame's entry hashes its key again
        for (int k = 0; k < keyCount; k++) {
            byte[] key = new byte[count(in, Math.min(limit, G3Index.MAX_KEY_BYTES))];
            in.readFully(key);
            idOf[k] = index.intern(key);
        }
        int frames = count(in, limit);
        long[] blobs = new long[32];
        int[] ids = new int[16];
        for (int f = 0; f < frames; f++) {
            long offset = in.readLong();
            long length = in.readLong();
            int type = in.readInt();
            int crc = in.readInt();
            boolean big = in.readBoolean();
            int n = count(in, limit);
            if (blobs.length < 2 * n) {
                blobs = new long[2 * n];
                ids = new int[n];
            }
            for (int e = 0; e < n; e++) {
                int id = in.readInt();
                if (id < 0 || id >= keyCount) {
                    throw new IOException("bad key id " + id);
                }
                ids[e] = idOf[id];
                blobs[2 * e] = in.readLong();
                blobs[2 * e + 1] = in.readLong();
            }
            int state = in.readByte();
            int computed = in.readInt();
            index.addLoadedFrame(offset, length, type, crc, big, n, blobs, ids);
            if (state != 0) {
                index.setCrc(f, computed);
            }
        }
        long tailLength = in.readLong();
        boolean truncated = in.readBoolean();
        String indexDamage = in.readBoolean() ? in.readUTF() : null;
        index.restoreTail(tailLength, truncated, indexDamage);
        String problem = index.structureProblem(streamEnd);
        if (problem != null) {
            throw new IOException("inconsistent frame index: " + problem);
        }
    }

    static void writeFrames(DataOutputStream out, G3Index index) throws IOException {
        out.writeInt(index.keyCount());
        for (int k = 0; k < index.keyCount(); k++) {
            byte[] key = index.keyById(k);
            out.writeInt(key.length);
            out.write(key);
        }
        out.writeInt(index.frames());
        for (int f = 0; f < index.frames(); f++) {
            out.writeLong(index.frameOffset(f));
            out.writeLong(index.frameLength(f));
            out.writeInt(index.frameType(f));
            out.writeInt(index.crcStored(f));
            out.writeBoolean(index.bigEndian(f));
            out.writeInt(index.endEntry(f) - index.firstEntry(f));
            for (int e = index.firstEntry(f); e < index.endEntry(f); e++) {
                out.writeInt(index.keyId(e));
                out.writeLong(index.blobOffset(e));
                out.writeLong(index.blobLength(e));
            }
            out.writeByte(index.crcState(f));
            out.writeInt(index.crcComputed(f));
        }
        out.writeLong(index.tailLength());
        out.writeBoolean(index.tailTruncated());
        writeNullable(out, index.damage());
    }

    private static int count(java.io.DataInput in, long limit) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > limit) {
            throw new IOException("bad count " + n);
        }
        return n;
    }

    boolean save(GzipIndex gz, G3Index index) {
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try {
            FieldWriter summed;
            try (DataOutputStream out = new DataOutputStream(summed = FieldWriter.summing(Files.newOutputStream(tmp)))) {
                out.writeLong(MAGIC);
                out.writeLong(size);
                out.writeLong(mtime);
                out.writeLong(gz.span());
                writeGzip(out, gz);
                writeFrames(out, index);
                out.writeInt(summed.checksum());
            }
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the index is an optional cache
            }
            return false;
        }
    }

    private static void writeNullable(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s.length() > 20000 ? s.substring(0, 20000) : s);
        }
    }
}
