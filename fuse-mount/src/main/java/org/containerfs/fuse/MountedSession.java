package org.containerfs.fuse;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A running mount, whichever engine serves it ({@code --engine}): jfuse's high-level
 * {@link FuseSession} or the low-level {@link LowLevelMount}.
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

    /**
     * The unmount of {@link #unmount(Duration)} for an engine that serves until the kernel ends the
     * connection: fusermount3 -u, retried while busy, {@code -u -z} after {@code grace}.
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

    /** The high-level engine's session as a {@link MountedSession}. */
    static MountedSession of(FuseSession session) {
        return new MountedSession() {
            @Override
            public Path mountPoint() {
                return session.mountPoint();
            }

            @Override
            public boolean ended() {
                return session.ended();
            }

            @Override
            public boolean awaitEnd(Duration timeout) throws InterruptedException {
                return session.awaitEnd(timeout);
            }

            @Override
            public boolean unmount(Duration grace) throws InterruptedException {
                return session.unmount(grace);
            }

            @Override
            public void close() {
                session.close();
            }
        };
    }
}
