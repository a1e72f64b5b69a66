/**
 * G3 (spt3g_software) frame streams as trees {@code /NNNNNN.<FrameType>/<key>}, plain or gzip-compressed.
 *
 * <p>env options (besides the core's {@code create}, {@code accessMode}, {@code strict}, {@code refresh}):
 * <ul>
 *   <li>{@code verify} (default true): a frame whose stored CRC does not match fails every read of its keys
 *       with a {@link org.containerfs.spi.ChecksumMismatchException}; false reads them anyway. Listing and
 *       attributes ({@code g3:crcStored}, {@code g3:crcComputed}: unsigned, as longs; {@code g3:crcOk}) always work.</li>
 *   <li>{@code gzipSpan} (bytes, default 4 MiB): output between inflate restart points of a .g3.gz;
 *       {@code gzipWindowMemory} (default 64 MiB) bounds their windows (docs/compressed.md).</li>
 *   <li>{@code gzipNative} (default true): the first open inflates a .g3.gz with native zlib, finding the
 *       deflate blocks its restart points need ahead of zlib ({@code NativeGzipScan}); a stream it cannot take
 *       (damage of any kind) is scanned again by the pure-Java inflater, which names the damage. Root attribute
 *       {@code gzipScan} says which ran ({@code native}, {@code java (why)}, empty when the index was loaded).</li>
 *   <li>{@code gzipIndex=true}: persist the frame index and restart points beside the file
 *       ({@code <name>.zidx}); {@code gzipIndexDir=<dir>} puts it in that directory instead. Reused only while
 *       the container's size and modification time are unchanged. The core's persisted index cache
 *       (env {@code indexCache}) keeps the same index without these options and never beside the
 *       container; an existing {@code .zidx} is still read when they are given.</li>
 *   <li>{@code maxFrameBytes} (default 2^31-1): a .g3.gz frame declaring more is treated as damage instead of
 *       being inflated (gzip-bomb bound for the opening scan).</li>
 *   <li>{@code sync} (default false): fsync after each appended frame.</li>
 * </ul>
 *
 * <p>Writing: {@code Files.createDirectory(fs.getPath("/000004.Scan"))} stages the next frame; files written into
 * it are blobs ({@link org.containerfs.g3.G3Blobs#write} encodes typed values); the frame is appended when the
 * next frame directory is created, on {@code Files.setAttribute(frameDir, "g3:commit", true)}, or when the file
 * system closes. {@link org.containerfs.g3.G3Blobs#read} decodes the simple types.
 */
package org.containerfs.g3;
