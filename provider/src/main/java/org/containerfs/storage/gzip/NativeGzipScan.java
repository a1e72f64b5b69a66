package org.containerfs.storage.gzip;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.containerfs.spi.ContainerChannel;

/**
 * The one pass over a sound .g3.gz with native zlib ({@link Inflater}), as fast as
 * {@code GZIPInputStream}. zlib does not say where deflate blocks end, which a restart point needs,
 * so where a point is due (every {@code span} bytes of output) {@link BlockFinder} looks ahead in the
 * compressed bytes for the end of a block and the output that block adds after its last whole byte.
 * The inflater is then fed exactly up to that byte: what it has written by then, plus that tail, is
 * the point's output offset, and the 32 KiB before it its window. Before a point is handed on, a
 * second inflater started from it must reproduce the next bytes of the real output; a point that
 * does not is dropped (the next search follows).
 *
 * <p>Anything else (damage of any kind, trailing bytes, a dictionary) ends this pass with
 * {@link Unsupported}: the caller then scans with {@link JavaInflater}, which reports damage exactly.
 */
public final class NativeGzipScan extends BufferedSequentialReader {
    private static final int WINDOW = JavaInflater.WINDOW;
    private static final int CHUNK = 16 * 1024; // small: a search starts at most this far past the point it is due
    /** Compressed bytes read per call: the inflater is still fed CHUNK at a time, but a 16 KiB pread each cost 7% of the open. */
    private static final int READ = 256 * 1024;
    /** Fed at once where the next point's search starts far ahead: a third of the calls into zlib of CHUNK feeds. */
    private static final int BIG_FEED = 64 * 1024;
    private static final int LIMIT = WINDOW + 256 * 1024;
    private static final int FIRST_SEARCH = 256 * 1024;
    private static final int MAX_SEARCH = 4 << 20;
    private static final int VERIFY = 16 * 1024;

    /** This pass cannot go on; the caller starts over with the Java inflater. */
    public static final class Unsupported extends RuntimeException {
        Unsupported(String why) {
            super(why, null, false, false);
        }
    }

    private final ContainerChannel channel;
    private final long fileSize;
    private final long span;
    private final JavaInflater.Points points;
    private final Inflater inflater = new Inflater(true);
    /**
     * The CRC-32 of the member's output so far, kept by the reading side: on the inflating thread it cost about a
     * tenth of the open, and that thread is the one the open waits for.
     */
    private final CRC32 crc = new CRC32();
    /** A member's trailer CRC-32 read by the inflating thread and not yet put in a segment for the reader (-1: none). */
    private long memberEndCrc = -1;
    private int memberEnded = -1;
    private final byte[] in = new byte[READ];
    private long inStart; // file offset of in[0]
    private int inLength; // bytes of in that hold the file from inStart
    private long fed; // compressed bytes handed to the inflater (a file offset)

    private byte[] out = new byte[LIMIT]; // handed to the reader whole when full; the next one starts with its window
    private int wpos;
    private long outBase; // logical offset of out[0]

    private int member = -1;
    private long memberDeflateStart;
    /** Whether output is inflated on a thread of its own (two or more cores): searches then run ahead too. */
    private final boolean threaded = Runtime.getRuntime().availableProcessors() >= 2;
    private long memberOut;
    private boolean ended;
    private long lastPointOut;
    /** No more points in this member (its last block was found, or the search reached the end of the file). */
    private boolean noMorePoints;
    /** Searches start no earlier than this compressed byte (after one that found nothing). */
    private long searchFrom;

    // the point being made: fed up to stopByte, then its output offset is known, then its window
    private long pointBit = -1;
    private long pointTail;
    private long stopByte = -1;
    private long pointOut = -1;

    // a point made and not yet handed on: its window, and the output a fresh inflater made from it
    private byte[] candidateWindow;
    private long candidateBit;
    private long candidateOut;
    private byte[] expected;
    private int expectedLength;
    private int matched;

