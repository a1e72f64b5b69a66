package org.containerfs.gsd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.containerfs.spi.ContainerChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe the core calls before each listing of a live reader ({@link GsdIndex#changedOnDisk}): one
 * read of the next index slot once the header is known to be settled, the header too while bytes past
 * the committed end could still be a moved index or name list waiting for its header write.
 */
class GsdGrowthProbeTest {
    @TempDir
    Path tmp;

    private Path twoFrames() throws Exception {
        Path file = tmp.resolve("probe.gsd");
        try (FileSystem fs = GsdTestSupport.create(file, Map.of())) {
            for (int f = 0; f < 2; f++) {
                Files.createDirectory(fs.getPath("/" + f));
                GsdTestSupport.writeChunk(fs.getPath("/" + f + "/a"), "uint8", 1, new byte[] {(byte) f, 1, 2});
            }
        }
        return file;
    }

    private static int readsOfOneProbe(GsdIndex index, ContainerChannel channel, boolean expected) throws Exception {
        AtomicInteger reads = new AtomicInteger();
        channel.observeReads(end -> reads.incrementAndGet());
        assertThat(index.changedOnDisk(channel)).isEqualTo(expected);
        channel.observeReads(null);
        return reads.get();
    }

    @Test
    void aSettledHeaderIsNotReadAgainAndTheNextSlotStillTellsACommit() throws Exception {
        Path file = twoFrames();
        try (ContainerChannel channel = ContainerChannel.open(file, Set.of(StandardOpenOption.READ))) {
            GsdIndex index = new GsdIndex(file.toString());
            index.load(channel);
            assertThat(index.committedEnd()).isEqualTo(Files.size(file));
            assertThat(readsOfOneProbe(index, channel, false)).as("first probe: header and slot").isEqualTo(2);
            assertThat(readsOfOneProbe(index, channel, false)).as("settled: the slot only").isEqualTo(1);
            assertThat(readsOfOneProbe(index, channel, false)).isEqualTo(1);

            try (FileSystem fs = GsdTestSupport.openWrite(file, Map.of())) {
                Files.createDirectory(fs.getPath("/2"));
                GsdTestSupport.writeChunk(fs.getPath("/2/a"), "uint8", 1, new byte[] {9});
            }
            assertThat(readsOfOneProbe(index, channel, true)).as("a commit fills the next slot").isEqualTo(1);
            assertThat(index.refresh(channel)).isTrue();
            assertThat(index.frames()).isEqualTo(3);
            assertThat(readsOfOneProbe(index, channel, false)).as("a refresh unsettles the header").isEqualTo(2);
        }
    }

    @Test
    void bytesPastTheCommittedEndKeepTheHeaderCompared() throws Exception {
        Path file = twoFrames();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(new byte[64])); // e.g. a moved name list whose header write is still to come
        }
        try (ContainerChannel channel = ContainerChannel.open(file, Set.of(StandardOpenOption.READ))) {
            GsdIndex index = new GsdIndex(file.toString());
            index.load(channel);
            for (int i = 0; i < 3; i++) {
                assertThat(readsOfOneProbe(index, channel, false)).as("probe %d", i).isEqualTo(2);
            }
            byte[] header = new byte[GsdHeader.SIZE];
            ByteBuffer.wrap(header).put(Files.readAllBytes(file), 0, GsdHeader.SIZE);
            header[GsdHeader.SIZE - 1] ^= 1; // a header write without growth, as the move's last step
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(header), 0);
            }
            assertThat(readsOfOneProbe(index, channel, true)).isEqualTo(1);
        }
    }
}
