package org.containerfs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ready-made Content kinds, ContainerChannel and FormatOptions, on a jimfs file. */
class ContentTest {
    private FileSystem memory;
    private Path file;
    private byte[] bytes;

    @BeforeEach
    void writeFile() throws IOException {
        memory = Jimfs.newFileSystem(Configuration.unix());
        file = memory.getPath("/c.bin");
        bytes = new byte[100];
        new Random(1).nextBytes(bytes);
        Files.write(file, bytes);
    }

    @AfterEach
    void close() throws IOException {
        memory.close();
    }

    private static byte[] readAll(Content content, int bufferSize) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(bufferSize);
        long position = 0;
        int n;
        while ((n = content.read(buf.clear(), position)) >= 0) {
            out.write(buf.array(), 0, n);
            position += n;
        }
        return out.toByteArray();
    }

    @Test
    void byteRangeContentReadsItsRangeOnly() throws IOException {
        try (ContainerChannel channel = ContainerChannel.open(file, EnumSet.of(StandardOpenOption.READ))) {
            ByteRangeContent range = new ByteRangeContent(channel, 10, 50, "test range");
            assertThat(range.size()).isEqualTo(50);
            assertThat(range.offset()).isEqualTo(10);
            assertThat(readAll(range, 7)).isEqualTo(Arrays.copyOfRange(bytes, 10, 60));
            assertThat(range.read(ByteBuffer.allocate(4), 50)).isEqualTo(-1);
            assertThat(range.read(ByteBuffer.allocate(0), 3)).isZero();
            ByteBuffer tail = ByteBuffer.allocate(20);
            assertThat(range.read(tail, 45)).isEqualTo(5);
            assertThat(Arrays.copyOf(tail.array(), 5)).isEqualTo(Arrays.copyOfRange(bytes, 55, 60));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long n = range.transferTo(5, 1000, Channels.newChannel(out));
            assertThat(n).isEqualTo(45);
            assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(bytes, 15, 60));
            assertThat(new ByteRangeContent(channel, 100, 0, "empty at the end").read(ByteBuffer.allocate(1), 0))
                    .isEqualTo(-1);
        }
    }

    @Test
    void aRangeBeyondTheFileFailsWithItsFileOffsetAndLabel() throws IOException {
        try (ContainerChannel channel = ContainerChannel.open(file, EnumSet.of(StandardOpenOption.READ))) {
            ByteRangeContent range = new ByteRangeContent(channel, 40, 100, "record 7");
            ByteBuffer buf = ByteBuffer.allocate(100);
            assertThatThrownBy(() -> range.read(buf, 0))
                    .isInstanceOf(TruncatedDataException.class)
                    .hasMessageContaining("/c.bin").hasMessageContaining("at byte 100")
                    .hasMessageEndingWith("c.bin at byte 100: record 7: expected the 100 bytes it declares from byte 40, "
                            + "found the file ends at byte 100")
                    .satisfies(e -> assertThat(((TruncatedDataException) e).offset()).isEqualTo(100));
            // what is there reads normally
            assertThat(range.read(ByteBuffer.allocate(60), 0)).isEqualTo(60);
            // a read that starts past the end names the byte it asked for, and where the file really ends
            assertThatThrownBy(() -> range.read(ByteBuffer.allocate(1), 75))
                    .isInstanceOf(TruncatedDataException.class)
                    .hasMessageContaining("at byte 115").hasMessageContaining("ends at byte 100");
            assertThatThrownBy(() -> range.transferTo(0, 100, Channels.newChannel(new ByteArrayOutputStream())))
                    .isInstanceOf(TruncatedDataException.class).hasMessageContaining("ends at byte 100");
            assertThatThrownBy(() -> range.transferTo(80, 10, Channels.newChannel(new ByteArrayOutputStream())))
                    .isInstanceOf(TruncatedDataException.class).hasMessageContaining("ends at byte 100")
                    .satisfies(e -> assertThat(((TruncatedDataException) e).offset()).isEqualTo(120));
        }
    }

    @Test
    void concatenatedContentReadsAcrossPartsIncludingEmptyOnes() throws IOException {
        try (ContainerChannel channel = ContainerChannel.open(file, EnumSet.of(StandardOpenOption.READ))) {
            List<Content> parts = List.of(
                    new BytesContent(new byte[0]),
                    new ByteRangeContent(channel, 90, 10, "a"),
                    new BytesContent(new byte[0]),
                    new BytesContent(new byte[0]),
                    new ByteRangeContent(channel, 0, 3, "b"),
                    new BytesContent("xyz".getBytes()),
                    new ByteRangeContent(channel, 50, 0, "c"),
                    new ByteRangeContent(channel, 20, 30, "d"),
                    new BytesContent(new byte[0]));
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.write(bytes, 90, 10);
            expected.write(bytes, 0, 3);
            expected.write("xyz".getBytes());
            expected.write(bytes, 20, 30);
            byte[] all = expected.toByteArray();
            ConcatenatedContent content = new ConcatenatedContent(parts);
            assertThat(content.size()).isEqualTo(all.length);
            for (int bufferSize : new int[] {1, 2, 5, 13, 46, 100}) {
                assertThat(readAll(content, bufferSize)).as("buffer %d", bufferSize).isEqualTo(all);
            }
            Random random = new Random(3);
            for (int i = 0; i < 500; i++) {
                int position = random.nextInt(all.length + 3);
                ByteBuffer buf = ByteBuffer.allocate(1 + random.nextInt(30));
                int n = content.read(buf, position);
                if (position >= all.length) {
                    assertThat(n).isEqualTo(-1);
                    continue;
                }
                assertThat(n).as("a read fills the buffer while there are bytes")
                        .isEqualTo(Math.min(buf.capacity(), all.length - position));
                assertThat(Arrays.copyOf(buf.array(), n)).isEqualTo(Arrays.copyOfRange(all, position, position + n));
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertThat(content.transferTo(4, 1000, Channels.newChannel(out))).isEqualTo(all.length - 4);
            assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(all, 4, all.length));
            assertThat(new ConcatenatedContent(new ArrayList<Content>()).read(ByteBuffer.allocate(1), 0)).isEqualTo(-1);
        }
    }

    @Test
    void containerChannelReadsWritesAndNamesItsFileInErrors() throws IOException {
        try (ContainerChannel channel = ContainerChannel.open(file,
                EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE))) {
            assertThat(channel.name()).isEqualTo("/c.bin");
            assertThat(channel.size()).isEqualTo(100);
            assertThat(channel.supportsLocking()).isTrue();
            ByteBuffer buf = ByteBuffer.allocate(10);
            assertThat(channel.readFully(buf, 90)).isEqualTo(10);
            assertThatThrownBy(() -> channel.readFully(ByteBuffer.allocate(10), 95))
                    .isInstanceOf(EOFException.class).hasMessageContaining("/c.bin").hasMessageContaining("byte 100");
            assertThat(channel.readUpTo(ByteBuffer.allocate(10), 95)).isEqualTo(5);
            assertThat(channel.readUpTo(ByteBuffer.allocate(10), 200)).isZero();
            channel.writeFully(ByteBuffer.wrap(new byte[] {1, 2, 3}), 100);
            assertThat(channel.size()).isEqualTo(103);
            channel.truncate(101);
            channel.force(false);
            assertThat(Files.readAllBytes(file)).hasSize(101).endsWith(1);
        }
    }

    /**
     * On a file system with real locks the writer's lock is exclusive: while held, a second channel
     * on the file cannot take it (in one JVM the JDK says so by OverlappingFileLockException, which the
     * core reports as another writer); once released, it can. (jimfs grants every lock: the core's
     * JVM-wide writer registry covers it, tested in the core.)
     */
    @Test
    void theWritersLockShutsOutASecondChannelUntilReleased(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path onDisk = Files.write(dir.resolve("c.bin"), new byte[8]);
        java.util.Set<StandardOpenOption> rw = EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE);
        try (ContainerChannel first = ContainerChannel.open(onDisk, rw);
                ContainerChannel second = ContainerChannel.open(onDisk, rw)) {
            java.nio.channels.FileLock lock = first.tryLock();
            assertThat(lock.isShared()).isFalse();
            assertThatThrownBy(second::tryLock).isInstanceOf(java.nio.channels.OverlappingFileLockException.class);
            lock.release();
            java.nio.channels.FileLock next = second.tryLock();
            assertThat(next.isValid()).isTrue();
            next.release();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void formatOptionsParseTypedAndStringValues() {
        Map<String, Object> env = new HashMap<>();
        env.put("a", true);
        env.put("b", " FALSE ");
        env.put("n", 12);
        env.put("s", "34");
        env.put("bad", "maybe");
        env.put("badNumber", "12x");
        FormatOptions options = new FormatOptions(env);
        env.put("later", "ignored"); // the options are a snapshot
        assertThat(options.has("later")).isFalse();
        assertThat(options.getBoolean("a", false)).isTrue();
        assertThat(options.getBoolean("b", true)).isFalse();
        assertThat(options.getBoolean("missing", true)).isTrue();
        assertThat(options.getLong("n", 0)).isEqualTo(12);
        assertThat(options.getLong("s", 0)).isEqualTo(34);
        assertThat(options.getLong("missing", 7)).isEqualTo(7);
        assertThat(options.getString("n", null)).isEqualTo("12");
        assertThat(options.getString("missing", "d")).isEqualTo("d");
        assertThatThrownBy(() -> options.getBoolean("bad", false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad").hasMessageContaining("maybe");
        assertThatThrownBy(() -> options.getLong("badNumber", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("badNumber").hasMessageContaining("12x");
        assertThatThrownBy(() -> ((Map<String, Object>) (Map<?, ?>) options.asMap()).put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(new FormatOptions(null).asMap()).isEmpty();
    }

    @Test
    void formatExceptionsNameFileOffsetAndExpectation() {
        ContainerFormatException e = new UnsupportedVersionException("/data/x.lime", 148, "record 2", "LIME version 1", "2");
        assertThat(e).hasMessage("/data/x.lime at byte 148: record 2: expected LIME version 1, found 2")
                .isInstanceOf(IOException.class);
        assertThat(e.file()).isEqualTo("/data/x.lime");
        assertThat(e.offset()).isEqualTo(148);
        assertThat(new ChecksumMismatchException("f", 0, null, "the stored CRC 0x1", "the computed 0x2"))
                .isInstanceOf(ContainerFormatException.class);
    }
}
