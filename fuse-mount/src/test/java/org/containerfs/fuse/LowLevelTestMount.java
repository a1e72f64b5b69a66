package org.containerfs.fuse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A container mounted read-only by the test JVM through the low-level engine. */
final class LowLevelTestMount implements AutoCloseable {
    final FileSystem fs;
    final LowLevelMount mount;
    final Path mountPoint;
    private final ByteArrayOutputStream logBytes;

    private LowLevelTestMount(FileSystem fs, LowLevelMount mount, ByteArrayOutputStream logBytes) {
        this.fs = fs;
        this.mount = mount;
        this.mountPoint = mount.mountPoint();
        this.logBytes = logBytes;
    }

    static LowLevelTestMount mount(Path container, Path mountPoint, String... options) throws Exception {
        FileSystem fs = MountCommand.openContainer(container, false, null, false);
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        MountLog log = new MountLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8), true);
        MountSettings settings = MountSettings.defaults(container.toString()).withExtraOptions(List.of(options));
        try {
            return new LowLevelTestMount(fs, LowLevelMount.mount(fs.getRootDirectories().iterator().next(), mountPoint,
                    settings, log), logBytes);
        } catch (Exception | Error e) {
            fs.close();
            throw e;
        }
    }

    String log() {
        synchronized (logBytes) {
            return logBytes.toString(StandardCharsets.UTF_8);
        }
    }

    Path path(String treePath) {
        return Path.of(mountPoint + treePath);
    }

    /** Unmounts (lazily if busy after 2 s) and frees the session; never waits unbounded. */
    @Override
    public void close() throws Exception {
        try {
            if (!mount.unmount(Duration.ofSeconds(2)) && FuseSession.isMounted(mountPoint)) {
                Fusermount.unmount(mountPoint, true);
            }
            mount.close();
        } finally {
            fs.close();
        }
    }
}
