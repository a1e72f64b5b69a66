package org.containerfs.fuse.lowlevel;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * One mount through libfuse's low-level API: {@code fuse_session_new} with a {@code fuse_lowlevel_ops}
 * of upcall stubs into a {@link LowLevelOperations}, {@code fuse_session_mount}, and a fixed number of
 * serving threads, each receiving and processing requests ({@code fuse_session_receive_buf} /
 * {@code fuse_session_process_buf}, what {@code fuse_session_loop_mt} does) so that every upcall runs
 * on a Java thread of this session. The threads end when the kernel ends the connection (unmounted by
 * anyone); {@link #close()} then unmounts what is left and frees the session and the stubs.
 */
public final class LowLevelSession implements AutoCloseable, Invalidation {
    /** The kernel requests this engine serves, counted (FORGET_MULTI is one request for many inodes). */
    public enum Op {
        INIT, LOOKUP, FORGET, FORGET_MULTI, GETATTR, OPENDIR, READDIR, READDIRPLUS, RELEASEDIR, OPEN, READ, RELEASE,
        STATFS, GETXATTR, LISTXATTR,
        // a writable session's
        SETATTR, MKNOD, MKDIR, UNLINK, RMDIR, RENAME, WRITE, FLUSH, FSYNC, SETXATTR, CREATE
    }

    private static final int ENODEV = 19;

    private final LowLevelLibrary lib;
    private final LowLevelOperations ops;
    private final Consumer<String> log;
    private final Arena arena = Arena.ofShared();
    private final Map<Op, LongAdder> counts = new EnumMap<>(Op.class);
    /** Requests run by {@link #serve} that began, and that ended (answered or failed). */
    private final LongAdder begun = new LongAdder();
    private final LongAdder ended = new LongAdder();
    private final List<Thread> workers = new ArrayList<>();
    private CountDownLatch running;
    private MemorySegment session = MemorySegment.NULL;
    private boolean closed;
    /** Sends the kernel notifications ({@link Invalidation}) off the serving threads; null until mounted. */
    private java.util.concurrent.ExecutorService notifier;
    private volatile boolean notifying;
    /** Whether the kernel's INIT has been served (then its reply has been taken by the kernel, see {@link #serve}). */
    private volatile boolean initialized;
    /** Run once after INIT's reply: {@link #afterInit}. */
    private final java.util.concurrent.atomic.AtomicReference<Runnable> afterInit =
            new java.util.concurrent.atomic.AtomicReference<>();

    private LowLevelSession(LowLevelLibrary lib, LowLevelOperations ops, Consumer<String> log) {
        this.lib = lib;
        this.ops = ops;
        this.log = log;
        for (Op op : Op.values()) {
            counts.put(op, new LongAdder());
        }
    }

    /**
     * Mounts {@code ops} at {@code mountPoint} and starts {@code threads} serving threads.
     *
     * @param arguments libfuse's session options after the program name, e.g. {@code -o ro,fsname=x} and {@code -d}
     * @param log       told what went wrong in a serving thread
     */
    public static LowLevelSession mount(LowLevelLibrary lib, LowLevelOperations ops, Path mountPoint,
            List<String> arguments, int threads, Consumer<String> log) throws IOException {
        LowLevelSession s = new LowLevelSession(lib, ops, log);
        try {
            s.start(mountPoint, arguments, threads);
            return s;
        } catch (IOException | RuntimeException | Error e) {
            s.arena.close();
            throw e;
        }
    }

    private void start(Path mountPoint, List<String> arguments, int threads) throws IOException {
        MemorySegment opsStruct = arena.allocate((long) Abi.OPS_COUNT * ADDRESS.byteSize(), 8);
        installUpcalls(opsStruct, ops.writable());
        List<String> argv = new ArrayList<>();
        argv.add("containerfs");
        argv.addAll(arguments);
        MemorySegment argvArray = arena.allocate(ADDRESS, argv.size() + 1L);
        for (int i = 0; i < argv.size(); i++) {
            argvArray.setAtIndex(ADDRESS, i, arena.allocateFrom(argv.get(i), StandardCharsets.UTF_8));
        }
        MemorySegment args = arena.allocate(Abi.ARGS_SIZE, 8);
        args.set(Abi.INT, Abi.ARGS_ARGC, argv.size());
        args.set(ADDRESS, Abi.ARGS_ARGV, argvArray);
        try {
            session = (MemorySegment) lib.sessionNew.invokeExact(args, opsStruct, opsStruct.byteSize(), MemorySegment.NULL);
            lib.optFreeArgs.invokeExact(args);
        } catch (Throwable t) {
            throw new IOException("fuse_session_new failed", t);
        }
        if (session.address() == 0) {
            throw new IOException("libfuse refused the mount options " + arguments + " (its message is on stderr)");
        }
        int rc;
        try {
            rc = (int) lib.sessionMount.invokeExact(session, arena.allocateFrom(mountPoint.toString(), StandardCharsets.UTF_8));
        } catch (Throwable t) {
            destroySession();
            throw new IOException("fuse_session_mount failed", t);
        }
        if (rc != 0) {
            destroySession();
            throw new IOException("mounting at " + mountPoint + " failed (libfuse printed the cause on stderr, if any)");
        }
        notifier = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "containerfs-fuse-notify");
            t.setDaemon(true);
            return t;
        });
        notifying = true;
        ops.attach(this);
        running = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::serve, "containerfs-fuse-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
    }

    /** One serving thread: receive and process requests until the connection ends. */
    private void serve() {
        try (Arena local = Arena.ofConfined()) {
            MemorySegment buf = local.allocate(Abi.BUF_SIZE, 8); // zeroed: libfuse allocates buf.mem itself
            try {
                while ((int) lib.sessionExited.invokeExact(session) == 0) {
                    int n = (int) lib.receiveBuf.invokeExact(session, buf);
                    if (n == -Errno.EINTR) {
                        continue;
                    }
                    if (n <= 0) {
                        if (n < 0 && n != -ENODEV) {
                            log.accept("reading /dev/fuse failed: errno " + -n + "; this serving thread ends");
                        }
                        break;
                    }
                    lib.processBuf.invokeExact(session, buf);
                    if (initialized && afterInit.get() != null) {
                        runAfterInit();
                    }
                }
            } finally {
                lib.free.invokeExact(buf.get(ADDRESS, Abi.BUF_MEM));
            }
        } catch (Throwable t) {
            log.accept("a serving thread failed: " + t);
        } finally {
            running.countDown();
        }
    }

    /**
     * Runs {@code action} once the kernel has taken the reply to its INIT (which sets, e.g., the mount's
     * read-ahead window, so a change made before it would be undone): on the serving thread that processed
     * INIT, right after it (libfuse replies to INIT within the processing, and the kernel takes a reply
     * within the write), or, if INIT was served before this call, after the next request served.
     */
    public void afterInit(Runnable action) {
        afterInit.set(action);
    }

    private void runAfterInit() {
        Runnable action = afterInit.getAndSet(null);
        if (action != null) {
            try {
                action.run();
            } catch (RuntimeException e) {
                log.accept("after init: " + e);
            }
        }
    }

    /** Whether every serving thread has ended (the kernel ended the connection). */
    public boolean ended() {
        return running.getCount() == 0;
    }

    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        return running.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Requests served so far by operation (those never asked left out). */
    public Map<Op, Long> requestCounts() {
        Map<Op, Long> out = new EnumMap<>(Op.class);
        counts.forEach((op, n) -> {
            if (n.sum() > 0) {
                out.put(op, n.sum());
            }
        });
        return out;
    }

    /**
     * After the serving threads have ended: {@code fuse_session_unmount} (a no-op if the mount is
     * gone), {@code fuse_session_destroy} (which calls the operations' destroy) and the stubs freed.
     * While threads still serve (a detached mount with open files), nothing is freed: the stubs must
     * outlive every request, so the process exit ends the connection.
     */
    @Override
    public synchronized void close() {
        if (closed || !ended()) {
            return;
        }
        closed = true;
        stopNotifying();
        try {
            lib.sessionUnmount.invokeExact(session);
        } catch (Throwable t) {
            log.accept("fuse_session_unmount failed: " + t);
        }
        destroySession();
        arena.close();
    }

    @Override
    public void invalidateInode(long ino) {
        notify(() -> {
            int rc = (int) lib.notifyInvalInode.handle().invokeExact(session, ino, 0L, 0L);
            return rc;
        });
    }

    private interface Notification {
        int send() throws Throwable;
    }

    /**
     * Queues a notification. ENOENT (the kernel no longer knows the inode or name) and ENOTCONN (the
     * connection is ending) mean there is nothing to drop; other failures are logged.
     */
    private void notify(Notification n) {
        if (!notifying) {
            return;
        }
        try {
            notifier.execute(() -> {
                if (!notifying) {
                    return; // the session is being freed: its pointer must not be used
                }
                try {
                    int rc = n.send();
                    if (rc < 0 && rc != -Errno.ENOENT && rc != -Errno.ENOTCONN) {
                        log.accept("a cache invalidation failed: errno " + -rc);
                    }
                } catch (Throwable t) {
                    log.accept("a cache invalidation failed: " + t);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // the session ends: the kernel's caches go with it
        }
    }

    /** Pending notifications are sent or skipped before the session is freed. */
    private void stopNotifying() {
        if (notifier == null) {
            return;
        }
        notifying = false;
        notifier.shutdown();
        try {
            notifier.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void destroySession() {
        try {
            lib.sessionDestroy.invokeExact(session);
        } catch (Throwable t) {
            log.accept("fuse_session_destroy failed: " + t);
        }
        session = MemorySegment.NULL;
    }

    // ---- upcalls ---------------------------------------------------------------------------------

    /** Slots of struct fuse_lowlevel_ops (3.x order); unset slots stay NULL and libfuse answers ENOSYS. */
    private static final int INIT = 0, DESTROY = 1, LOOKUP = 2, FORGET = 3, GETATTR = 4, OPEN = 14, READ = 15,
            RELEASE = 18, OPENDIR = 20, READDIR = 21, RELEASEDIR = 22, STATFS = 24, GETXATTR = 26, LISTXATTR = 27,
            FORGET_MULTI = 38, READDIRPLUS = 41;

    /**
     * Warms {@code lib}'s calls ({@link LowLevelLibrary#warmUpCalls}), then makes the upcall stubs of a
     * read-only session once, for nothing, and frees them: the linker keeps
     * what it made per call shape (the stubs' code factories and the method-handle forms), so a session
     * started later makes its own stubs in a fraction of the time. Run on a thread of its own while the
     * command line is parsed and the container opened (fuse-mount/README.md, "Start-up and footprint").
     */
    public static void warmUp(LowLevelLibrary lib) throws Throwable {
        lib.warmUpCalls();
        LowLevelSession unused = new LowLevelSession(null, null, message -> { });
        try {
            MemorySegment opsStruct = unused.arena.allocate((long) Abi.OPS_COUNT * ADDRESS.byteSize(), 8);
            unused.installUpcalls(opsStruct, false);
        } finally {
            unused.arena.close();
        }
    }

    private void installUpcalls(MemorySegment opsStruct, boolean writable) {
        FunctionDescriptor reqInoFi = FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS);
        FunctionDescriptor reqInoSizeOffFi = FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS);
        stub(opsStruct, INIT, "init", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        stub(opsStruct, DESTROY, "destroy", FunctionDescriptor.ofVoid(ADDRESS));
        stub(opsStruct, LOOKUP, "lookup", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS));
        stub(opsStruct, FORGET, "forget", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG));
        stub(opsStruct, FORGET_MULTI, "forgetMulti", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS));
        stub(opsStruct, GETATTR, "getattr", reqInoFi);
        stub(opsStruct, OPENDIR, "opendir", reqInoFi);
        stub(opsStruct, READDIR, "readdir", reqInoSizeOffFi);
        stub(opsStruct, READDIRPLUS, "readdirplus", reqInoSizeOffFi);
        stub(opsStruct, RELEASEDIR, "releasedir", reqInoFi);
        stub(opsStruct, OPEN, "open", reqInoFi);
        stub(opsStruct, READ, "read", reqInoSizeOffFi);
        stub(opsStruct, RELEASE, "release", reqInoFi);
        stub(opsStruct, STATFS, "statfs", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG));
        stub(opsStruct, GETXATTR, "getxattr", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        stub(opsStruct, LISTXATTR, "listxattr", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG));
        if (writable) {
            installWriteUpcalls(opsStruct);
        }
    }

    private void stub(MemorySegment opsStruct, int slot, String method, FunctionDescriptor descriptor) {
        try {
            MethodHandle target = MethodHandles.lookup()
                    .findVirtual(LowLevelSession.class, method, descriptor.toMethodType())
                    .bindTo(this);
            opsStruct.setAtIndex(ADDRESS, slot, Linker.nativeLinker().upcallStub(target, descriptor, arena));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no upcall method " + method + descriptor.toMethodType(), e);
        }
    }

    private interface Body {
        void run(Request request) throws Exception;
    }

    /**
     * Runs one request: counted, and never an exception back into libfuse (it would end the JVM);
     * a request left unanswered by a failure is answered EIO.
     */
    private void serve(Op op, MemorySegment req, MemorySegment fi, Body body) {
        counts.get(op).increment();
        begun.increment();
        Request request = new Request(lib, req, fi);
        try {
            body.run(request);
        } catch (Throwable t) {
            log.accept(op + " failed: " + t);
            if (!request.answered()) {
                try {
                    request.error(Errno.EIO);
                } catch (Throwable ignored) {
                    // the reply itself failed: libfuse has freed nothing, the kernel waits for the unmount
                }
            }
        } finally {
            ended.increment();
        }
    }

    /** Requests (other than INIT and FORGET) begun since the start, and how many of them are under way now. */
    public long requestsBegun() {
        return begun.sum();
    }

    public long requestsUnderWay() {
        return begun.sum() - ended.sum();
    }

    private static String name(MemorySegment cString) {
        return cString.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    private void init(MemorySegment userdata, MemorySegment conn) {
        counts.get(Op.INIT).increment();
        try {
            ops.init(new Connection(conn));
        } catch (Throwable t) {
            log.accept("init failed: " + t);
        } finally {
            initialized = true; // read by this thread after processing INIT, i.e. after libfuse's reply
        }
    }

    private void destroy(MemorySegment userdata) {
        try {
            ops.destroy();
        } catch (Throwable t) {
            log.accept("destroy failed: " + t);
        }
    }

    private void lookup(MemorySegment req, long parent, MemorySegment name) {
        serve(Op.LOOKUP, req, MemorySegment.NULL, r -> ops.lookup(r, parent, name(name)));
    }

    private void forget(MemorySegment req, long ino, long nlookup) {
        counts.get(Op.FORGET).increment();
        forgetQuietly(ino, nlookup);
        replyNone(req);
    }

    private void forgetMulti(MemorySegment req, long count, MemorySegment forgets) {
        counts.get(Op.FORGET_MULTI).increment();
        MemorySegment data = forgets.reinterpret(count * Abi.FORGET_DATA_SIZE);
        for (long i = 0; i < count; i++) {
            forgetQuietly(data.get(Abi.LONG, i * Abi.FORGET_DATA_SIZE), data.get(Abi.LONG, i * Abi.FORGET_DATA_SIZE + 8));
        }
        replyNone(req);
    }

    private void forgetQuietly(long ino, long nlookup) {
        try {
            ops.forget(ino, nlookup);
        } catch (Throwable t) {
            log.accept("forget failed: " + t);
        }
    }

    private void replyNone(MemorySegment req) {
        try {
            lib.replyNone.invokeExact(req);
        } catch (Throwable t) {
            log.accept("fuse_reply_none failed: " + t);
        }
    }

    private void getattr(MemorySegment req, long ino, MemorySegment fi) {
        serve(Op.GETATTR, req, fi, r -> ops.getattr(r, ino));
    }

    private void opendir(MemorySegment req, long ino, MemorySegment fi) {
        serve(Op.OPENDIR, req, fi, r -> ops.opendir(r, ino));
    }

    private void readdir(MemorySegment req, long ino, long size, long off, MemorySegment fi) {
        serve(Op.READDIR, req, fi, r -> ops.readdir(r, ino, off, r.listing(size, false)));
    }

    private void readdirplus(MemorySegment req, long ino, long size, long off, MemorySegment fi) {
        serve(Op.READDIRPLUS, req, fi, r -> ops.readdir(r, ino, off, r.listing(size, true)));
    }

    private void releasedir(MemorySegment req, long ino, MemorySegment fi) {
        serve(Op.RELEASEDIR, req, fi, r -> ops.releasedir(r, ino));
    }

    private void open(MemorySegment req, long ino, MemorySegment fi) {
        serve(Op.OPEN, req, fi, r -> ops.open(r, ino));
    }

    private void read(MemorySegment req, long ino, long size, long off, MemorySegment fi) {
        serve(Op.READ, req, fi, r -> ops.read(r, ino, size, off));
    }

    private void release(MemorySegment req, long ino, MemorySegment fi) {
        serve(Op.RELEASE, req, fi, r -> ops.release(r, ino));
    }

    private void statfs(MemorySegment req, long ino) {
        serve(Op.STATFS, req, MemorySegment.NULL, r -> ops.statfs(r, ino));
    }

    private void getxattr(MemorySegment req, long ino, MemorySegment name, long size) {
        serve(Op.GETXATTR, req, MemorySegment.NULL, r -> ops.getxattr(r, ino, name(name), size));
    }

    private void listxattr(MemorySegment req, long ino, long size) {
        serve(Op.LISTXATTR, req, MemorySegment.NULL, r -> ops.listxattr(r, ino, size));
    }

    // ---- a writable session's upcalls (installed only if the operations are writable) -------------

    /** Slots of struct fuse_lowlevel_ops (3.x order) a writable session fills. */
    private static final int SETATTR = 5, MKNOD = 7, MKDIR = 8, UNLINK = 9, RMDIR = 10, RENAME = 12, WRITE = 16,
            FLUSH = 17, FSYNC = 19, SETXATTR = 25, CREATE = 30;

    private void installWriteUpcalls(MemorySegment opsStruct) {
        FunctionDescriptor reqParentName = FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS);
        stub(opsStruct, SETATTR, "setattr", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS));
        stub(opsStruct, MKNOD, "mknod", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_LONG));
        stub(opsStruct, MKDIR, "mkdir", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT));
        stub(opsStruct, UNLINK, "unlink", reqParentName);
        stub(opsStruct, RMDIR, "rmdir", reqParentName);
        stub(opsStruct, RENAME, "rename",
                FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT));
        stub(opsStruct, WRITE, "write",
                FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
        stub(opsStruct, FLUSH, "flush", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS));
        stub(opsStruct, FSYNC, "fsync", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS));
        stub(opsStruct, SETXATTR, "setxattr",
                FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
        stub(opsStruct, CREATE, "create", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS));
    }

    private void setattr(MemorySegment req, long ino, MemorySegment attr, int toSet, MemorySegment fi) {
        serve(Op.SETATTR, req, fi, r -> {
            MemorySegment st = attr.reinterpret(Abi.STAT.size());
            Abi.Stat l = Abi.STAT;
            ops.setattr(r, ino, new LowLevelOperations.NewAttributes(toSet, st.get(Abi.INT, l.mode()),
                    st.get(Abi.INT, l.uid()), st.get(Abi.INT, l.gid()), st.get(Abi.LONG, l.stSize()),
                    st.get(Abi.LONG, l.atime()), st.get(Abi.LONG, l.atime() + 8), st.get(Abi.LONG, l.mtime()),
                    st.get(Abi.LONG, l.mtime() + 8)));
        });
    }

    private void mknod(MemorySegment req, long parent, MemorySegment name, int mode, long rdev) {
        serve(Op.MKNOD, req, MemorySegment.NULL, r -> ops.mknod(r, parent, name(name), mode));
    }

    private void mkdir(MemorySegment req, long parent, MemorySegment name, int mode) {
        serve(Op.MKDIR, req, MemorySegment.NULL, r -> ops.mkdir(r, parent, name(name), mode));
    }

    private void unlink(MemorySegment req, long parent, MemorySegment name) {
        serve(Op.UNLINK, req, MemorySegment.NULL, r -> ops.unlink(r, parent, name(name)));
    }

    private void rmdir(MemorySegment req, long parent, MemorySegment name) {
        serve(Op.RMDIR, req, MemorySegment.NULL, r -> ops.rmdir(r, parent, name(name)));
    }

    private void rename(MemorySegment req, long parent, MemorySegment name, long newParent, MemorySegment newName,
            int flags) {
        serve(Op.RENAME, req, MemorySegment.NULL, r -> ops.rename(r, parent, name(name), newParent, name(newName), flags));
    }

    private void write(MemorySegment req, long ino, MemorySegment buf, long size, long off, MemorySegment fi) {
        serve(Op.WRITE, req, fi, r -> ops.write(r, ino, buf.reinterpret(size).asByteBuffer(), off));
    }

    private void flush(MemorySegment req, long ino, MemorySegment fi) {
        serve(Op.FLUSH, req, fi, r -> ops.flush(r, ino));
    }

    private void fsync(MemorySegment req, long ino, int datasync, MemorySegment fi) {
        serve(Op.FSYNC, req, fi, r -> ops.fsync(r, ino, datasync != 0));
    }

    private void setxattr(MemorySegment req, long ino, MemorySegment name, MemorySegment value, long size, int flags) {
        serve(Op.SETXATTR, req, MemorySegment.NULL,
                r -> ops.setxattr(r, ino, name(name), value.reinterpret(size).asByteBuffer(), flags));
    }

    private void create(MemorySegment req, long parent, MemorySegment name, int mode, MemorySegment fi) {
        serve(Op.CREATE, req, fi, r -> ops.create(r, parent, name(name), mode));
    }

    /** Queued as the other notifications; the future is done once sent (or skipped: the session ends). */
    @Override
    public java.util.concurrent.Future<?> invalidateEntry(long parent, String name) {
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        notify(() -> {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment n = a.allocate(bytes.length + 1L);
                MemorySegment.copy(bytes, 0, n, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes.length);
                return (int) lib.notifyInvalEntry.handle().invokeExact(session, parent, n, (long) bytes.length);
            } finally {
                done.complete(null);
            }
        });
        if (!notifying) {
            done.complete(null);
        }
        return done;
    }

    /** {@code fuse_lowlevel_notify_inval_inode} with a negative offset: the attributes only. */
    @Override
    public void invalidateAttributes(long ino) {
        notify(() -> (int) lib.notifyInvalInode.handle().invokeExact(session, ino, -1L, 0L));
    }
}
