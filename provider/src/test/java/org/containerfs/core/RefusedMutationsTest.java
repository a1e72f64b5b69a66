package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.containerfs.spi.InvalidNameException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every mutation an append-only container refuses: the exact exception type, a message that says
 * what went wrong and what is allowed, and the container's bytes unchanged (SHA-256 before and after).
 * s02 has three messages; the last, /msg03, holds one record.
 */
class RefusedMutationsTest {
    private static final String RECORD = "/msg01/rec01.lime-test-text1";
    private static final String LAST = "/msg03/rec01.lime-test-text3";
    private static final String ALLOWED = "LIME containers grow by appending";
    private static final byte[] DATA = "data".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;
    private Path container;
    private FileSystem fs;

    @BeforeEach
    void copyContainer() throws IOException {
        container = TestContainers.copyCorpus("s02_lime_writer_test1.lime", dir.resolve("s02.lime"));
    }

    @AfterEach
    void closeFileSystem() throws IOException {
        if (fs != null) {
            fs.close();
        }
    }

    private Path p(String path) {
        return fs.getPath(path);
    }

    private void refused(String what, ThrowingCallable action, Class<? extends Throwable> type, String... message) {
        String before = TestContainers.sha256(container);
        var thrown = assertThatThrownBy(action).as(what).isExactlyInstanceOf(type);
        for (String fragment : message) {
            thrown.hasMessageContaining(fragment);
        }
        assertThat(TestContainers.sha256(container)).as(what + ": container bytes unchanged").isEqualTo(before);
    }

    @Test
    void existingRecordsAreNeverWrittenAppendedToOrTruncated() throws IOException {
        fs = TestContainers.openWritable(container);
        refused("Files.write over a record", () -> Files.write(p(RECORD), DATA),
                AccessDeniedException.class, RECORD, "never modified", ALLOWED);
        refused("WRITE channel on a record", () -> Files.newByteChannel(p(RECORD), StandardOpenOption.WRITE),
                AccessDeniedException.class, "never modified");
        refused("APPEND to a record", () -> Files.write(p(RECORD), DATA, StandardOpenOption.APPEND),
                AccessDeniedException.class, "never modified", ALLOWED);
        refused("APPEND to the last record", () -> Files.write(p(LAST), DATA, StandardOpenOption.APPEND),
                AccessDeniedException.class, "never modified");
        refused("TRUNCATE_EXISTING", () -> Files.newByteChannel(p(RECORD), StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), AccessDeniedException.class, "never modified");
        refused("CREATE_NEW over a record", () -> Files.newOutputStream(p(RECORD), StandardOpenOption.CREATE_NEW),
                FileAlreadyExistsException.class, RECORD);
        refused("a record through a relative, unnormalized path",
                () -> Files.write(p("msg02/../msg01/./rec01.lime-test-text1"), DATA),
                AccessDeniedException.class, RECORD);
        refused("FileChannel for writing", () -> FileChannel.open(p("/msg03/rec02.x"), StandardOpenOption.WRITE,
                StandardOpenOption.CREATE), UnsupportedOperationException.class, "Files.newByteChannel");
        refused("READ and WRITE", () -> Files.newByteChannel(p("/msg03/rec02.x"), StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.CREATE), UnsupportedOperationException.class, "write-only");
        refused("write to the root", () -> Files.write(p("/"), DATA), FileSystemException.class, "directory");
        refused("write to a message directory", () -> Files.write(p("/msg03"), DATA),
                AccessDeniedException.class, "never modified");
    }

