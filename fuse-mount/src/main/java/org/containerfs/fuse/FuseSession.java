package org.containerfs.fuse;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.cryptomator.jfuse.api.Fuse;
import org.cryptomator.jfuse.api.FuseBuilder;
import org.cryptomator.jfuse.api.FuseMount;
import org.cryptomator.jfuse.api.FuseMountFailedException;

/**
 * One mounted file system: mount, wait for the end, unmount. Works for any NIO directory.
 *
 * <p>Ending a session: {@link #unmount(Duration)} asks fusermount3 for a normal unmount, retrying
 * while the mount is busy (a process has a file open there); after the grace period it detaches the
 * mount ({@code -z}): new accesses no longer reach it, open files keep working until closed. The
 * FUSE resources are freed ({@link #close()}) only once libfuse's loop has ended, because jfuse's
 * native callbacks must stay alive while the kernel can still send requests.
 */
public final class FuseSession implements MountedSession {
    private final Fuse fuse;
    private final NioFuseOperations operations;
    private final Path mountPoint;
    private final MountLog log;
    private final ExecutorService loop;
    private final UnmountWatcher watcher;
    private boolean closed;

    private FuseSession(Fuse fuse, NioFuseOperations operations, Path mountPoint, MountLog log, UnmountWatcher watcher) {
        this.fuse = fuse;
        this.operations = operations;
        this.mountPoint = mountPoint;
        this.log = log;
        this.watcher = watcher;
        this.loop = loopExecutor(fuse);
        if (loop != null) {
            loop.shutdown(); // accepts nothing new; the running fuse_loop task goes on until unmount
        }
    }

    /** Mounts {@code root} (a directory of any NIO file system) at {@code mountPoint}. */
    public static FuseSession mount(Path root, Path mountPoint, MountSettings settings, MountLog log)
            throws FuseUnavailableException, IOException {
        MountedSession.Target target = MountedSession.prepare(mountPoint, settings);
        Path libfuse = target.libfuse();
        Path mp = target.mountPoint();
        FuseBuilder builder;
        try {
            builder = Fuse.builder();
        } catch (UnsupportedOperationException e) {
            throw new FuseUnavailableException("jfuse supports no FUSE implementation on " + System.getProperty("os.name")
                    + "/" + System.getProperty("os.arch"), e);
        }
        builder.setLibraryPath(libfuse.toString());
        NioFuseOperations ops = new NioFuseOperations(root, builder.errno(), !settings.readOnly(), settings.uid(),
                settings.gid(), log);
        ops.maxRead(settings.maxRead());
        ops.libfuse(libfuse);
        Fuse fuse;
        try {
            fuse = builder.build(ops);
        } catch (UnsatisfiedLinkError e) {
            throw new FuseUnavailableException("loading " + libfuse + " failed (" + e.getMessage() + "): reinstall fuse3", e);
        } catch (IllegalCallerException e) {
            throw new FuseUnavailableException("native access is disabled: run java with --enable-native-access=ALL-UNNAMED", e);
        }
        try {
            mountWithoutProbe(fuse, ops, mp, settings.fuseArguments(LibFuse.takesMaxThreads(libfuse)));
        } catch (FuseMountFailedException | IllegalArgumentException e) {
            closeQuietly(fuse);
            throw new IOException("mounting at " + mp + " failed: " + e.getMessage()
                    + " (libfuse printed the cause on stderr, if any)", e);
        }
        if (settings.readAheadKb() > 0) {
            // not now: the kernel sets the window again when it takes the session's INIT reply, which
            // libfuse sends after the init callback this mount waited for; any later request proves it has
            ops.onFirstRequest(() -> setReadAhead(mp, settings.readAheadKb(), log));
        }
        return new FuseSession(fuse, ops, mp, log, settings.autoUnmount() ? UnmountWatcher.start(mp, log) : null);
    }