    public NativeGzipScan(ContainerChannel channel, long span, JavaInflater.Points points) throws IOException {
        this.channel = channel;
        this.fileSize = channel.size();
        this.span = span;
        this.points = points;
    }

    // ---- the reading side: segments of output, inflated by another thread where there is a core for it

    private static final Object END = new Object();
    private static final int QUEUE = 8;

    private final java.util.concurrent.BlockingQueue<Object> ready = new java.util.concurrent.ArrayBlockingQueue<>(QUEUE);
    private final java.util.concurrent.BlockingQueue<byte[]> free = new java.util.concurrent.ArrayBlockingQueue<>(QUEUE + 2);
    private volatile boolean stopped;
    private Thread producer;
    private boolean atEnd;

    @Override
    protected boolean refill() throws IOException {
        return nextSegment();
    }

    /**
     * Takes the next segment of output; false at the end of the stream. With two or more cores a
     * thread of its own inflates ahead while the caller scans frames and checks their CRCs, so the
     * open takes about as long as the inflate alone.
     */
    private boolean nextSegment() throws IOException {
        if (atEnd) {
            return false;
        }
        if (buffer != null) {
            free.offer(buffer);
            buffer = null;
        }
        Object next;
        if (!threaded) {
            Segment s = produceSegment();
            next = s == null ? END : s;
        } else {
            if (producer == null) {
                producer = new Thread(this::produce, "containerfs-gzip-inflate");
                producer.setDaemon(true);
                producer.start();
            }
            try {
                next = ready.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while inflating the .g3.gz");
            }
        }
        if (next == END) {
            atEnd = true;
            return false;
        }
        if (next instanceof IOException e) {
            atEnd = true;
            throw e;
        }
        if (next instanceof RuntimeException e) {
            atEnd = true;
            throw e;
        }
        if (next instanceof Error e) {
            atEnd = true;
            throw e;
        }
        Segment s = (Segment) next;
        crc.update(s.bytes(), s.offset(), s.length());
        if (s.endedMember() >= 0) {
            if (crc.getValue() != s.crc()) {
                atEnd = true;
                throw new Unsupported("gzip member " + s.endedMember() + " fails its trailer check (CRC-32)");
            }
            crc.reset();
        }
        if (s.length() == 0) {
            free.offer(s.bytes());
            return nextSegment(); // a member's check without bytes of its own
        }
        buffer = s.bytes();
        readPos = s.offset();
        readEnd = s.offset() + s.length();
        return true;
    }

    /**
     * Output bytes in order, {@code bytes[offset, offset + length)}; {@code endedMember} >= 0: the member of that
     * number ends with them, its trailer CRC {@code crc}.
     */
    private record Segment(byte[] bytes, int offset, int length, int endedMember, long crc) {}

    /** The inflating thread: segments until the end of the stream or a failure, each handed over in order. */
    private void produce() {
        try {
            Segment s;
            while ((s = produceSegment()) != null) {
                hand(s);
            }
            hand(END);
        } catch (IOException | RuntimeException | Error e) {
            try {
                hand(e);
            } catch (InterruptedException ignored) {
                // stopped: nobody is reading
            }
        } catch (InterruptedException stoppedByClose) {
            // nobody reads any more
        }
    }

