package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessMode;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a closed file system still does and what it refuses. As with zipfs, {@code getPath} and the
 * purely syntactic path operations (resolve, normalize, toUri...) keep working on a closed file
 * system (jimfs 1.3 refuses even getPath); everything that touches the container throws
 * {@link ClosedFileSystemException}, including {@code getRootDirectories()} and {@code getFileStores()}
 * (as jimfs does; zipfs still answers those two). Channels and streams open at close time are
 * closed with it.
 */
class ClosedFileSystemTest {
    private static final String RECORD = "/msg01/rec01.lime-test-text1";

    @TempDir
    Path dir;

    @Test
    void pathAlgebraStillWorksButEveryAccessThrows() throws IOException {
        Path container = TestContainers.copyCorpus("s02_lime_writer_test1.lime", dir.resolve("c.lime"));
        FileSystem fs = TestContainers.openReadOnly(container);
        Path record = fs.getPath(RECORD);
        Path root = fs.getPath("/");
        BasicFileAttributeView view = Files.getFileAttributeView(record, BasicFileAttributeView.class);
        var uri = record.toUri();
        fs.close();

        assertThat(fs.isOpen()).isFalse();
        assertThatCode(fs::close).as("closing twice is harmless").doesNotThrowAnyException();
        // zipfs semantics: paths can still be made and combined
        Path made = fs.getPath("/msg02", "rec01.lime-test-text1");
        assertThat(made.getParent().resolve("x").normalize().toString()).isEqualTo("/msg02/x");
        assertThat(made.toUri().toString()).endsWith("!/msg02/rec01.lime-test-text1");
        assertThat(fs.getPathMatcher("glob:*.x").matches(fs.getPath("a.x"))).isTrue();
        assertThat(fs.supportedFileAttributeViews()).contains("basic", "lime");
        assertThat(fs.isReadOnly()).isTrue();
        assertThat(fs.getSeparator()).isEqualTo("/");
        assertThatThrownBy(() -> fs.provider().getFileSystem(uri)).isInstanceOf(FileSystemNotFoundException.class);

        List<ThrowingCallable> accesses = List.of(
                () -> Files.newByteChannel(record),
                () -> Files.newInputStream(record),
                () -> FileChannel.open(record),
                () -> Files.readAllBytes(record),
                () -> Files.newDirectoryStream(root),
                () -> Files.list(root),
                () -> Files.walk(root),
                () -> Files.readAttributes(record, BasicFileAttributes.class),
                () -> Files.readAttributes(record, "*"),
                () -> Files.readAttributes(record, "lime:*"),
                () -> view.readAttributes(),
                () -> Files.size(record),
                () -> Files.exists(record),
                () -> Files.isDirectory(root),
                () -> Files.getLastModifiedTime(record),
                () -> fs.provider().checkAccess(record, AccessMode.READ),
                () -> record.toRealPath(),
                () -> Files.getFileStore(record),
                () -> Files.isSameFile(record, root),
                () -> fs.getRootDirectories(),
                () -> fs.getFileStores(),
                () -> Files.createDirectory(fs.getPath("/msg04")),
                () -> Files.write(fs.getPath("/msg03/rec02.x"), new byte[1]),
                () -> Files.delete(record),
                () -> Files.move(record, fs.getPath("/msg01/rec09.x")),
                () -> Files.setAttribute(record, "lime:type", new byte[0]));
        for (int i = 0; i < accesses.size(); i++) {
            assertThatThrownBy(accesses.get(i)).as("access #%d", i).isInstanceOf(ClosedFileSystemException.class);
        }
        // equal paths are the same file without looking (Files.isSameFile's contract)
        assertThat(Files.isSameFile(record, fs.getPath("/msg01/./rec01.lime-test-text1").normalize())).isTrue();
    }

