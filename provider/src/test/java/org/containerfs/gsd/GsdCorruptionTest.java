package org.containerfs.gsd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.containerfs.gsd.GsdTestSupport.create;
import static org.containerfs.gsd.GsdTestSupport.openRead;
import static org.containerfs.gsd.GsdTestSupport.writeChunk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.spi.UnsupportedVersionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged headers and index entries give a ContainerFormatException naming the file, the offset and the rule. */
class GsdCorruptionTest {
    private static final long ENTRY0 = 256;
    private static final long ENTRY1 = 256 + 32;

    @TempDir
    Path tmp;
    Path file;

    /** Two frames, one chunk each: entry 0 (frame 0) and entry 1 (frame 1). */
    @BeforeEach
    void writeGoodFile() throws IOException {
        file = tmp.resolve("good.gsd");
        Files.deleteIfExists(file);
        try (FileSystem fs = create(file, Map.of())) {
            Files.createDirectory(fs.getPath("/0"));
            writeChunk(fs.getPath("/0/a"), "int32", 2, new byte[16]);
            Files.createDirectory(fs.getPath("/1"));
            writeChunk(fs.getPath("/1/a"), "int32", 2, new byte[8]);
        }
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:chunks")).isEqualTo(2);
        }
    }

    private void patch(long at, ByteBuffer bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(bytes, at);
        }
    }

    private void patchLong(long at, long v) throws IOException {
        patch(at, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v));
    }

    private void patchByte(long at, int v) throws IOException {
        patch(at, ByteBuffer.wrap(new byte[] {(byte) v}));
    }

    private ContainerFormatException openFails() {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> openRead(file).close());
        assertThat(t).isInstanceOf(ContainerFormatException.class).hasMessageContaining(file.toString());
        return (ContainerFormatException) t;
    }

    @Test
    void unknownTypeNamesTheEntryAndItsOffset() throws IOException {
        patchByte(ENTRY1 + 30, 37);
        ContainerFormatException e = openFails();
        assertThat(e.offset()).isEqualTo(ENTRY1 + 30);
        assertThat(e).hasMessageContaining("index entry 1").hasMessageContaining("known type id").hasMessageContaining("37");
    }

    @Test
    void dataOutsideTheFileIsReported() throws IOException {
        patchLong(ENTRY0 + 8, 1L << 40); // N
        ContainerFormatException e = openFails();
        assertThat(e.offset()).isEqualTo(ENTRY0 + 16);
        assertThat(e).hasMessageContaining("index entry 0").hasMessageContaining("inside the file");
    }

    @Test
    void hugeUnsignedCountIsDataOutsideTheFileNotAnOverflow() throws IOException {
        patchLong(ENTRY0 + 8, -1L);
        assertThat(openFails()).hasMessageContaining("18446744073709551615");
    }

    @Test
    void frameGoingBackwardsIsReported() throws IOException {
        patchLong(ENTRY0, 1);
        patchLong(ENTRY1, 0);
        ContainerFormatException e = openFails();
        assertThat(e.offset()).isEqualTo(ENTRY1);
        assertThat(e).hasMessageContaining("index entry 1").hasMessageContaining("never decrease");
    }

    @Test
    void nonZeroFlagsAreReported() throws IOException {
        patchByte(ENTRY0 + 31, 1);
        ContainerFormatException e = openFails();
        assertThat(e.offset()).isEqualTo(ENTRY0 + 31);
        assertThat(e).hasMessageContaining("flags 0");
    }

    @Test
    void nameIdBeyondTheNameListIsReported() throws IOException {
        patch(ENTRY1 + 28, ByteBuffer.wrap(new byte[] {9, 0}));
        assertThat(openFails()).hasMessageContaining("name id").hasMessageContaining("found 9");
    }

    @Test
    void absurdFrameNumberIsRejectedBeforeAnyAllocation() throws IOException {
        patchLong(ENTRY1, 1L << 50);
        assertThat(openFails()).hasMessageContaining("frame number below the index size");
    }

    @Test
    void versionThreeAndUnknownOldVersionsAreUnsupported() throws IOException {
        patch(44, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 3 << 16));
        assertThat(openFails()).isInstanceOf(UnsupportedVersionException.class).hasMessageContaining("found 3.0");
        patch(44, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 5));
        assertThat(openFails()).isInstanceOf(UnsupportedVersionException.class).hasMessageContaining("found 0.5");
    }

    @Test
    void hostileIndexAndNameListSizesFailBeforeAllocating() throws IOException {
        patchLong(16, 1L << 58); // index_allocated_entries
        assertThat(openFails().offset()).isEqualTo(8);
        writeGoodFile();
        patchLong(32, Long.MAX_VALUE); // namelist_allocated_entries
        assertThat(openFails().offset()).isEqualTo(24);
        writeGoodFile();
        patchLong(8, 1L << 62); // index_location
        assertThat(openFails().offset()).isEqualTo(8);
    }

    @Test
    void nameListWithoutItsFinalNulIsCorruptAsGsdSays() throws IOException {
        patchByte(4352 + 1023, 'x');
        assertThat(openFails()).hasMessageContaining("last byte of the name list");
    }

    @Test
    void wrongMagicAndShortFilesAreNotGsd() throws IOException {
        Path shortFile = tmp.resolve("short.gsd");
        Files.write(shortFile, ByteBuffer.allocate(100).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 0x65DF65DF65DF65DFL).array());
        assertThatThrownBy(() -> openRead(shortFile).close()).isInstanceOf(ContainerFormatException.class)
                .hasMessageContaining("256-byte GSD header");
        Path noMagic = tmp.resolve("nomagic.gsd");
        Files.write(noMagic, new byte[6000]);
        assertThatThrownBy(() -> GsdTestSupport.open(noMagic, Map.of("format", "gsd")).close())
                .isInstanceOf(ContainerFormatException.class);
    }

    @Test
    void truncatedChunkDataIsCaughtAtOpen() throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 4);
        }
        assertThat(openFails()).hasMessageContaining("index entry 1").hasMessageContaining("inside the file");
    }

    @Test
    void indexCutShortByTheFileEndIsTruncatedData() throws IOException {
        // point the index at the end, so its 128 slots run past the file
        long size = Files.size(file);
        patchLong(8, size - 64);
        patchLong(16, 2);
        try (FileSystem fs = openRead(file)) {
            // 2 slots of zeros at the tail end: an empty index is fine
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:frames")).isEqualTo(0);
        } catch (TruncatedDataException unexpected) {
            throw unexpected;
        }
        patchLong(16, 3);
        assertThat(openFails().offset()).isEqualTo(8);
    }
}
