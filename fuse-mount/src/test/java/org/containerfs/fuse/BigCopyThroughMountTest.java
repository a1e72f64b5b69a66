package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cp} of a 4 GiB + 1 byte file into a --rw mount: the kernel's write requests reach offsets past
 * 2^32, the staged file is committed as one unit (a LIME record, a GSD chunk, a scda B section, a G3 value), and
 * {@code cmp} through the mount reads it back. (A SIONlib file is written whole at its creation and cannot be
 * mounted for writing: its 4 GiB + 1 task goes through the API and {@code put}, in BigUnitTest and BigPutTest.)
 * The source is sparse: its only data are markers across the 2^31 and 2^32 boundaries, the last one ending
 * at its last byte, so an offset that wraps or a lost last byte shows as a marker in the wrong place.
 */
class BigCopyThroughMountTest {
    private static final long SIZE = (1L << 32) + 1;
    /** Each marker is its offset as text; the last, cut short by the end, covers 2^32 and the last byte. */
    private static final long[] MARKERS = {0, (1L << 31) - 3, (1L << 32) - 5};

    @TempDir
    Path dir;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    private static byte[] marker(long at) {
        byte[] text = ("@" + at).getBytes(StandardCharsets.US_ASCII);
        return java.util.Arrays.copyOf(text, (int) Math.min(text.length, SIZE - at));
    }

    /**
     * Every format through the high-level engine; the low-level engine with LIME only (each case writes 4 GiB
     * twice, minutes on a loaded machine; the engine's write path is the same for every format).
     */
    @ParameterizedTest(name = "{0} {1} {3}")
    @CsvSource({"highlevel, lime, /msg01, /msg01/rec01.big", "highlevel, gsd, /0, /0/big",
        "highlevel, scda, '', /0000.B.big", "highlevel, g3, /000000.Scan, /000000.Scan/big",
        "lowlevel, lime, /msg01, /msg01/rec01.big"})
    void aUnitOf4GibPlusOneByteCopiedIntoTheMountReadsBackExactly(MountCommand.Engine engine, String format,
            String directory, String unitPath) throws Exception {
        Path source = dir.resolve("source.bin");
        try (FileChannel out = FileChannel.open(source, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.SPARSE)) {
            for (long at : MARKERS) {
                out.write(ByteBuffer.wrap(marker(at)), at);
            }
        }
        Path container = dir.resolve("big." + format);
        ContainerFileSystems.create(container, format).close();
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        Path unit = Path.of(mp + unitPath);
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
            if (!directory.isEmpty()) {
                sh("mkdir", mp + directory).ok();
            }
            // The commit at close writes 4 GiB: more than sh's minute on a slow disk. --sparse=never: the mount
            // takes a new file's bytes in order, and cp would otherwise seek over the source's holes.
            FuseTestSupport.run(Duration.ofMinutes(4),
                    List.of("cp", "--sparse=never", source.toString(), unit.toString())).ok();
            assertThat(sh("stat", "-c", "%s", unit.toString()).ok().out().trim()).isEqualTo(String.valueOf(SIZE));
            FuseTestSupport.run(Duration.ofMinutes(4), List.of("cmp", source.toString(), unit.toString())).ok();
        }
        try (FileSystem fs = ContainerFileSystems.open(container, Map.of("strict", true));
                SeekableByteChannel read = Files.newByteChannel(fs.getPath(unitPath))) {
            assertThat(read.size()).isEqualTo(SIZE);
            for (long at : MARKERS) {
                byte[] expected = marker(at);
                ByteBuffer got = ByteBuffer.allocate(expected.length);
                read.position(at).read(got);
                assertThat(got.array()).as("marker at %d", at).isEqualTo(expected);
            }
        }
        Files.delete(container);
        Files.delete(source);
    }
}
