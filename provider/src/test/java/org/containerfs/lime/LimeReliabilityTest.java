package org.containerfs.lime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.spi.UnsupportedVersionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hostile headers and resources released by close. Readers racing an appender: {@link
 * org.containerfs.ConcurrentAppendTest} (every appendable format).
 */
class LimeReliabilityTest {
    @TempDir
    Path tmp;

    @Test
    void closingTheFileSystemClosesItsChannelsAndReleasesTheWriterLock() throws Exception {
        Path file = tmp.resolve("close.lime");
        SeekableByteChannel reading;
        SeekableByteChannel writing;
        FileSystem fs = ContainerFileSystems.create(file, "lime");
        Files.createDirectory(fs.getPath("/msg01"));
        Files.write(fs.getPath("/msg01/rec01.a"), new byte[] {1, 2, 3});
        reading = Files.newByteChannel(fs.getPath("/msg01/rec01.a"));
        writing = Files.newByteChannel(fs.getPath("/msg01/rec02.b"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        writing.write(ByteBuffer.wrap(new byte[] {4, 5}));
        fs.close();
        assertThat(reading.isOpen()).isFalse();
        assertThat(writing.isOpen()).isFalse();
        assertThatThrownBy(() -> reading.read(ByteBuffer.allocate(1))).isInstanceOf(ClosedChannelException.class);
        // The open record was committed by the close, and the lock is free again.
        try (FileSystem again = ContainerFileSystems.create(file, "lime")) {
            assertThat(Files.readAllBytes(again.getPath("/msg01/rec02.b"))).containsExactly(4, 5);
        }
    }

    @Test
    void tenThousandOpenCloseCyclesLeakNoFileDescriptors() throws Exception {
        Path fdDir = Path.of("/proc/self/fd");
        Path file = LimeCorpusTest.corpus().resolve("s08_ildg_scidac_gauge.lime");
        for (int i = 0; i < 200; i++) { // warm up class loading and lazily opened JDK descriptors
            try (FileSystem fs = ContainerFileSystems.open(file)) {
                Files.readAllBytes(fs.getPath("/msg02/rec04.ildg-binary-data"));
            }
        }
        long before;
        try (var fds = Files.list(fdDir)) {
            before = fds.count();
        }
        for (int i = 0; i < 10_000; i++) {
            try (FileSystem fs = ContainerFileSystems.open(file)) {
                if (i % 10 == 0) {
                    Files.newByteChannel(fs.getPath("/msg02/rec04.ildg-binary-data")); // left open: close() must close it
                }
            }
        }
        long after;
        try (var fds = Files.list(fdDir)) {
            after = fds.count();
        }
        assertThat(after).isLessThanOrEqualTo(before + 2);
    }

    /** A header with the given version and data length, then {@code present} payload bytes. */
    static byte[] hostile(int version, long length, int present) {
        ByteBuffer b = ByteBuffer.allocate(144 + present);
        b.putInt(0x456789AB).putShort((short) version).put((byte) 0xC0).put((byte) 0).putLong(length)
                .put("hostile".getBytes());
        return b.array();
    }

    @ParameterizedTest(name = "version {0}, length {1}")
    @CsvSource({
        "1, 4611686018427387904, 16", // 2^62: listed with its declared size, reads fail at the file's end
        "1, 9223372036854775807, 0",  // 2^63-1
        "1, 200, 8",
    })
    void hugeLengthsAreListedButNeverAllocatedOrRead(int version, long length, int present) throws Exception {
        Path file = tmp.resolve("huge.lime");
        Files.write(file, hostile(version, length, present));
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            Path rec = fs.getPath("/msg01/rec01.hostile");
            assertThat(Files.size(rec)).isEqualTo(length);
            assertThat(Files.getAttribute(rec, "lime:truncated")).isEqualTo(true);
            try (var in = Files.newInputStream(rec)) {
                // (InputStream.readAllBytes would refuse by itself: the JDK checks the channel's declared size)
                byte[] buf = new byte[8192];
                assertThatThrownBy(() -> {
                    while (in.read(buf) >= 0) {
                        // read until the file's real end
                    }
                }).isInstanceOf(TruncatedDataException.class);
            }
            try (SeekableByteChannel ch = Files.newByteChannel(rec)) {
                ByteBuffer buf = ByteBuffer.allocate(present + 1);
                assertThatThrownBy(() -> ch.read(buf)).isInstanceOf(TruncatedDataException.class)
                        .hasMessageContaining(file.toString()).hasMessageContaining("byte " + (144 + present));
            }
        }
        assertThatThrownBy(() -> ContainerFileSystems.open(file, Map.of("strict", true)))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("at byte 8");
    }

    @Test
    void aNegativeLengthOrAnotherVersionIsATypedError() throws Exception {
        Path negative = tmp.resolve("negative.lime");
        Files.write(negative, hostile(1, -5, 0));
        assertThatThrownBy(() -> ContainerFileSystems.open(negative))
                .isInstanceOf(ContainerFormatException.class)
                .hasMessageContaining(negative.toString()).hasMessageContaining("at byte 8")
                .hasMessageContaining("18446744073709551611");
        Path version2 = tmp.resolve("v2.lime");
        Files.write(version2, hostile(2, 0, 0));
        assertThatThrownBy(() -> ContainerFileSystems.open(version2))
                .isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("at byte 4").hasMessageContaining("version 1");
    }
}
