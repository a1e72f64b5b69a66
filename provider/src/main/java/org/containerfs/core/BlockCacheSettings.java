package org.containerfs.core;

import org.containerfs.spi.FormatOptions;

/**
 * How the block cache in front of a remote input behaves (env keys in parentheses).
 *
 * @param cacheBytes memory the cache may hold, fetched and in flight ({@code blockCacheBytes}, 64 MiB)
 * @param blockSize the unit of streaming fetches: read-ahead and the index scans of formats fetch whole
 *     blocks aligned to it ({@code blockCacheBlockSize}, 1 MiB)
 * @param maxReadAhead how far ahead of a streaming reader bytes are fetched; the window starts at one
 *     block and doubles while the reader keeps streaming, fetched in requests that grow with it up to half
 *     of this ({@code blockCacheReadAhead}, 32 MiB: requests of 1, 2, 4, 8, 16 MiB)
 * @param alignment the largest rounding of a random read's range ({@code blockCacheAlignment}, 64 KiB); a read
 *     is never rounded by more than half its own length, so a random read moves less than twice its bytes
 * @param fetchThreads read-ahead requests in flight at once ({@code blockCacheThreads}, 4)
 */
record BlockCacheSettings(long cacheBytes, int blockSize, long maxReadAhead, int alignment, int fetchThreads) {
    static final BlockCacheSettings DEFAULTS = new BlockCacheSettings(64L << 20, 1 << 20, 32L << 20, 64 << 10, 4);

    BlockCacheSettings {
        if (blockSize < 4096 || Integer.bitCount(blockSize) != 1) {
            throw new IllegalArgumentException("env blockCacheBlockSize must be a power of two of at least 4096, got " + blockSize);
        }
        if (alignment < 1 || Integer.bitCount(alignment) != 1 || alignment > blockSize) {
            throw new IllegalArgumentException("env blockCacheAlignment must be a power of two no larger than blockCacheBlockSize, got "
                    + alignment);
        }
        if (cacheBytes < 4L * blockSize) {
            throw new IllegalArgumentException("env blockCacheBytes must hold at least 4 blocks (" + 4L * blockSize
                    + " bytes), got " + cacheBytes);
        }
        if (maxReadAhead < blockSize || maxReadAhead > cacheBytes / 2) {
            throw new IllegalArgumentException("env blockCacheReadAhead must be between blockCacheBlockSize and half of "
                    + "blockCacheBytes, got " + maxReadAhead);
        }
        if (fetchThreads < 1 || fetchThreads > 64) {
            throw new IllegalArgumentException("env blockCacheThreads must be between 1 and 64, got " + fetchThreads);
        }
    }

    static BlockCacheSettings of(FormatOptions options) {
        BlockCacheSettings d = DEFAULTS;
        return new BlockCacheSettings(options.getLong("blockCacheBytes", d.cacheBytes()),
                toInt(options.getLong("blockCacheBlockSize", d.blockSize()), "blockCacheBlockSize"),
                // a smaller cache than the default gets a smaller default window, within its half
                options.getLong("blockCacheReadAhead",
                        Math.min(d.maxReadAhead(), options.getLong("blockCacheBytes", d.cacheBytes()) / 2)),
                toInt(options.getLong("blockCacheAlignment", d.alignment()), "blockCacheAlignment"),
                toInt(options.getLong("blockCacheThreads", d.fetchThreads()), "blockCacheThreads"));
    }

    private static int toInt(long value, String key) {
        if (value < 0 || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("env " + key + " out of range: " + value);
        }
        return (int) value;
    }
}