    /** Queues an item for the reader; InterruptedException once the reader has stopped. */
    private void hand(Object item) throws InterruptedException {
        while (!stopped) {
            if (ready.offer(item, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                return;
            }
        }
        throw new InterruptedException();
    }

    /**
     * Stops the inflating thread (the caller stops reading early, or is done) and frees zlib's memory.
     * Never by interrupting it: an interrupt during its read would close the container's FileChannel.
     * It sees the flag within one segment's work.
     */
    public void close() {
        stopped = true;
        try {
            if (producer != null) {
                producer.join();
            }
            if (finder != null) {
                finder.shutdown(); // its search ends by itself: no interrupt, which would close the channel
                finder.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        inflater.end();
    }

    private long outNow() {
        return outBase + wpos;
    }

    /**
     * Inflates the next segment of output, or null at the end. The array inflated into is handed on as it is (no
     * copy of the output); inflating goes on in another array that starts with the 32 KiB before, for windows.
     */
    private Segment produceSegment() throws IOException {
        int start = wpos;
        try {
            // a segment ends where a member does, so that the reader checks each member's CRC-32 on its own bytes
            while (wpos < LIMIT && !ended && memberEnded < 0) {
                step();
            }
        } catch (DataFormatException e) {
            throw new Unsupported("deflate data zlib refuses near compressed byte " + fed + ": " + e.getMessage());
        }
        long endCrc = memberEndCrc;
        int endedMember = memberEnded;
        memberEndCrc = -1;
        memberEnded = -1;
        if (wpos == start && endedMember < 0) {
            return null;
        }
        Segment segment = new Segment(out, start, wpos - start, endedMember, endCrc);
        byte[] next = free.poll();
        if (next == null) {
            next = new byte[LIMIT];
        }
        int keep = Math.min(wpos, WINDOW);
        System.arraycopy(out, wpos - keep, next, 0, keep);
        outBase += wpos - keep;
        wpos = keep;
        out = next;
        return segment;
    }

    private void step() throws IOException, DataFormatException {
        if (member < 0 || inflater.finished()) {
            if (!nextMember()) {
                ended = true;
            }
            return;
        }
        if (pointBit < 0 && candidateWindow == null && !noMorePoints && outNow() - lastPointOut >= span
                && fed >= searchFrom) {
            search();
        }
        int room = LIMIT - wpos;
        if (pointBit < 0 && candidateWindow == null && !noMorePoints && fed >= searchFrom) {
            room = (int) Math.min(room, lastPointOut + span - outNow()); // stop where the next point is due
        }
        if (pointOut >= 0) {
            room = (int) Math.min(room, pointOut - outNow());
            if (room == 0) {
                makeCandidate();
                return;
            }
        }
        int n = inflater.inflate(out, wpos, room);
        if (n > 0) {
            verify(wpos, n);
            wpos += n;
            return;
        }
        if (inflater.finished()) {
            return;
        }
        if (inflater.needsDictionary() || !inflater.needsInput()) {
            throw new Unsupported("a deflate stream with a preset dictionary");
        }
        if (stopByte >= 0 && fed == stopByte) {
            // every symbol that ends in the bytes fed so far is out: the block's tail is the rest
            pointOut = outNow() + pointTail;
            stopByte = -1;
            return;
        }
        feed(stopByte >= 0 ? stopByte : fileSize);
    }

    private void feed(long limit) throws IOException {
        if (fed >= limit) {
            throw new Unsupported("the compressed data ends inside gzip member " + member);
        }
        // far before where the next point's search starts, feed more at once; near it, CHUNK keeps the inflater
        // from running past the boundary the search will find
        boolean far = stopByte < 0 && ahead != null && aheadFrom - fed >= BIG_FEED + CHUNK;
        int n = (int) Math.min(far ? BIG_FEED : CHUNK, limit - fed);
        if (fed < inStart || fed + n > inStart + inLength) {
            inLength = (int) Math.min(READ, fileSize - fed);
            inStart = fed;
            channel.readFully(ByteBuffer.wrap(in, 0, inLength), fed);
        }
        inflater.setInput(in, (int) (fed - inStart), n);
        fed += n;
    }

    /** Looks for the next block boundary from the bytes not yet fed. */
    private void search() throws IOException {
        Located found = null;
        if (ahead != null) {
            try {
                found = ahead.get();
            } catch (java.util.concurrent.ExecutionException e) {
                found = null; // searched again below, where the error shows if it is real
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while inflating the .g3.gz");
            }
            ahead = null;
            if (found != null && found.kind == Located.FOUND && found.bit < fed * 8) {
                found = null; // the inflater has gone past it
            }
        }
        if (found == null || found.kind == Located.NONE && found.bit <= fed) {
            found = locate(fed);
        }
        switch (found.kind) {
            case Located.FOUND -> {
                pointBit = found.bit;
                pointTail = found.tail;
                stopByte = pointBit >>> 3;
            }
            case Located.NO_MORE -> noMorePoints = true;
            default -> searchFrom = found.bit; // no boundary this pass can find there: try again further on
        }
    }

    /** What a search found: a boundary (bit, tail), no more points in the member, or nothing up to byte {@code bit}. */
    private record Located(int kind, long bit, long tail) {
        static final int FOUND = 0;
        static final int NO_MORE = 1;
        static final int NONE = 2;
    }

    /** The first block boundary after compressed byte {@code from}; safe from any thread (positional reads only). */
    private Located locate(long from) throws IOException {
        int length = (int) Math.min(FIRST_SEARCH, fileSize - from);
        while (true) {
            byte[] data = new byte[length + BlockFinder.PADDING];
            channel.readFully(ByteBuffer.wrap(data, 0, length), from);
            BlockFinder.Found found = BlockFinder.find(data, length);
            if (found != null) {
                return found.finalBlock() ? new Located(Located.NO_MORE, 0, 0)
                        : new Located(Located.FOUND, from * 8 + found.bit(), found.tailOut());
            }
            if (from + length >= fileSize) {
                return new Located(Located.NO_MORE, 0, 0); // in the member's last block: its end needs no point
            }
            if (length >= MAX_SEARCH) {
                return new Located(Located.NONE, from + length, 0);
            }
            length = (int) Math.min((long) length * 4, Math.min(MAX_SEARCH, fileSize - from));
        }
    }

    /** The next point's search, started on another thread where the inflater will be when it is due. */
    private java.util.concurrent.Future<Located> ahead;
    /** The compressed byte the search in {@link #ahead} starts from. */
    private long aheadFrom;
    private java.util.concurrent.ExecutorService finder;

    /**
     * Starts the next search early, from where the compressed stream should be one span of output on
     * (at this member's ratio so far), so that it runs while the inflater gets there. A guess that
     * lands behind the inflater is discarded and the search made then, as without it.
     */
    private void searchAhead(long deflateStart) {
        long out = outNow() - memberOut;
        if (!threaded || out <= 0 || noMorePoints) {
            return;
        }
        long from = fed + (long) (span * ((fed - deflateStart) / (double) out));
        if (from >= fileSize) {
            return;
        }
        if (finder == null) {
            finder = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "containerfs-gzip-blocks");
                t.setDaemon(true);
                return t;
            });
        }
        aheadFrom = from;
        ahead = finder.submit(() -> locate(from));
    }

