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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cp} of a 4 GiB + 1 byte file into a --rw mount: the kernel's write requests reach offsets past
 * 2^32, the staged file is committed as one LIME record, and {@code cmp} through the mount reads it back.
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

    @Test
    void aLimeRecordOf4GibPlusOneByteCopiedIntoTheMountReadsBackExactly() throws Exception {
        Path source = dir.resolve("source.bin");
        try (FileChannel out = FileChannel.open(source, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.SPARSE)) {
            for (long at : MARKERS) {
                out.write(ByteBuffer.wrap(marker(at)), at);
            }
        }
        Path container = dir.resolve("big.lime");
        ContainerFileSystems.create(container, "lime").close();
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(container, mp, true)) {
            sh("mkdir", mp + "/msg01").ok();
            // The commit at close writes 4 GiB: more than sh's minute on a slow disk. --sparse=never: the mount
            // takes a new file's bytes in order, and cp would otherwise seek over the source's holes.
            FuseTestSupport.run(Duration.ofMinutes(4),
                    List.of("cp", "--sparse=never", source.toString(), mp + "/msg01/rec01.big")).ok();
            assertThat(sh("stat", "-c", "%s", mp + "/msg01/rec01.big").ok().out().trim()).isEqualTo(String.valueOf(SIZE));
            FuseTestSupport.run(Duration.ofMinutes(4), List.of("cmp", source.toString(), mp + "/msg01/rec01.big")).ok();
        }
        try (FileSystem fs = ContainerFileSystems.open(container, Map.of("strict", true));
                SeekableByteChannel unit = Files.newByteChannel(fs.getPath("/msg01/rec01.big"))) {
            assertThat(unit.size()).isEqualTo(SIZE);
            for (long at : MARKERS) {
                byte[] expected = marker(at);
                ByteBuffer got = ByteBuffer.allocate(expected.length);
                unit.position(at).read(got);
                assertThat(got.array()).as("marker at %d", at).isEqualTo(expected);
            }
        }
        Files.delete(container);
        Files.delete(source);
    }
}
