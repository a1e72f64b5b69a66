package org.containerfs.fuse;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import org.cryptomator.jfuse.api.Stat;

/**
 * {@code st_blocks}, which jfuse's {@link Stat} has no setter for: written into the native
 * {@code struct stat} behind it. Without it every file has 0 blocks, so {@code du} says 0 and GNU
 * {@code tar --sparse} takes every file for a hole and archives zeros.
 */
final class StatBlocks {
    /** Offset of st_blocks in Linux's struct stat on x86_64 and aarch64 (the platforms jfuse supports). */
    private static final long ST_BLOCKS_OFFSET = 64;
    private static volatile Method segmentAccessor;

    private StatBlocks() {}

    /** Blocks of 512 bytes that {@code size} bytes occupy: ceil(size / 512). */
    static long blocksOf(long size) {
        return (size + 511) / 512;
    }

    static void set(Stat stat, long size) {
        MemorySegment segment = segmentOf(stat);
        if (segment != null && segment.byteSize() >= ST_BLOCKS_OFFSET + Long.BYTES) {
            segment.set(ValueLayout.JAVA_LONG_UNALIGNED, ST_BLOCKS_OFFSET, blocksOf(size));
        }
    }

    private static MemorySegment segmentOf(Stat stat) {
        try {
            Method m = segmentAccessor;
            if (m == null || m.getDeclaringClass() != stat.getClass()) {
                m = stat.getClass().getDeclaredMethod("segment");
                m.setAccessible(true);
                segmentAccessor = m;
            }
            return (MemorySegment) m.invoke(stat);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another jfuse layout: blocks stay 0 rather than a crash
        }
    }
}