    @Test
    void nothingIsDeletedMovedOrReplaced() throws IOException {
        fs = TestContainers.openWritable(container);
        refused("delete a record", () -> Files.delete(p(RECORD)), AccessDeniedException.class,
                RECORD, "nothing is ever deleted", ALLOWED);
        refused("delete the last record", () -> Files.deleteIfExists(p(LAST)), AccessDeniedException.class,
                "nothing is ever deleted");
        refused("delete a message", () -> Files.delete(p("/msg03")), AccessDeniedException.class, "deleted");
        refused("delete a missing file", () -> Files.delete(p("/msg03/rec07.x")), NoSuchFileException.class,
                "/msg03/rec07.x");
        refused("rename a record", () -> Files.move(p(RECORD), p("/msg03/rec02.lime-test-text1")),
                AccessDeniedException.class, RECORD, "cannot be renamed", ALLOWED);
        refused("rename a message", () -> Files.move(p("/msg01"), p("/msg04")),
                AccessDeniedException.class, "cannot be renamed");
        refused("move onto an existing record", () -> Files.move(p(LAST), p(RECORD),
                StandardCopyOption.REPLACE_EXISTING), AccessDeniedException.class, "cannot be renamed");
        refused("copy onto an existing record", () -> Files.copy(p(LAST), p(RECORD)),
                FileAlreadyExistsException.class, RECORD);
        refused("copy replacing an existing record", () -> Files.copy(p(LAST), p(RECORD),
                StandardCopyOption.REPLACE_EXISTING), AccessDeniedException.class, RECORD, "never replaced", ALLOWED);
        refused("copy into an earlier message", () -> Files.copy(p(LAST), p("/msg01/rec03.lime-test-text3")),
                AccessDeniedException.class, "last message /msg03");
    }

    @Test
    void newMessagesAndRecordsOnlyUnderTheirCanonicalNextNames() throws IOException {
        fs = TestContainers.openWritable(container);
        refused("skip a message number", () -> Files.createDirectory(p("/msg07")), AccessDeniedException.class,
                "msg07", "the next message is msg04");
        refused("non-canonical message name", () -> Files.createDirectory(p("/msg4")), AccessDeniedException.class,
                "msg04");
        refused("a directory that is no message", () -> Files.createDirectory(p("/extra")),
                AccessDeniedException.class, "msg04");
        refused("a directory inside a message", () -> Files.createDirectory(p("/msg03/sub")),
                AccessDeniedException.class, "at the root");
        refused("an existing message", () -> Files.createDirectory(p("/msg01")), FileAlreadyExistsException.class,
                "/msg01");
        refused("the root", () -> Files.createDirectory(p("/")), FileAlreadyExistsException.class);
        refused("a record in an earlier message", () -> Files.write(p("/msg01/rec03.x"), DATA),
                AccessDeniedException.class, "rec03.x", "last message /msg03 only", ALLOWED);
        refused("a record at the root", () -> Files.write(p("/rec01.x"), DATA), AccessDeniedException.class,
                "last message");
        refused("a wrong record number", () -> Files.write(p("/msg03/rec05.x"), DATA), AccessDeniedException.class,
                "rec05.x", "the next record in msg03 is rec02.<type>");
        refused("an existing record number with another type", () -> Files.write(p("/msg03/rec01.other"), DATA),
                AccessDeniedException.class, "rec02");
        refused("a non-canonical record number", () -> Files.write(p("/msg03/rec2.x"), DATA),
                AccessDeniedException.class, "rec02");
        refused("no record prefix at all", () -> Files.write(p("/msg03/data.x"), DATA),
                InvalidNameException.class, "recNN.<type>");
        refused("a record in a missing message", () -> Files.write(p("/msg09/rec01.x"), DATA),
                NoSuchFileException.class, "/msg09");
        refused("a record below a record", () -> Files.write(p(LAST + "/rec01.x"), DATA),
                NotDirectoryException.class, LAST);
        refused("WRITE without CREATE on a new name", () -> Files.newByteChannel(p("/msg03/rec02.x"),
                StandardOpenOption.WRITE), NoSuchFileException.class, "/msg03/rec02.x");
    }