    /** The output has reached the new point: take its window and start checking it. */
    private void makeCandidate() throws IOException {
        int w = (int) Math.min(WINDOW, pointOut - memberOut);
        candidateWindow = Arrays.copyOfRange(out, wpos - w, wpos);
        candidateBit = pointBit;
        candidateOut = pointOut;
        pointBit = -1;
        pointOut = -1;
        expected = new byte[VERIFY];
        expectedLength = inflateFrom(candidateBit, candidateWindow, expected);
        matched = 0;
        if (expectedLength <= 0) {
            dropCandidate();
        }
    }

    /** Compares new output with the candidate's; hands the candidate on once all of it matched. */
    private void verify(int from, int n) {
        if (candidateWindow == null) {
            return;
        }
        long at = outBase + from;
        int start = (int) (candidateOut + matched - at);
        if (start < 0 || start >= n) {
            return;
        }
        int len = Math.min(n - start, expectedLength - matched);
        if (!Arrays.equals(out, from + start, from + start + len, expected, matched, matched + len)) {
            dropCandidate();
            return;
        }
        matched += len;
        if (matched == expectedLength) {
            acceptCandidate();
        }
    }

    private void acceptCandidate() {
        points.point(member, candidateBit, candidateOut, candidateWindow);
        lastPointOut = candidateOut;
        candidateWindow = null;
        expected = null;
        searchAhead(memberDeflateStart);
    }

    private void dropCandidate() {
        candidateWindow = null;
        expected = null;
    }

