package org.containerfs.core;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.InputIdentity;

/**
 * The block cache in front of a remote {@link ContainerInput}: the one cache layer between formats and
 * a store where every read is a request.
 *
 * <ul>
 *   <li>A random read fetches the range it misses, rounded to an alignment that is at most
 *       {@code blockCacheAlignment} and at most half the missing length (so it moves less than twice its
 *       bytes); misses separated by little cached data are fetched as one range.</li>
 *   <li>A reader that streams (each read starting within the previous one or at most 4 KiB after its
 *       end, four reads in a row as index scans do, or two large reads of half a block or more as copies
 *       do) gets read-ahead: the window ahead of it doubles with every read from one block up to
 *       {@code blockCacheReadAhead}, fetched in
 *       requests the size of the window up to half the largest one (1, 2, 4, 8, 16 MiB by default),
 *       queued on a small pool of threads before the read itself waits, so that the next ones download
 *       while it copies from those that have arrived.</li>
 *   <li>Once a run has a read-ahead window, a run of large reads (half a block or more) on an input that
 *       can open a ranged request read in order ({@link ContainerInput#openRange}, S3's streaming GET) goes on
 *       in one such request, straight into the reader's buffers, instead of a request per range: a 1 GiB record
 *       read in order costs four requests, not seventy-three. At most two are open; one left behind is aborted,
 *       never drained. A reader that goes back over bytes such a request has passed puts the input back on the
 *       cache for good.</li>
 *   <li>Fetched and in-flight bytes together stay under {@code blockCacheBytes} (least recently used
 *       ranges go first); a read larger than a quarter of it goes straight to the input.</li>
 *   <li>Reads take no lock but the stream tracker's brief one: concurrent readers fetch concurrently
 *       and wait only for a range another reader is already fetching.</li>
 *   <li>After {@link #close} no request starts: queued read-ahead is dropped.</li>
 * </ul>
 */
final class BlockCachedInput implements ContainerInput {
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final ContainerInput input;
    private final BlockCacheSettings settings;
    /** Cached and in-flight ranges by start offset; ranges may overlap, starts are unique. */
    private final ConcurrentSkipListMap<Long, Extent> extents = new ConcurrentSkipListMap<>();
    /** Eviction order (second chance: a range read since it was queued gets one more round). */
    private final ConcurrentLinkedQueue<Extent> evictionQueue = new ConcurrentLinkedQueue<>();
    private final AtomicLong heldBytes = new AtomicLong();
    private final StreamTracker streams;
    private final Object poolLock = new Object();
    private ExecutorService pool;
    private volatile boolean closed;
    private volatile long knownSize = -1;
    /**
     * Ranged requests of long sequential runs, open and read up to the offset they are keyed by (where the run
     * goes on); at most {@link #RANGE_STREAMS}. Guarded by itself.
     */
    private final java.util.TreeMap<Long, java.io.InputStream> rangeStreams = new java.util.TreeMap<>();
    private static final int RANGE_STREAMS = 2;
    /** The input has no {@link ContainerInput#openRange}: long runs use read-ahead only. */
    private volatile boolean noRangeStreams;

    BlockCachedInput(ContainerInput input, BlockCacheSettings settings) {
        this.input = input;
        this.settings = settings;
        this.streams = new StreamTracker(Math.min(settings.alignment(), StreamTracker.NEAR), settings.blockSize(),
                settings.maxReadAhead());
    }

    /** {@code input} behind a block cache if it is remote; a local input as it is. */
    static ContainerInput cacheIfRemote(ContainerInput input, BlockCacheSettings settings) {
        if (!input.remote() || input instanceof BlockCachedInput) {
            return input;
        }
        return new BlockCachedInput(input, settings);
    }

    /** One fetched (or being fetched) range; {@code data} holds the bytes from {@code start}. */
    private static final class Extent {
        final long start;
        final int length;
        final CompletableFuture<ByteBuffer> data = new CompletableFuture<>();
        /** Set on every read and at first (a block fetched ahead must outlive older ones until it is read). */
        volatile boolean referenced = true;
        /** A read-ahead range no reader has read yet: more read-ahead never evicts it to make room. */
        volatile boolean unread;

        Extent(long start, int length) {
            this.start = start;
            this.length = length;
        }