    @Test
    void typesThatLimeCannotHoldAreRefused() throws IOException {
        fs = TestContainers.openWritable(container);
        String type128 = "t".repeat(128);
        refused("a 128-byte type", () -> Files.write(p("/msg03/rec02." + type128), DATA),
                InvalidNameException.class, "at most 127 bytes", "128");
        refused("a 128-byte type made of multi-byte characters", () -> Files.write(p("/msg03/rec02." + "é".repeat(64)), DATA),
                InvalidNameException.class, "at most 127 bytes");
        refused("a NUL in the type", () -> Files.write(p("/msg03/rec02.a%00b"), DATA),
                InvalidNameException.class, "NUL", "%00");
        refused("a malformed escape", () -> Files.write(p("/msg03/rec02.a%ZZ"), DATA),
                InvalidNameException.class, "malformed");
        refused("a truncated escape", () -> Files.write(p("/msg03/rec02.a%2"), DATA),
                InvalidNameException.class, "malformed");
        refused("a non-canonical escape", () -> Files.write(p("/msg03/rec02.a%2fb"), DATA),
                InvalidNameException.class, "canonical", "rec02.a%2Fb");
        refused("an escape of a byte that needs none", () -> Files.write(p("/msg03/rec02.%41"), DATA),
                InvalidNameException.class, "rec02.A");
        refused("a shortened long name", () -> Files.write(p("/msg03/rec02.x%%0123456789abcdef0123456789abcdef"), DATA),
                InvalidNameException.class, "shortened");
        // the longest type LIME stores is accepted
        Files.write(p("/msg03/rec02." + "t".repeat(127)), DATA);
        assertThat(Files.readAllBytes(p("/msg03/rec02." + "t".repeat(127)))).isEqualTo(DATA);
    }

    @Test
    void timesAndAttributesCannotBeSet() throws IOException {
        fs = TestContainers.openWritable(container);
        FileTime time = FileTime.fromMillis(0);
        refused("setLastModifiedTime", () -> Files.setLastModifiedTime(p(RECORD), time), AccessDeniedException.class,
                RECORD, "times");
        refused("setTimes", () -> Files.getFileAttributeView(p(RECORD), BasicFileAttributeView.class)
                .setTimes(time, time, time), AccessDeniedException.class, "times");
        refused("basic:lastAccessTime", () -> Files.setAttribute(p(RECORD), "basic:lastAccessTime", time),
                AccessDeniedException.class, "cannot be set");
        refused("lime:type", () -> Files.setAttribute(p(RECORD), "lime:type", DATA),
                AccessDeniedException.class, "lime:type".substring(5), "cannot be set", ALLOWED);
        refused("lime:me", () -> Files.setAttribute(p(LAST), "lime:me", false), AccessDeniedException.class,
                "cannot be set");
    }

