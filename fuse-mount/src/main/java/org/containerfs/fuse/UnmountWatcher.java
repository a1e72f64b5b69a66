package org.containerfs.fuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Backs up libfuse's auto_unmount, for every engine: fusermount3's helper only unmounts if opening the
 * mount point fails with exactly ENOTCONN, and it wakes when our control socket closes, which on a
 * SIGKILL can be just before the kernel ends the FUSE connection (the open then fails otherwise and
 * the mount point stays, hung). This watcher (a shell) waits for our end of a pipe: "clean" on a
 * normal end, EOF when this process died, and then detaches the mount point.
 */
final class UnmountWatcher {
    private final Process process;

    private UnmountWatcher(Process process) {
        this.process = process;
    }

    /** Starts the watcher of {@code mp}; null (and a warning) if it cannot be started. */
    static UnmountWatcher start(Path mp, MountLog log) {
        try {
            String fusermount = LibFuse.fusermount().toString();
            Process p = new ProcessBuilder("/bin/sh", "-c",
                    "read line; [ \"$line\" = clean ] || exec \"$0\" -u -z -q -- \"$1\"", fusermount, mp.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return new UnmountWatcher(p);
        } catch (IOException | FuseUnavailableException e) {
            log.warn("no unmount watcher (" + e.getMessage() + "): relying on libfuse's auto_unmount alone");
            return null;
        }
    }

    /** Tells the watcher that this process ends the mount itself. */
    void release() {
        if (!process.isAlive()) {
            return;
        }
        try (var in = process.getOutputStream()) {
            in.write("clean\n".getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            process.destroy();
        }
    }
}