    @Test
    void closingTheFileSystemClosesItsChannelsStreamsAndDirectoryStreams() throws IOException {
        Path container = TestContainers.copyCorpus("s02_lime_writer_test1.lime", dir.resolve("c.lime"));
        FileSystem fs = TestContainers.openReadOnly(container);
        Path record = fs.getPath(RECORD);
        SeekableByteChannel channel = Files.newByteChannel(record);
        FileChannel fileChannel = FileChannel.open(record, StandardOpenOption.READ);
        InputStream in = Files.newInputStream(record);
        DirectoryStream<Path> stream = Files.newDirectoryStream(fs.getPath("/"));
        assertThat(in.read()).isEqualTo(Files.readAllBytes(record)[0] & 0xFF);
        assertThat(fileChannel.read(ByteBuffer.allocate(4), 3)).isEqualTo(4);

        fs.close();

        assertThat(channel.isOpen()).isFalse();
        assertThat(fileChannel.isOpen()).isFalse();
        assertThatThrownBy(() -> channel.read(ByteBuffer.allocate(8))).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> channel.size()).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> channel.position(2)).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> fileChannel.read(ByteBuffer.allocate(8), 0)).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> fileChannel.transferTo(0, 8, java.nio.channels.Channels.newChannel(
                java.io.OutputStream.nullOutputStream()))).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> in.read()).isInstanceOf(IOException.class);
        assertThatThrownBy(stream::iterator).isInstanceOf(ClosedFileSystemException.class);
        assertThatCode(channel::close).doesNotThrowAnyException();
        assertThatCode(in::close).doesNotThrowAnyException();
        assertThatCode(stream::close).doesNotThrowAnyException();
    }

    @Test
    void closingAWritableFileSystemCommitsTheRecordStillBeingWritten() throws IOException {
        Path container = TestContainers.copyCorpus("s02_lime_writer_test1.lime", dir.resolve("c.lime"));
        FileSystem fs = TestContainers.openWritable(container);
        SeekableByteChannel out = Files.newByteChannel(fs.getPath("/msg03/rec02.unfinished"),
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        out.write(ByteBuffer.wrap("written before close".getBytes(StandardCharsets.US_ASCII)));
        fs.close();
        assertThat(out.isOpen()).isFalse();
        assertThatThrownBy(() -> out.write(ByteBuffer.allocate(1))).isInstanceOf(ClosedChannelException.class);

        try (FileSystem reopened = TestContainers.openReadOnly(container)) {
            assertThat(Files.readString(reopened.getPath("/msg03/rec02.unfinished")))
                    .isEqualTo("written before close");
            assertThat(Files.readAttributes(reopened.getPath("/msg03/rec02.unfinished"), "lime:me,mb"))
                    .isEqualTo(Map.of("me", true, "mb", false));
            assertThat(Files.readAttributes(reopened.getPath("/msg03/rec01.lime-test-text3"), "lime:me"))
                    .containsEntry("me", false);
        }
    }

    @Test
    void aRecordClosedWhileTheFileSystemClosesIsCommittedWithoutErrorOrDeadlock() throws Exception {
        Path container = TestContainers.copyCorpus("s02_lime_writer_test1.lime", dir.resolve("c.lime"));
        ContainerFileSystem fs = (ContainerFileSystem) TestContainers.openWritable(container);
        SeekableByteChannel out = Files.newByteChannel(fs.getPath("/msg03/rec02.racing"),
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        out.write(ByteBuffer.wrap("raced".getBytes(StandardCharsets.US_ASCII)));
        java.util.concurrent.atomic.AtomicReference<Throwable> closeFailure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread closer = new Thread(() -> {
            try {
                out.close();
            } catch (Throwable t) {
                closeFailure.set(t);
            }
        });
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
            // Hold the tree lock, let the other thread block in the channel's close, then close the
            // file system from inside the lock: the two closes meet in opposite order.
            fs.write(() -> {
                closer.start();
                while (closer.getState() != Thread.State.WAITING && closer.getState() != Thread.State.TERMINATED) {
                    Thread.onSpinWait();
                }
                fs.close();
                return null;
            });
            closer.join();
        });
        assertThat(closeFailure.get()).as("the channel's own close").isNull();
        assertThat(out.isOpen()).isFalse();
        try (FileSystem reopened = TestContainers.openReadOnly(container)) {
            assertThat(Files.readString(reopened.getPath("/msg03/rec02.racing"))).isEqualTo("raced");
        }
    }

    @Test
    void aFileSystemThatFailedToOpenLeavesNoLockBehind() throws IOException {
        Path container = TestContainers.copyCorpus("s01_single_record.lime", dir.resolve("v2.lime"));
        byte[] bytes = Files.readAllBytes(container);
        bytes[5] = 2; // header version 2: the format's open fails after the core took channel and lock
        Files.write(container, bytes);
        assertThatThrownBy(() -> TestContainers.openWritable(container))
                .isInstanceOf(org.containerfs.spi.UnsupportedVersionException.class);
        bytes[5] = 1;
        Files.write(container, bytes);
        try (FileSystem fs = TestContainers.openWritable(container)) {
            assertThat(fs.isReadOnly()).isFalse();
        }
    }
}
