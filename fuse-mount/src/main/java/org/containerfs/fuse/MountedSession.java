package org.containerfs.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A running mount, whichever engine serves it ({@code --engine}): jfuse's high-level
 * {@link FuseSession} or the low-level {@link LowLevelMount}. The steps both engines take the same
 * way live here: {@link #prepare} before mounting, {@link #unmountWithGrace} to end it.
 */
public interface MountedSession extends AutoCloseable {
    Path mountPoint();

    /** Whether the kernel connection has ended (unmounted, no process uses the mount any more). */
    boolean ended();

    /** Waits until the mount is gone and the engine stopped serving; false after {@code timeout}. */
    boolean awaitEnd(Duration timeout) throws InterruptedException;

    default void awaitEnd() throws InterruptedException {
        while (!awaitEnd(Duration.ofHours(1))) {
            // keep waiting
        }
    }

    /**
     * Unmounts: normally if possible, retrying while busy; after {@code grace} detached (lazy).
     * Returns whether the session has ended (false: processes still hold files open on the detached mount).
     */
    boolean unmount(Duration grace) throws InterruptedException;

    /** Frees the engine's resources once the session has ended (else leaves them to the process exit). */
    @Override
    void close();

    /** What a mount needs, checked before anything is mounted: libfuse's path and the canonical mount point. */
    record Target(Path libfuse, Path mountPoint) {}

    /**
     * The checks every engine makes before mounting: libfuse3, /dev/fuse and (for auto_unmount)
     * fusermount3 present; the mount point an existing directory, not mounted already, and empty
     * unless {@code -o nonempty} (its contents would be hidden).
     */
    static Target prepare(Path mountPoint, MountSettings settings) throws FuseUnavailableException, IOException {
        Path libfuse = LibFuse.locate();
        LibFuse.checkDevice();
        if (settings.autoUnmount()) {
            LibFuse.fusermount();
        }
        Path mp = FuseSession.canonical(mountPoint);
        if (!Files.isDirectory(mp)) {
            throw new IOException("mount point " + mp + " is not an existing directory");
        }
        if (FuseSession.isMounted(mp)) {
            throw new IOException("something is already mounted at " + mp + " (unmount it first: fusermount3 -u " + mp + ")");
        }
        if (!settings.allowNonEmpty()) {
            try (var entries = Files.list(mp)) {
                if (entries.findAny().isPresent()) {
                    throw new IOException("mount point " + mp + " is not empty: the mount would hide its contents "
                            + "(use an empty directory, or -o nonempty to mount over it anyway)");
                }
            }
        }
        return new Target(libfuse, mp);
    }

    /**
     * The unmount of {@link #unmount(Duration)}, for every engine: fusermount3 -u, retried while busy,
     * {@code -u -z} after {@code grace}; then waits up to 2 s for the engine to stop serving.
     */
    static boolean unmountWithGrace(MountedSession session, Duration grace, MountLog log) throws InterruptedException {
        Path mp = session.mountPoint();
        long deadline = System.nanoTime() + grace.toNanos();
        boolean reported = false;
        while (FuseSession.isMounted(mp) && !session.ended()) {
            Fusermount.Result r = Fusermount.unmount(mp, false);
            if (r.ok()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                log.notice(mp + " is still in use: detaching it (lazy unmount); open files keep working "
                        + "until their processes close them or this process exits");
                Fusermount.unmount(mp, true);
                break;
            }
            if (!reported) {
                log.notice("unmounting " + mp + ": " + r.message() + "; retrying for " + grace.toSeconds() + " s");
                reported = true;
            }
            Thread.sleep(200);
        }
        return session.awaitEnd(Duration.ofSeconds(2));
    }
}
