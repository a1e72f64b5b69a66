package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.containerfs.fuse.FuseTestSupport.MountProcess;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only mount of a container that another writer appends to: a new ls shows every committed
 * record within a second, and a record still being written stays invisible.
 */
class LiveGrowthTest {
    private static final Duration WITHIN = Duration.ofSeconds(1);

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void newRecordsAppearOnANewLsWithinASecond(Engine engine, @TempDir Path dir) throws Exception {
        Path container = dir.resolve("live.lime");
        Files.copy(new CorpusFormat.Lime().containers().stream()
                .filter(p -> p.getFileName().toString().startsWith("s02_")).findFirst().orElseThrow(), container);
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(container, mp, "--engine=" + engine);
                FileSystem writer = ParallelReadersTest.lime().newFileSystem(container, Map.of("accessMode", "readWrite"))) {
            assertThat(sh("ls", mp.toString()).ok().lines()).containsExactly("msg01", "msg02", "msg03");

            Files.createDirectory(writer.getPath("/msg04"));
            try (OutputStream out = Files.newOutputStream(writer.getPath("/msg04/rec01.step-1"))) {
                out.write("frame 1\n".getBytes());
            }
            assertThat(FuseTestSupport.awaitListed(mp, "msg04")).isLessThan(WITHIN);
            assertThat(sh("ls", mp + "/msg04").ok().lines()).containsExactly("rec01.step-1");

            // A record being written (bytes streamed, header not yet committed) is not shown...
            SeekableByteChannel open = Files.newByteChannel(writer.getPath("/msg04/rec02.step-2"),
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            open.write(ByteBuffer.wrap("frame 2 of 16 b\n".getBytes()));
            assertThat(sh("ls", mp + "/msg04").ok().lines()).containsExactly("rec01.step-1");
            // ...and appears once committed, although the commit does not change the file size.
            open.close();
            assertThat(FuseTestSupport.awaitListed(mp.resolve("msg04"), "rec02.step-2")).isLessThan(WITHIN);
            assertThat(sh("cat", mp + "/msg04/rec02.step-2").ok().out()).isEqualTo("frame 2 of 16 b\n");
            assertThat(sh("cat", mp + "/msg04/rec01.step-1").ok().out()).isEqualTo("frame 1\n");
            assertThat(sh("ls", mp.toString()).ok().lines()).isEqualTo(List.of("msg01", "msg02", "msg03", "msg04"));
        }
    }
}
