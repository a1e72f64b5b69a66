package org.containerfs.fuse.lowlevel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * Native memory a serving thread reuses for its replies (one request at a time per thread): the
 * structs, a name, and a data buffer that grows to the largest request seen. Freed with the thread.
 */
final class Scratch {
    private static final ThreadLocal<Scratch> PER_THREAD = ThreadLocal.withInitial(Scratch::new);

    private final Arena arena = Arena.ofAuto();
    final MemorySegment stat = arena.allocate(Abi.STAT.size(), 8);
    final MemorySegment entry = arena.allocate(Abi.ENTRY_SIZE, 8);
    final MemorySegment statvfs = arena.allocate(Abi.STATVFS_SIZE, 8);
    final MemorySegment bufvec = arena.allocate(Abi.BUFVEC_SIZE, 8);
    private MemorySegment name = arena.allocate(256);
    private MemorySegment data = MemorySegment.NULL;

    static Scratch get() {
        return PER_THREAD.get();
    }

    /** {@code text} as a NUL-terminated UTF-8 string in this thread's name buffer. */
    MemorySegment cString(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (name.byteSize() < bytes.length + 1L) {
            name = arena.allocate(bytes.length + 1L);
        }
        MemorySegment.copy(bytes, 0, name, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes.length);
        name.set(java.lang.foreign.ValueLayout.JAVA_BYTE, bytes.length, (byte) 0);
        return name;
    }

    /** A buffer of at least {@code size} bytes (its content is undefined). */
    MemorySegment data(long size) {
        if (data.byteSize() < size) {
            data = arena.allocate(Math.max(size, 64 * 1024), 4096);
        }
        return data;
    }
}
