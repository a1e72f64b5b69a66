package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.spi.FileSystemProvider;
import java.time.Duration;
import java.util.Map;
import org.containerfs.g3.G3FileSystemProvider;
import org.containerfs.gsd.GsdFileSystemProvider;
import org.containerfs.scda.ScdaFileSystemProvider;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-only mounts of GSD, G3 and scda containers that a writer (a provider instance of its own,
 * standing for another process) appends to: a unit being written stays invisible, a committed one
 * shows on a new ls within a second, through either engine. The LIME case is {@link LiveGrowthTest}.
 */
class FormatLiveGrowthTest {
    private static final Duration WITHIN = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    private Path copy(CorpusFormat format, String file) throws Exception {
        Path container = dir.resolve(file);
        Files.copy(format.corpusFile(file), container);
        return container;
    }

    private static FileSystem writer(FileSystemProvider provider, Path container) throws Exception {
        return provider.newFileSystem(container, Map.of("accessMode", "readWrite"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void gsdFrameAppearsOnceCommitted(Engine engine) throws Exception {
        Path container = copy(new CorpusFormat.Gsd(), "hoomd_trajectory.gsd");
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, false);
                FileSystem w = writer(new GsdFileSystemProvider(), container)) {
            assertThat(sh("ls", mp.toString()).ok().lines()).hasSize(12);
            long size = Files.size(container);
            Files.createDirectory(w.getPath("/12"));
            Files.write(w.getPath("/12/live"), "frame twelve".getBytes());
            assertThat(Files.size(container)).as("chunk data is in the file before the commit").isGreaterThan(size);
            // A listing between the data and the commit sees the grown size but no new frame; the commit
            // itself changes no size, so the GSD container reports its uncommitted tail to be looked at again.
            assertThat(sh("ls", mp.toString()).ok().lines()).hasSize(12);
            try (FileSystem reader = new GsdFileSystemProvider().newFileSystem(container, Map.of())) {
                assertThat(Files.exists(reader.getPath("/12"))).isFalse();
            }
            Files.setAttribute(w.getPath("/12"), "gsd:commit", true);
            assertThat(FuseTestSupport.awaitListed(mp, "12")).isLessThan(WITHIN);
            assertThat(sh("cat", mp + "/12/live").ok().out()).isEqualTo("frame twelve");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void g3FrameAppearsOnceCommitted(Engine engine) throws Exception {
        Path container = copy(new CorpusFormat.G3(), "simple-types.g3");
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, false);
                FileSystem w = writer(new G3FileSystemProvider(), container)) {
            assertThat(sh("ls", mp.toString()).ok().lines()).hasSize(4);
            byte[] blob = Files.readAllBytes(w.getPath("/000001.Scan/Az"));
            Files.createDirectory(w.getPath("/000004.Scan"));
            Files.write(w.getPath("/000004.Scan/Az"), blob);
            assertThat(sh("ls", mp.toString()).ok().lines()).hasSize(4);
            Files.setAttribute(w.getPath("/000004.Scan"), "g3:commit", true);
            assertThat(FuseTestSupport.awaitListed(mp, "000004.Scan")).isLessThan(WITHIN);
            assertThat(sh("sha256sum", mp + "/000004.Scan/Az").ok().out()).startsWith(FuseTestSupport.sha256(blob));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void scdaSectionAppearsOnceCommitted(Engine engine) throws Exception {
        Path container = copy(new CorpusFormat.Scda(), "all_types.scda");
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, false);
                FileSystem w = writer(new ScdaFileSystemProvider(), container)) {
            assertThat(sh("ls", mp.toString()).ok().lines()).hasSize(3);
            long size = Files.size(container);
            SeekableByteChannel open = Files.newByteChannel(w.getPath("/0003.B.live"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            open.write(ByteBuffer.wrap("a block still being written\n".getBytes()));
            assertThat(Files.size(container)).as("the uncommitted section is in the file").isGreaterThan(size);
            assertThat(sh("ls", mp.toString()).ok().lines()).hasSize(3);
            open.close();
            assertThat(FuseTestSupport.awaitListed(mp, "0003.B.live")).isLessThan(WITHIN);
            assertThat(sh("cat", mp + "/0003.B.live").ok().out()).isEqualTo("a block still being written\n");
        }
    }
}