        long end() {
            return start + length;
        }
    }

    @Override
    public URI uri() {
        return input.uri();
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        long size = input.size();
        knownSize = size;
        return size;
    }

    private long knownSize() throws IOException {
        long size = knownSize;
        return size >= 0 ? size : size();
    }

    @Override
    public InputIdentity identity() throws IOException {
        return input.identity();
    }

    @Override
    public FileTime lastModified() throws IOException {
        return input.lastModified();
    }

    @Override
    public ContainerInput sibling(String fileName) throws IOException {
        return cacheIfRemote(input.sibling(fileName), settings);
    }

    @Override
    public boolean remote() {
        return true;
    }

    /**
     * Reads the container's first bytes for format detection, fetching its whole first block in one
     * request: the headers and indexes formats read next mostly sit there, and one larger request
     * costs about what a small one does on a store where each is a round trip.
     */
    int readHead(ByteBuffer dst) throws IOException {
        long size = knownSize();
        if (size > 0 && covering(0) == null) {
            Extent e = reserve(0, (int) Math.min(size, settings.blockSize()));
            if (e != null) {
                fetch(e);
            }
        }
        int total = 0;
        while (dst.hasRemaining()) {
            int n = read(dst, total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        ensureOpen();
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        long size = knownSize();
        if (position >= size) {
            size = size(); // an input that grows (a file being appended to) says so here
            if (position >= size) {
                return -1;
            }
        }
        int want = (int) Math.min(dst.remaining(), size - position);
        if (want == 0) {
            return 0;
        }
        long end = position + want;
        long window = streams.observe(position, end);
        if (want > settings.cacheBytes() / 4) {
            return readThrough(dst, position, want);
        }
        // a run of large reads (a big record copied out) goes on in one ranged request, read in order into the
        // callers' buffers, instead of a request per read-ahead range; small and overlapping reads (index
        // scans) keep the cache, which serves bytes more than once
        boolean ranged = window >= settings.blockSize() && want >= settings.blockSize() / 2 && !noRangeStreams;
        if (window > 0 && !ranged) {
            // queued before this read waits, so the next ranges download while it copies
            readAhead(position, end + window, size, requestSize(window));
        }
        int copied = 0;
        long cursor = position;
        while (cursor < end) {
            Extent e = covering(cursor);
            if (e == null) {
                if (ranged) {
                    Long following = extents.higherKey(cursor);
                    int n = readRange(dst, cursor, following == null ? end : Math.min(end, following), size);
                    if (n > 0) {
                        copied += n;
                        cursor += n;
                        continue;
                    }
                    ranged = false; // no range stream here: the cache's own way
                }
                fetchGap(cursor, end, size, window > 0);
                continue;
            }
            ByteBuffer data = await(e);
            int offset = (int) (cursor - e.start);
            int n = (int) Math.min(data.limit() - offset, end - cursor);
            if (n <= 0) {
                break; // the input ended early (it shrank): return what there is
            }
            e.referenced = true;
            e.unread = false;
            ByteBuffer src = data.duplicate();
            src.position(offset).limit(offset + n);
            dst.put(src);
            copied += n;
            cursor += n;
        }
        return copied == 0 ? -1 : copied;
    }

    /**
     * Reads {@code [cursor, limit)} from the range stream that continues at {@code cursor}, or from a new one
     * (up to the end of the input); returns the count, 0 when the input opens no range streams or the stream
     * ended early (the caller then reads the cache's way, which reports what happened).
     */
    private int readRange(ByteBuffer dst, long cursor, long limit, long size) throws IOException {
        java.io.InputStream in = null;
        long skip = 0;
        synchronized (rangeStreams) {
            Map.Entry<Long, java.io.InputStream> behind = rangeStreams.floorEntry(cursor);
            if (behind != null && cursor - behind.getKey() <= StreamTracker.NEAR) {
                // a reader that skips a little (header after header) goes on in the same request
                in = rangeStreams.remove(behind.getKey());
                skip = cursor - behind.getKey();
            } else {
                Long ahead = rangeStreams.ceilingKey(cursor);
                if (ahead != null && ahead - cursor <= settings.maxReadAhead()) {
                    // a reader going over bytes its request has passed (overlapping windows): one request per
                    // re-read would follow, so this input keeps to the cache from now on
                    noRangeStreams = true;
                    return 0;
                }
            }
        }
        if (in != null && skip > 0) {
            try {
                in.skipNBytes(skip);
            } catch (IOException | RuntimeException e) {
                closeQuietly(in);
                return 0;
            }
        }
        if (in == null) {
            in = input.openRange(cursor, size);
            if (in == null) {
                noRangeStreams = true;
                return 0;
            }
        }
        int got;
        try {
            got = ContainerInput.readFully(in, dst, (int) (limit - cursor));
        } catch (IOException | RuntimeException e) {
            closeQuietly(in);
            throw e;
        }
        long next = cursor + got;
        java.io.InputStream evicted = in;
        if (got > 0 && next < size) {
            synchronized (rangeStreams) {
                if (!closed) {
                    rangeStreams.put(next, in);
                    evicted = null;
                    if (rangeStreams.size() > RANGE_STREAMS) {
                        evicted = rangeStreams.pollFirstEntry().getValue(); // the run furthest behind
                    }
                }
            }
        }
        closeQuietly(evicted);
        return got;
    }

    private static void closeQuietly(java.io.InputStream in) {
        if (in == null) {
            return;
        }
        try {
            in.close();
        } catch (IOException | RuntimeException ignored) {
            // an aborted request: nothing more to release
        }
    }

    /** A read too large for the cache: exactly its range, straight into the caller's buffer. */
    private int readThrough(ByteBuffer dst, long position, int want) throws IOException {
        ByteBuffer slice = dst.duplicate();
        slice.limit(slice.position() + want);
        int total = 0;
        while (slice.hasRemaining()) {
            ensureOpen();
            int n = input.read(slice, position + total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        dst.position(dst.position() + total);
        return total == 0 ? -1 : total;
    }

    /** The range holding byte {@code pos}, or null. */
    private Extent covering(long pos) {
        Map.Entry<Long, Extent> floor = extents.floorEntry(pos);
        if (floor != null && floor.getValue().end() > pos) {
            return floor.getValue();
        }
        return null;
    }

    /**
     * Fetches the missing range that starts at {@code cursor} (in this thread: a reader waits for it
     * anyway): for a streaming reader, the rest of its block; for a random read, the miss extended over
     * later misses of the same read that only little cached data separates, then rounded.
     */
    private void fetchGap(long cursor, long end, long size, boolean streaming) throws IOException {
        Map.Entry<Long, Extent> before = extents.floorEntry(cursor);
        Long following = extents.higherKey(cursor);
        if (streaming) {
            // whole blocks of the grid (what read-ahead fetches too), less what is already there
            long block = settings.blockSize();
            long blockStart = Math.floorDiv(cursor, block) * block;
            long start = Math.min(cursor, Math.max(blockStart, before == null ? 0 : before.getValue().end()));
            long stop = Math.min(size, blockStart + block);
            if (following != null) {
                stop = Math.min(stop, following);
            }
            Extent e = reserve(start, (int) (stop - start));
            if (e != null) {
                fetch(e);
            }
            return;
        }
        long gapEnd = nextStart(cursor, end);
        while (gapEnd < end) {
            Extent next = extents.get(gapEnd);
            if (next == null || next.length > settings.alignment()) {
                break;
            }
            long after = nextStart(next.end(), end);
            if (after == next.end()) {
                break; // cached data follows: nothing to coalesce
            }
            gapEnd = after;
        }
        long align = Math.min(settings.alignment(), Math.max(1, Long.highestOneBit((gapEnd - cursor) / 2)));
        long start = Math.floorDiv(cursor, align) * align;
        long stop = Math.min(size, ceil(gapEnd, align));
        // never start inside a cached range (starts are keys); never reach into the next one
        if (before != null) {
            start = Math.max(start, before.getValue().end());
        }
        start = Math.min(start, cursor);
        if (following != null && following >= gapEnd) {
            stop = Math.min(stop, following);
        }
        stop = Math.max(stop, gapEnd);
        Extent e = reserve(start, (int) (stop - start));
        if (e != null) {
            fetch(e);
        }
    }

    /** The start of the first range after {@code pos}, or {@code end}. */
    private long nextStart(long pos, long end) {
        Long next = extents.higherKey(pos);
        return next == null ? end : Math.min(next, end);
    }

    private static long ceil(long value, long unit) {
        return Math.floorDiv(value + unit - 1, unit) * unit;
    }

    /** Registers a range about to be fetched, or null if another reader just registered one there. */
    private Extent reserve(long start, int length) {
        Extent e = new Extent(start, length);
        if (extents.putIfAbsent(start, e) != null) {
            return null;
        }
        heldBytes.addAndGet(length);
        evictionQueue.add(e);
        evictDownTo(settings.cacheBytes(), false);
        return e;
    }

    private void fetch(Extent e) throws IOException {
        try {
            ensureOpen();
            ByteBuffer buf = ByteBuffer.allocate(e.length);
            while (buf.hasRemaining()) {
                int n = input.read(buf, e.start + buf.position());
                if (n < 0) {
                    break;
                }
            }
            buf.flip();
            e.data.complete(buf.asReadOnlyBuffer());
        } catch (IOException | RuntimeException | Error failure) {
            forget(e);
            e.data.completeExceptionally(failure);
            throw failure;
        }
    }

    private void forget(Extent e) {
        if (extents.remove(e.start, e)) {
            heldBytes.addAndGet(-e.length);
        }
        evictionQueue.remove(e);
    }

    private static ByteBuffer await(Extent e) throws IOException {
        try {
            return e.data.get();
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for bytes " + e.start + ".." + e.end());
        } catch (ExecutionException | CompletionException ee) {
            Throwable cause = ee.getCause();
            if (cause instanceof IOException io) {
                throw new IOException(io.getMessage(), io);
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException(cause);
        }
    }

    /**
     * Drops least recently used ranges (never one in flight; with {@code keepUnread}, as read-ahead
     * making room for itself does, never read-ahead not read yet) until at most {@code target} bytes are
     * held.
     */
    private void evictDownTo(long target, boolean keepUnread) {
        int rounds = evictionQueue.size() * 2 + 1;
        while (heldBytes.get() > target && rounds-- > 0) {
            Extent victim = evictionQueue.poll();
            if (victim == null) {
                return;
            }
            if (!victim.data.isDone() || victim.referenced || (keepUnread && victim.unread)) {
                victim.referenced = false;
                evictionQueue.add(victim);
                continue;
            }
            if (extents.remove(victim.start, victim)) {
                heldBytes.addAndGet(-victim.length);
            }
        }
    }

    /**
     * The size of one read-ahead request: the window itself while it is small, so requests grow with it
     * (one block, 2, 4, 8 blocks), up to half the largest window, so that when the window is largest two
     * requests are in flight ahead of the reader. Fewer, larger requests measured faster than more,
     * smaller ones at the same bytes ahead: each costs a round trip and the server's per-request work.
     */
    private long requestSize(long window) {
        long largest = Math.max(settings.blockSize(), Long.highestOneBit(settings.maxReadAhead() / 2));
        return Math.min(largest, Math.max(settings.blockSize(), Long.highestOneBit(window)));
    }

    /**
     * Queues fetches, of {@code request} bytes each (ending on the block grid), of what is neither cached
     * nor in flight from {@code from} to {@code limit}; stops where the memory bound would be passed.
     */
    private void readAhead(long from, long limit, long size, long request) {
        long block = settings.blockSize();
        long stopAt = Math.min(size, limit);
        long pos = from;
        while (pos < stopAt && !closed) {
            Extent at = covering(pos);
            if (at != null) {
                pos = at.end();
                continue;
            }
            long stop = Math.min(size, Math.floorDiv(pos + request, block) * block);
            Long following = extents.higherKey(pos);
            if (following != null && following < stop) {
                stop = following;
            }
            long length = stop - pos;
            // make room from what was read longest ago; if the room is all in flight or unread, wait
            evictDownTo(settings.cacheBytes() - length, true);
            if (heldBytes.get() + length > settings.cacheBytes()) {
                return;
            }
            Extent e = reserve(pos, (int) length);
            if (e == null) {
                continue; // another reader registered a range here just now: skip over it
            }
            e.unread = true;
            try {
                pool().execute(() -> {
                    try {
                        fetch(e);
                    } catch (IOException | RuntimeException failure) {
                        // a reader that needs these bytes fetches them again and sees the error itself
                    }
                });
            } catch (RejectedExecutionException closedMeanwhile) {
                forget(e);
                e.data.completeExceptionally(new ClosedChannelException());
                return;
            }
            pos = stop;
        }
    }

    private ExecutorService pool() {
        synchronized (poolLock) {
            if (closed) {
                throw new RejectedExecutionException("closed");
            }
            if (pool == null) {
                int id = POOLS.incrementAndGet();
                AtomicInteger thread = new AtomicInteger();
                ThreadPoolExecutor p = new ThreadPoolExecutor(settings.fetchThreads(), settings.fetchThreads(),
                        10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                            Thread t = new Thread(r, "containerfs-fetch-" + id + "-" + thread.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
                p.allowCoreThreadTimeOut(true);
                pool = p;
            }
            return pool;
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    /** Bytes the cache holds now, fetched or in flight (for tests). */
    long heldBytes() {
        return heldBytes.get();
    }

    @Override
    public void close() throws IOException {
        ExecutorService p;
        synchronized (poolLock) {
            if (closed) {
                return;
            }
            closed = true;
            p = pool;
        }
        if (p != null) {
            p.shutdownNow(); // queued read-ahead never starts
            try {
                // a request already on the wire ends (or times out) before the input closes under it
                p.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<java.io.InputStream> open;
        synchronized (rangeStreams) {
            open = new ArrayList<>(rangeStreams.values());
            rangeStreams.clear();
        }
        open.forEach(BlockCachedInput::closeQuietly);
        for (Extent e : extents.values()) {
            e.data.completeExceptionally(new ClosedChannelException());
        }
        extents.clear();
        evictionQueue.clear();
        heldBytes.set(0);
        input.close();
    }

    @Override
    public String toString() {
        return "cached " + input;
    }

    /**
     * Recognises readers that stream: a read that goes on past where a recent read ended, starting
     * within that read or at most {@link #NEAR} bytes after its end, continues that stream (sequential
     * reads, and index scans that read header after header of small records, or window after
     * overlapping window). From the fourth read of a stream on, it reads ahead; from the second when both
     * reads are large (half a block or more: a copy in order, not a scan). Random reads, even many in a
     * small region (chunks of a GSD file), almost never land that close after one another four times in a
     * row, so their reads stay exact. The window starts at one block and doubles with every read, up
     * to the maximum.
     */
    static final class StreamTracker {
        /** The largest gap between reads that still continues a stream. */
        static final long NEAR = 4096;
        private static final int SLOTS = 16;
        private final long tolerance;
        private final long firstWindow;
        private final long maxWindow;
        /** Half a block: reads at least this large are a copy, not a scan. */
        private final long largeRead;
        private final long[] start = new long[SLOTS];
        private final long[] next = new long[SLOTS];
        private final int[] hits = new int[SLOTS];
        private final long[] window = new long[SLOTS];
        private int replace;

        StreamTracker(long tolerance, long blockSize, long maxWindow) {
            this.tolerance = tolerance;
            this.firstWindow = blockSize;
            this.maxWindow = maxWindow;
            this.largeRead = blockSize / 2;
            java.util.Arrays.fill(next, -1);
        }

        /** Notes a read of [pos, end); returns how far to read ahead of it (0: a random read). */
        synchronized long observe(long pos, long end) {
            for (int i = 0; i < SLOTS; i++) {
                if (next[i] >= 0 && pos >= start[i] && pos - next[i] <= tolerance && end > next[i]) {
                    long previous = next[i] - start[i];
                    start[i] = pos;
                    next[i] = end;
                    // a large read continuing a large read is a copy in order (a big record, cat through a
                    // mount): its window opens at once, where small reads (index scans) need four in a row
                    boolean large = end - pos >= largeRead && previous >= largeRead;
                    if (++hits[i] >= 3 || large) {
                        window[i] = window[i] == 0 ? firstWindow : Math.min(maxWindow, window[i] * 2);
                    }
                    return window[i];
                }
            }
            int i = replace;
            replace = (replace + 1) % SLOTS;
            start[i] = pos;
            next[i] = end;
            hits[i] = 0;
            window[i] = 0;
            return 0;
        }
    }
}
