package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.stream.Stream;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;
import org.cryptomator.jfuse.api.Errno;
import org.cryptomator.jfuse.api.Fuse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The exception-to-errno table, row by row, with the Linux values a shell reports. */
class ErrnoTableTest {
    private static final Errno LINUX = Fuse.builder().errno();

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of(new NoSuchFileException("/x"), 2, "ENOENT"),
                Arguments.of(new AccessDeniedException("/x", null, "existing records are never modified"), 13, "EACCES"),
                Arguments.of(new FileAlreadyExistsException("/x"), 17, "EEXIST"),
                Arguments.of(new NotDirectoryException("/x"), 20, "ENOTDIR"),
                Arguments.of(new FileSystemException("/x", null, "is a directory"), 21, "EISDIR"),
                Arguments.of(new NameTooLongException("/" + "x".repeat(256)), 36, "ENAMETOOLONG"),
                Arguments.of(new IllegalArgumentException("bad"), 22, "EINVAL"),
                Arguments.of(new ReadOnlyFileSystemException(), 30, "EROFS"),
                Arguments.of(new DirectoryNotEmptyException("/x"), 39, "ENOTEMPTY"),
                Arguments.of(new UnsupportedOperationException("no"), 95, "ENOTSUP"),
                Arguments.of(new ClosedChannelException(), 9, "EBADF"),
                Arguments.of(new NonWritableChannelException(), 9, "EBADF"),
                Arguments.of(new OutOfMemoryError(), 12, "ENOMEM"),
                Arguments.of(new TruncatedDataException("c.lime", 4000, "record 2", "4608 bytes", "the file ends at byte 4000"), 5, "EIO"),
                Arguments.of(new ContainerFormatException("c.lime", 0, null, "the LIME magic", "0x00000000"), 5, "EIO"),
                Arguments.of(new ClosedFileSystemException(), 5, "EIO"),
                Arguments.of(new IOException("disk"), 5, "EIO"),
                Arguments.of(new FileSystemException("/x", null, "something else"), 5, "EIO"),
                Arguments.of(new IllegalStateException("bug"), 5, "EIO"),
                Arguments.of(new UncheckedIOException(new NoSuchFileException("/x")), 2, "ENOENT (unwrapped)"));
    }

    @ParameterizedTest(name = "{2}: {0}")
    @MethodSource("rows")
    void mapsToTheErrnoAShellReports(Throwable failure, int linuxErrno, String name) {
        ErrnoTable table = new ErrnoTable(LINUX);
        assertThat(table.errnoOf(failure)).isEqualTo(linuxErrno);
        assertThat(table.negative(failure)).isEqualTo(-linuxErrno);
    }

    /** The low-level engine's table (Linux's values without jfuse) answers every row as jfuse's does. */
    @ParameterizedTest(name = "{2}: {0}")
    @MethodSource("rows")
    void theLowLevelEnginesTableIsLinuxs(Throwable failure, int linuxErrno, String name) {
        assertThat(ErrnoTable.linux().errnoOf(failure)).isEqualTo(linuxErrno);
    }
}
