package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.containerfs.spi.TruncatedDataException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The read channels and streams of the core, held to the FileChannel contract. */
class ReadChannelTest {
    private static final String BIG = "/msg01/rec02.big-binary";
    private static FileSystem fs;
    private static FileSystem truncated;
    private static byte[] big;

    @BeforeAll
    static void open() throws IOException {
        fs = TestContainers.openReadOnly(TestContainers.corpus("s13_large_record.lime"));
        truncated = TestContainers.openReadOnly(TestContainers.corpus("s10_truncated_in_payload.lime"));
        big = Files.readAllBytes(fs.getPath(BIG));
    }

    @AfterAll
    static void close() throws IOException {
        fs.close();
        truncated.close();
    }

    @Test
    void theWholeRecordMatchesTheManifest() throws IOException {
        assertThat(big).hasSize(70001);
        assertThat(TestContainers.sha256(big))
                .isEqualTo("91c3d48fb9524ad589134dd334f9d22479b36a74c59f33237d115a5d38d3279f");
    }

    @Test
    void sequentialReadsAdvanceThePositionAndEndWithMinusOne() throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath(BIG))) {
            assertThat(ch).isInstanceOf(FileChannel.class);
            assertThat(ch.size()).isEqualTo(70001);
            ByteBuffer buf = ByteBuffer.allocate(30000);
            assertThat(ch.read(buf)).isEqualTo(30000);
            assertThat(ch.position()).isEqualTo(30000);
            assertThat(buf.array()).isEqualTo(Arrays.copyOf(big, 30000));
            assertThat(ch.read(ByteBuffer.allocate(0))).isZero();
            ch.position(70000);
            ByteBuffer last = ByteBuffer.allocate(10);
            assertThat(ch.read(last)).isEqualTo(1);
            assertThat(last.get(0)).isEqualTo(big[70000]);
            assertThat(ch.read(last.clear())).isEqualTo(-1);
            ch.position(1_000_000); // past the end is allowed; reads then find end of file
            assertThat(ch.read(last.clear())).isEqualTo(-1);
            assertThat(ch.position()).isEqualTo(1_000_000);
            assertThatThrownBy(() -> ch.position(-1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void positionalReadsLeaveThePositionAlone() throws IOException {
        try (FileChannel ch = FileChannel.open(fs.getPath(BIG), StandardOpenOption.READ)) {
            ch.position(5);
            ByteBuffer buf = ByteBuffer.allocate(100);
            assertThat(ch.read(buf, 69950)).isEqualTo(51);
            assertThat(Arrays.copyOf(buf.array(), 51)).isEqualTo(Arrays.copyOfRange(big, 69950, 70001));
            assertThat(ch.position()).isEqualTo(5);
            assertThat(ch.read(buf.clear(), 70001)).isEqualTo(-1);
            assertThat(ch.read(buf.clear(), Long.MAX_VALUE / 2)).isEqualTo(-1);
            assertThatThrownBy(() -> ch.read(ByteBuffer.allocate(1), -1)).isInstanceOf(IllegalArgumentException.class);
            // a direct buffer and a slice with a non-zero position
            ByteBuffer direct = ByteBuffer.allocateDirect(64);
            direct.position(10);
            assertThat(ch.read(direct, 1000)).isEqualTo(54);
            byte[] got = new byte[54];
            direct.position(10);
            direct.get(got);
            assertThat(got).isEqualTo(Arrays.copyOfRange(big, 1000, 1054));
        }
    }

    @Test
    void scatteringReadsFillBuffersInOrder() throws IOException {
        try (FileChannel ch = FileChannel.open(fs.getPath(BIG))) {
            ch.position(69990);
            ByteBuffer[] bufs = {ByteBuffer.allocate(4), ByteBuffer.allocate(0), ByteBuffer.allocate(5),
                ByteBuffer.allocate(8)};
            assertThat(ch.read(bufs)).isEqualTo(11);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (ByteBuffer b : bufs) {
                out.write(b.array(), 0, b.position());
            }
            assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(big, 69990, 70001));
            assertThat(ch.read(bufs)).isEqualTo(-1);
        }
    }

    @Test
    void transferToCopiesTheRequestedRange() throws IOException {
        try (FileChannel ch = FileChannel.open(fs.getPath(BIG))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            WritableByteChannel target = Channels.newChannel(out);
            long done = 0;
            while (done < 50000) {
                done += ch.transferTo(20001 + done, 50000 - done, target);
            }
            assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(big, 20001, 70001));
            assertThat(ch.transferTo(70001, 10, target)).isZero();
            assertThat(ch.transferTo(69999, 100, target)).isEqualTo(2);
        }
    }

    @Test
    void readChannelsRefuseEveryWrite() throws IOException {
        try (FileChannel ch = FileChannel.open(fs.getPath(BIG))) {
            assertThatThrownBy(() -> ch.write(ByteBuffer.allocate(1))).isInstanceOf(NonWritableChannelException.class);
            assertThatThrownBy(() -> ch.write(ByteBuffer.allocate(1), 0)).isInstanceOf(NonWritableChannelException.class);
            assertThatThrownBy(() -> ch.truncate(0)).isInstanceOf(NonWritableChannelException.class);
            assertThatThrownBy(() -> ch.transferFrom(Channels.newChannel(InputStream.nullInputStream()), 0, 1))
                    .isInstanceOf(NonWritableChannelException.class);
            assertThatThrownBy(() -> ch.map(FileChannel.MapMode.READ_ONLY, 0, 10))
                    .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("positional reads");
            assertThatThrownBy(() -> ch.lock()).isInstanceOf(NonWritableChannelException.class);
            try (FileLock shared = ch.lock(0, Long.MAX_VALUE, true)) {
                assertThat(shared.isShared()).isTrue();
                assertThat(shared.isValid()).isTrue();
            }
            ch.force(true);
        }
    }

    @Test
    void inputStreamsSkipAndRead() throws IOException {
        try (InputStream in = Files.newInputStream(fs.getPath(BIG))) {
            assertThat(in.skip(70000)).isEqualTo(70000);
            assertThat(in.read()).isEqualTo(big[70000] & 0xFF);
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThatThrownBy(() -> Files.newInputStream(fs.getPath(BIG), StandardOpenOption.WRITE))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> Files.newByteChannel(fs.getPath("/msg01")))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("directory");
        assertThat(Files.readString(fs.getPath("/msg01/rec01.small-before"))).hasSize(1);
    }

    @Test
    void aTruncatedRecordReadsItsPresentBytesAndThenFailsNamingRecordAndOffset() throws IOException {
        Path record = truncated.getPath("/msg01/rec02.scidac-binary-data");
        assertThat(Files.size(record)).as("listed with its declared size").isEqualTo(4608);
        try (FileChannel ch = FileChannel.open(record)) {
            ByteBuffer present = ByteBuffer.allocate(2608);
            assertThat(ch.read(present, 0)).isEqualTo(2608);
            assertThatThrownBy(() -> ch.read(ByteBuffer.allocate(100), 2600))
                    .isInstanceOf(TruncatedDataException.class)
                    .hasMessageContaining("rec02.scidac-binary-data")
                    .hasMessageContaining("4608");
            assertThatThrownBy(() -> ch.read(ByteBuffer.allocate(1), 4607)).isInstanceOf(TruncatedDataException.class);
            assertThat(ch.read(ByteBuffer.allocate(1), 4608)).isEqualTo(-1);
            assertThatThrownBy(() -> ch.transferTo(0, 4608, Channels.newChannel(new ByteArrayOutputStream())))
                    .isInstanceOf(TruncatedDataException.class);
        }
        assertThatThrownBy(() -> Files.readAllBytes(record)).isInstanceOf(TruncatedDataException.class);
        try (InputStream in = Files.newInputStream(record)) {
            assertThatThrownBy(in::readAllBytes).isInstanceOf(TruncatedDataException.class);
        }
        assertThat(Files.readAttributes(record, "lime:truncated")).containsEntry("truncated", true);
    }
}
