package org.containerfs.fuse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.containerfs.fuse.MountCommand.Engine;

/** A container mounted by the test JVM itself through the library API (faster than a child JVM), by either engine. */
final class InProcessMount implements AutoCloseable {
    final FileSystem fs;
    final MountedSession session;
    final Path mountPoint;
    private final ByteArrayOutputStream logBytes;

    private InProcessMount(FileSystem fs, MountedSession session, ByteArrayOutputStream logBytes) {
        this.fs = fs;
        this.session = session;
        this.mountPoint = session.mountPoint();
        this.logBytes = logBytes;
    }

    /** Mounted by the default engine (libfuse's low-level API, as {@code mount} without {@code --engine}). */
    static InProcessMount mount(Path container, Path mountPoint, boolean readWrite) throws Exception {
        return mount(Engine.lowlevel, container, mountPoint, readWrite);
    }

    /** Mounted by {@code engine}, with further {@code -o} options. */
    static InProcessMount mount(Engine engine, Path container, Path mountPoint, boolean readWrite, String... options)
            throws Exception {
        FileSystem fs = MountCommand.openContainer(container, readWrite, null, false);
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        MountLog log = new MountLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8), true);
        MountSettings settings = MountSettings.defaults(container.toString()).withReadOnly(!readWrite)
                .withExtraOptions(List.of(options));
        try {
            return new InProcessMount(fs, engine.mount(fs.getRootDirectories().iterator().next(), mountPoint, settings,
                    log), logBytes);
        } catch (Exception | Error e) {
            fs.close();
            throw e;
        }
    }

    /**
     * {@code fs} (a tree of {@code ContainerFileSystems.openTree}, opened by the test with its own env), mounted
     * read-only by {@code engine}; closing the mount closes {@code fs}.
     */
    static InProcessMount mountFileSystem(Engine engine, FileSystem fs, Path mountPoint) throws Exception {
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        MountLog log = new MountLog(new PrintStream(logBytes, true, StandardCharsets.UTF_8), true);
        MountSettings settings = MountSettings.defaults(fs.toString()).withReadOnly(true);
        try {
            return new InProcessMount(fs, engine.mount(fs.getRootDirectories().iterator().next(), mountPoint, settings,
                    log), logBytes);
        } catch (Exception | Error e) {
            fs.close();
            throw e;
        }
    }

    /** The high-level engine's session (its operations and counters). */
    FuseSession highLevel() {
        return (FuseSession) session;
    }

    /** The low-level engine's mount (its inode table and counters). */
    LowLevelMount lowLevel() {
        return (LowLevelMount) session;
    }

    String log() {
        synchronized (logBytes) {
            return logBytes.toString(StandardCharsets.UTF_8);
        }
    }

    Path path(String treePath) {
        return Path.of(mountPoint + treePath);
    }

    /** Unmounts (lazily if still busy after 2 s) and frees the session; never waits unbounded. */
    @Override
    public void close() throws Exception {
        try {
            if (!session.unmount(Duration.ofSeconds(2)) && FuseSession.isMounted(mountPoint)) {
                Fusermount.unmount(mountPoint, true);
            }
            session.close();
        } finally {
            fs.close();
        }
    }
}
