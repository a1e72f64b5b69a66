package org.containerfs.fuse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A container mounted by the test JVM itself through the library API (faster than a child JVM). */
final class InProcessMount implements AutoCloseable {
    final FileSystem fs;
    final FuseSession session;
    final Path mountPoint;
    private final ByteArrayOutputStream logBytes;

    private InProcessMount(FileSystem fs, FuseSession session, Path mountPoint, ByteArrayOutputStream logBytes) {
        this.fs = fs;
        this.session = session;
        this.mountPoint = mountPoint;
        this.logBytes = logBytes;
    }

    static InProcessMount mount(Path container, Path mountPoint, boolean readWrite) throws Exception {
        FileSystem fs = MountCommand.openContainer(container, readWrite, null, false);
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        MountLog log = new MountLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8), true);
        MountSettings settings = MountSettings.defaults(container.toString()).withReadOnly(!readWrite)
                .withExtraOptions(List.of());
        try {
            FuseSession session = FuseSession.mount(fs.getRootDirectories().iterator().next(), mountPoint, settings, log);
            return new InProcessMount(fs, session, mountPoint.toAbsolutePath().normalize(), logBytes);
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

    @Override
    public void close() throws Exception {
        try {
            session.unmount(Duration.ofSeconds(2));
            session.close();
        } finally {
            fs.close();
        }
    }
}