    @Test
    void creationAttributesOfOtherViewsAreUnsupported() throws IOException {
        fs = TestContainers.openWritable(container);
        var permissions = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--"));
        refused("posix permissions on a new record", () -> Files.createFile(p("/msg03/rec02.x"), permissions),
                UnsupportedOperationException.class, "posix:permissions", "lime");
        refused("posix permissions on a new message", () -> Files.createDirectory(p("/msg04"), permissions),
                UnsupportedOperationException.class, "posix:permissions");
        refused("posix permissions through newByteChannel", () -> Files.newByteChannel(p("/msg03/rec02.x"),
                java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), permissions),
                UnsupportedOperationException.class, "posix:permissions");
        // nothing was left half-done: the same names are still the next ones
        Files.createFile(p("/msg03/rec02.x"));
        Files.createDirectory(p("/msg04"));
        assertThat(Files.size(p("/msg03/rec02.x"))).isZero();
    }

    @Test
    void oneRecordAtATimeAndNoEmptyMessages() throws IOException {
        fs = TestContainers.openWritable(container);
        Files.createDirectory(p("/msg04"));
        refused("a second new message before the first has a record", () -> Files.createDirectory(p("/msg05")),
                AccessDeniedException.class, "msg04", "no record yet");
        try (SeekableByteChannel open = Files.newByteChannel(p("/msg04/rec01.first"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            open.write(ByteBuffer.wrap(DATA));
            refused("a second record while one is open", () -> Files.write(p("/msg04/rec02.second"), DATA),
                    IOException.class, "rec01.first", "still being written");
            refused("seeking back in a new record", () -> open.position(1), AccessDeniedException.class,
                    "sequentially");
            refused("truncating a new record", () -> open.truncate(1), AccessDeniedException.class, "truncated");
        }
        fs.close();
        fs = TestContainers.openReadOnly(container);
        assertThat(Files.readAllBytes(p("/msg04/rec01.first"))).isEqualTo(DATA);
    }

    @Test
    void aMessageDirectoryWithoutRecordsLeavesNoTrace() throws IOException {
        String before = TestContainers.sha256(container);
        fs = TestContainers.openWritable(container);
        Files.createDirectory(p("/msg04"));
        assertThat(Files.isDirectory(p("/msg04"))).isTrue();
        fs.close();
        assertThat(TestContainers.sha256(container)).isEqualTo(before);
        fs = TestContainers.openReadOnly(container);
        try (Stream<Path> list = Files.list(p("/"))) {
            assertThat(list.map(Path::toString)).containsExactly("/msg01", "/msg02", "/msg03");
        }
    }

    @Test
    void aReadOnlyFileSystemRefusesEveryMutationAsReadOnly() throws IOException {
        fs = TestContainers.openReadOnly(container);
        FileTime time = FileTime.fromMillis(0);
        List<ThrowingCallable> mutations = List.of(
                () -> Files.write(p(RECORD), DATA),
                () -> Files.write(p("/msg03/rec02.new"), DATA),
                () -> Files.write(p(LAST), DATA, StandardOpenOption.APPEND),
                () -> Files.newOutputStream(p("/msg03/rec02.new")),
                () -> Files.newByteChannel(p("/msg03/rec02.new"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                () -> FileChannel.open(p("/msg03/rec02.new"), StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                () -> Files.createDirectory(p("/msg04")),
                () -> Files.delete(p(RECORD)),
                () -> Files.deleteIfExists(p("/msg03/rec09.none")),
                () -> Files.move(p(RECORD), p("/msg03/rec02.x")),
                () -> Files.copy(p(RECORD), p("/msg03/rec02.lime-test-text1")),
                () -> Files.copy(p(LAST), p(RECORD), StandardCopyOption.REPLACE_EXISTING),
                () -> Files.setLastModifiedTime(p(RECORD), time),
                () -> Files.setAttribute(p(RECORD), "lime:type", DATA));
        for (int i = 0; i < mutations.size(); i++) {
            refused("read-only mutation #" + i, mutations.get(i), ReadOnlyFileSystemException.class);
        }
    }

    @Test
    void afterEveryRefusalAValidAppendStillWorksAndKeepsTheOldBytes() throws IOException {
        byte[] before = Files.readAllBytes(container);
        fs = TestContainers.openWritable(container);
        for (ThrowingCallable refusal : List.<ThrowingCallable>of(
                () -> Files.write(p(RECORD), DATA),
                () -> Files.delete(p(LAST)),
                () -> Files.createDirectory(p("/msg05")),
                () -> Files.write(p("/msg03/rec03.x"), DATA),
                () -> Files.write(p("/msg03/rec02.a%00"), DATA))) {
            assertThatThrownBy(refusal).isInstanceOf(IOException.class);
        }
        Files.write(p("/msg03/rec02.after-refusals"), DATA);
        fs.close();
        byte[] after = Files.readAllBytes(container);
        // the old bytes are all there; only the ME bit of the previous last record was cleared
        int lastHeader = before.length - 144 - 24; // s02's last record holds 19 bytes + 5 padding
        assertThat(after[lastHeader + 6]).isEqualTo((byte) (before[lastHeader + 6] & ~0x40));
        after[lastHeader + 6] = before[lastHeader + 6];
        assertThat(Arrays.copyOf(after, before.length)).isEqualTo(before);
        assertThat(after.length).isEqualTo(before.length + 144 + 8);
        fs = TestContainers.openReadOnly(container);
        assertThat(Files.readAllBytes(p("/msg03/rec02.after-refusals"))).isEqualTo(DATA);
    }
}