    /**
     * Inflates up to {@code dst.length} bytes with a fresh inflater started at {@code bit} with
     * {@code window}, as a read would; the count (short at the member's end), or -1 if zlib refuses.
     */
    private int inflateFrom(long bit, byte[] window, byte[] dst) throws IOException {
        Inflater check = new Inflater(true);
        try {
            if (window.length > 0) {
                check.setDictionary(window);
            }
            byte[] raw = new byte[8 * 1024];
            byte[] input = new byte[raw.length + EmptyBlockPrefix.MAX_BYTES];
            long next = bit >>> 3;
            int shift = (int) (bit & 7);
            int done = 0;
            while (done < dst.length && !check.finished()) {
                if (check.needsInput()) {
                    int n = channel.readUpTo(ByteBuffer.wrap(raw), next);
                    if (n == 0) {
                        break;
                    }
                    next += n;
                    if (shift != 0) {
                        check.setInput(input, 0, EmptyBlockPrefix.primed(shift, raw, n, input));
                        shift = 0;
                    } else {
                        check.setInput(raw, 0, n); // consumed before the next read into raw
                    }
                }
                int n = check.inflate(dst, done, dst.length - done);
                if (n == 0 && (check.needsDictionary() || !check.needsInput() && !check.finished())) {
                    return -1;
                }
                done += n;
            }
            return done;
        } catch (DataFormatException e) {
            return -1;
        } finally {
            check.end();
        }
    }

    /** Checks the ended member's trailer and starts the next member; false at the end of the file. */
    private boolean nextMember() throws IOException {
        long at = 0;
        if (member >= 0) {
            long deflateEnd = fed - inflater.getRemaining();
            ByteBuffer trailer = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            if (channel.readUpTo(trailer, deflateEnd) < 8) {
                throw new Unsupported("gzip member " + member + " without its trailer");
            }
            long memberSize = outNow() - memberOut;
            if ((trailer.getInt(4) & 0xFFFFFFFFL) != (memberSize & 0xFFFFFFFFL)) {
                throw new Unsupported("gzip member " + member + " fails its trailer check (length)");
            }
            memberEndCrc = trailer.getInt(0) & 0xFFFFFFFFL; // checked by the reader at the end of this segment
            memberEnded = member;
            dropCandidate(); // one still being checked would start a read at the member's very end
            pointBit = -1; // a boundary found past this member's end belongs to none of its blocks
            pointOut = -1;
            stopByte = -1;
            at = deflateEnd + 8;
        }
        if (at >= fileSize) {
            return false;
        }
        long deflateStart = memberHeader(at);
        member++;
        memberOut = outNow();
        lastPointOut = memberOut;
        noMorePoints = false;
        searchFrom = 0;
        inflater.reset();
        fed = deflateStart;
        memberDeflateStart = deflateStart;
        ahead = null; // a search for the member before
        points.member(member, at, memberOut);
        points.point(member, deflateStart * 8, memberOut, new byte[0]);
        return true;
    }

    /** The offset after the gzip member header at {@code at}. */
    private long memberHeader(long at) throws IOException {
        ByteBuffer head = ByteBuffer.allocate((int) Math.min(64 * 1024, fileSize - at)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int n = channel.readUpTo(head, at);
        if (n < 10 || (head.get(0) & 0xFF) != 0x1F || (head.get(1) & 0xFF) != 0x8B || head.get(2) != 8
                || (head.get(3) & 0xE0) != 0) {
            throw new Unsupported("bytes at " + at + " that are not a gzip member");
        }
        int flags = head.get(3);
        int p = 10;
        if ((flags & 4) != 0) {
            p += 2 + (p + 2 <= n ? head.getShort(p) & 0xFFFF : 0);
        }
        for (int bit : new int[] {8, 16}) {
            if ((flags & bit) != 0) {
                while (p < n && head.get(p) != 0) {
                    p++;
                }
                p++;
            }
        }
        if ((flags & 2) != 0) {
            p += 2;
        }
        if (p >= n) {
            throw new Unsupported("a gzip member header at " + at + " longer than this pass reads");
        }
        return at + p;
    }
}