    /** How long the kernel may take to start the session (its INIT request) once the mount point exists. */
    private static final Duration INIT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * jfuse's {@code Fuse.mount} without its readiness probe. That probe stats a file in the new mount
     * from the mounting thread: a signal that ends the process while the stat waits (before the session
     * is served) leaves a thread blocked on a request to its own mount, which nothing answers any more,
     * and the process can then neither exit nor be killed (the FUSE connection stays up while the thread
     * holds it). Here the same steps (jfuse's native mount, then its loop on jfuse's executor) are taken
     * and readiness is the session's INIT callback: no thread of this process ever calls into its mount.
     */
    static void mountWithoutProbe(Fuse fuse, NioFuseOperations ops, Path mp, List<String> flags)
            throws FuseMountFailedException {
        List<String> args = new ArrayList<>();
        args.add("containerfs");
        args.addAll(flags);
        args.add("-f");
        args.add(mp.toString());
        FuseMount mount;
        java.util.concurrent.atomic.AtomicReference<FuseMount> mounted;
        ExecutorService executor;
        try {
            java.lang.reflect.Method nativeMount = Fuse.class.getDeclaredMethod("mount", List.class);
            nativeMount.setAccessible(true);
            Field mountField = Fuse.class.getDeclaredField("mount");
            mountField.setAccessible(true);
            @SuppressWarnings("unchecked")
            var ref = (java.util.concurrent.atomic.AtomicReference<FuseMount>) mountField.get(fuse);
            mounted = ref;
            executor = loopExecutor(fuse);
            if (executor == null) {
                throw new IllegalStateException("jfuse's loop executor not found");
            }
            mount = (FuseMount) nativeMount.invoke(fuse, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof FuseMountFailedException failed) {
                throw failed;
            }
            if (e.getCause() instanceof IllegalArgumentException bad) {
                throw bad;
            }
            throw new FuseMountFailedException("jfuse's mount failed: " + e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new FuseMountFailedException("this jfuse version does not have the mount steps containerfs takes ("
                    + e + ")");
        }
        mounted.set(mount); // from here Fuse.close() unmounts and frees it, as after its own mount
        Future<Integer> loop = executor.submit(mount::loop);
        long deadline = System.nanoTime() + INIT_TIMEOUT.toNanos();
        try {
            while (!ops.awaitInit(Duration.ofMillis(50))) {
                if (loop.isDone()) {
                    throw new FuseMountFailedException("the FUSE session ended before it started (fuse_loop returned "
                            + loopResult(loop) + ")");
                }
                if (System.nanoTime() > deadline) {
                    throw new FuseMountFailedException("the kernel did not start the FUSE session within "
                            + INIT_TIMEOUT.toSeconds() + " s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FuseMountFailedException("interrupted while waiting for the FUSE session to start");
        }
    }

    private static String loopResult(Future<Integer> loop) {
        try {
            return String.valueOf(loop.get());
        } catch (java.util.concurrent.ExecutionException e) {
            return "with " + e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    /**
     * Sets the kernel's read-ahead window of the mount ({@code read_ahead_kb} of its backing device
     * info): the size of the read requests a sequential reader causes. Only root may write it; for
     * anyone else the log says how.
     */
    static void setReadAhead(Path mp, int kb, MountLog log) {
        String device = deviceOf(mp);
        if (device == null) {
            return;
        }
        Path knob = Path.of("/sys/class/bdi", device, "read_ahead_kb");
        try {
            Files.writeString(knob, Integer.toString(kb));
        } catch (IOException | SecurityException e) {
            log.info("read-ahead stays at the kernel's default (" + e.getClass().getSimpleName() + " on " + knob
                    + "); as root: echo " + kb + " > " + knob);
        }
    }

    /** The {@code major:minor} of the file system mounted at {@code mp}, from /proc/self/mountinfo. */
    static String deviceOf(Path mp) {
        String wanted = canonical(mp).toString();
        try {
            String device = null;
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
                String[] fields = line.split(" ");
                if (fields.length > 4 && unescape(fields[4]).equals(wanted)) {
                    device = fields[2]; // the last mount at that point is the visible one
                }
            }
            return device;
        } catch (IOException e) {
            return null;
        }
    }

    private static void closeQuietly(Fuse fuse) {
        try {
            fuse.close();
        } catch (Exception ignored) {
            // nothing was mounted
        }
    }

    /** jfuse runs fuse_loop on its own single-thread executor; its termination is the loop's end. */
    private static ExecutorService loopExecutor(Fuse fuse) {
        try {
            Field f = Fuse.class.getDeclaredField("executor");
            f.setAccessible(true);
            return (ExecutorService) f.get(fuse);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public Path mountPoint() {
        return mountPoint;
    }

    public NioFuseOperations operations() {
        return operations;
    }

    /** Whether the kernel connection has ended (unmounted and no process uses the mount any more). */
    @Override
    public boolean ended() {
        if (loop != null) {
            return loop.isTerminated();
        }
        return !isMounted(mountPoint);
    }

    /** Waits until the mount is gone (unmounted by anyone) and libfuse's loop has ended. */
    @Override
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (loop != null) {
            return loop.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        while (isMounted(mountPoint)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(100);
        }
        return true;
    }

    /**
     * Unmounts: normally if possible, retrying while busy; after {@code grace} detached (lazy).
     * Returns whether the session has ended (false: processes still hold files open on the detached mount).
     */
    @Override
    public boolean unmount(Duration grace) throws InterruptedException {
        return MountedSession.unmountWithGrace(this, grace, log);
    }

    /**
     * Frees the FUSE session. If the loop is still serving a detached mount (a process keeps a file
     * open), the native resources are left to the process exit, which ends the connection.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        operations.finish(); // staged files: committed or dropped before the container closes
        log.info("requests served: " + operations.requestCounts());
        if (watcher != null) {
            watcher.release();
        }
        if (!ended()) {
            log.notice("FUSE loop still running (files open on a detached mount): leaving it to the process exit");
            return;
        }
        closed = true;
        try {
            fuse.close();
        } catch (Exception e) {
            log.warn("closing the FUSE session: " + e);
        }
    }

    /**
     * The mount point as /proc/self/mountinfo spells it: symbolic links of its parent resolved. The
     * mount point itself is not resolved: that would ask the (possibly dead) FUSE file system.
     */
    static Path canonical(Path mountPoint) {
        Path mp = mountPoint.toAbsolutePath().normalize();
        Path parent = mp.getParent();
        if (parent == null) {
            return mp;
        }
        try {
            return parent.toRealPath().resolve(mp.getFileName());
        } catch (IOException e) {
            return mp;
        }
    }

    /** Whether {@code mountPoint} is a mount point in this process's mount namespace. */
    public static boolean isMounted(Path mountPoint) {
        String wanted = canonical(mountPoint).toString();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
                String[] fields = line.split(" ");
                if (fields.length > 4 && unescape(fields[4]).equals(wanted)) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /** mountinfo writes space, tab, newline and backslash as \ooo. */
    static String unescape(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        List<Byte> bytes = new ArrayList<>();
        byte[] raw = field.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '\\' && i + 3 < raw.length && isOctal(raw[i + 1]) && isOctal(raw[i + 2]) && isOctal(raw[i + 3])) {
                bytes.add((byte) Integer.parseInt(new String(raw, i + 1, 3, StandardCharsets.US_ASCII), 8));
                i += 3;
            } else {
                bytes.add(raw[i]);
            }
        }
        byte[] out = new byte[bytes.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = bytes.get(i);
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    private static boolean isOctal(byte b) {
        return b >= '0' && b <= '7';
    }
}
