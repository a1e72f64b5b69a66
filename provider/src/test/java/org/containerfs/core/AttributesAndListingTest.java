package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Attribute views, the file store, access checks and listings, on corpus containers. */
class AttributesAndListingTest {
    private static final String FILE = "s02_lime_writer_test1.lime";
    private static final List<String> BASIC = List.of("lastModifiedTime", "lastAccessTime", "creationTime", "size",
            "isRegularFile", "isDirectory", "isSymbolicLink", "isOther", "fileKey");

    private static Path container;
    private static FileSystem fs;
    private static FileSystem padding;
    private static List<TestContainers.Row> rows;

    @BeforeAll
    static void open() throws IOException {
        container = TestContainers.corpus(FILE);
        fs = TestContainers.openReadOnly(container);
        padding = TestContainers.openReadOnly(TestContainers.corpus("s04_padding_len_0_to_17.lime"));
        rows = TestContainers.manifest(FILE);
    }

    @AfterAll
    static void close() throws IOException {
        fs.close();
        padding.close();
    }

    @Test
    void basicAttributesOfRecordsAndDirectories() throws IOException {
        FileTime containerTime = Files.getLastModifiedTime(container);
        for (TestContainers.Row row : rows) {
            Path record = fs.getPath(row.path());
            BasicFileAttributes a = Files.readAttributes(record, BasicFileAttributes.class);
            assertThat(a.isRegularFile()).isTrue();
            assertThat(a.isDirectory()).isFalse();
            assertThat(a.isSymbolicLink()).isFalse();
            assertThat(a.isOther()).isFalse();
            assertThat(a.size()).as(row.path()).isEqualTo(row.length());
            assertThat(a.lastModifiedTime()).isEqualTo(containerTime);
            assertThat(Files.size(record)).isEqualTo(row.length());

            BasicFileAttributeView view = Files.getFileAttributeView(record, BasicFileAttributeView.class);
            assertThat(view.name()).isEqualTo("basic");
            assertThat(view.readAttributes().size()).isEqualTo(row.length());
        }
        for (String directory : new String[] {"/", "/msg01", "/msg03"}) {
            BasicFileAttributes a = Files.readAttributes(fs.getPath(directory), BasicFileAttributes.class);
            assertThat(a.isDirectory()).as(directory).isTrue();
            assertThat(a.isRegularFile()).isFalse();
            assertThat(a.size()).isZero();
        }
    }

    @Test
    void basicAttributesByName() throws IOException {
        Path record = fs.getPath("/msg01/rec01.lime-test-text1");
        assertThat(Files.readAttributes(record, "*").keySet()).containsExactlyElementsOf(BASIC);
        assertThat(Files.readAttributes(record, "basic:*").keySet()).containsExactlyElementsOf(BASIC);
        assertThat(Files.readAttributes(record, "size,isDirectory"))
                .isEqualTo(Map.of("size", 45L, "isDirectory", false));
        assertThat(Files.readAttributes(record, "basic:size")).isEqualTo(Map.of("size", 45L));
        assertThat(Files.readAttributes(record, "size,*").keySet()).containsExactlyInAnyOrderElementsOf(BASIC);
        assertThat(Files.getAttribute(record, "basic:isRegularFile")).isEqualTo(true);
        assertThat(Files.getAttribute(record, "size")).isEqualTo(45L);
        assertThatThrownBy(() -> Files.readAttributes(record, "basic:owner"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("basic:owner").hasMessageContaining("size");
        assertThatThrownBy(() -> Files.readAttributes(record, "size,permissions"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("permissions");
        assertThatThrownBy(() -> Files.readAttributes(record, "posix:*"))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("posix");
        assertThatThrownBy(() -> Files.readAttributes(record, "dos:hidden"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void unsupportedViewsAreNullOrUnsupported() {
        Path record = fs.getPath("/msg01/rec01.lime-test-text1");
        assertThat(Files.getFileAttributeView(record, PosixFileAttributeView.class)).isNull();
        assertThatThrownBy(() -> Files.readAttributes(record, PosixFileAttributes.class))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> Files.getOwner(record)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> Files.getPosixFilePermissions(record)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theLimeViewByNameAndThroughTheInterface() throws IOException {
        for (TestContainers.Row row : rows) {
            Path record = fs.getPath(row.path());
            Map<String, Object> byName = Files.readAttributes(record, "lime:*");
            assertThat(byName).containsKeys("type", "mb", "me", "version", "length", "padding", "headerOffset",
                    "dataOffset", "truncated");
            assertThat((byte[]) byName.get("type")).isEqualTo(row.type());
            assertThat(byName.get("mb")).isEqualTo(row.mb());
            assertThat(byName.get("me")).isEqualTo(row.me());
            assertThat(byName.get("length")).isEqualTo(row.length());
            assertThat(byName.get("truncated")).isEqualTo(false);
            assertThat((long) byName.get("dataOffset") - (long) byName.get("headerOffset")).isEqualTo(144);

            ContainerAttributeView view = Files.getFileAttributeView(record, ContainerAttributeView.class);
            assertThat(view.name()).isEqualTo("lime");
            Map<String, Object> viaView = view.readAttributes();
            assertThat(viaView.keySet()).containsExactlyElementsOf(byName.keySet());
            assertThat(viaView.get("length")).isEqualTo(row.length());

            assertThat(Files.readAttributes(record, "lime:length,mb"))
                    .isEqualTo(Map.of("length", row.length(), "mb", row.mb()));
            assertThat(Files.getAttribute(record, "lime:me")).isEqualTo(row.me());
        }
        assertThatThrownBy(() -> Files.readAttributes(fs.getPath("/msg01/rec01.lime-test-text1"), "lime:colour"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lime:colour");
        // the root describes the container
        Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "lime:*");
        assertThat(root).containsEntry("records", 5).containsEntry("messages", 3).containsEntry("format", "lime");
        assertThat(root.get("size")).isEqualTo(Files.size(container));
    }

    @Test
    void attributesOfAMissingFileAreNoSuchFile() {
        Path missing = fs.getPath("/msg01/rec03.nothing");
        assertThatThrownBy(() -> Files.readAttributes(missing, BasicFileAttributes.class))
                .isInstanceOf(NoSuchFileException.class).hasMessageContaining("/msg01/rec03.nothing");
        assertThatThrownBy(() -> Files.readAttributes(missing, "lime:*")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.getFileAttributeView(missing, ContainerAttributeView.class).readAttributes())
                .isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.size(fs.getPath("/msg01/rec01.lime-test-text1/below")))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void theFileStoreIsTheContainer() throws IOException {
        FileStore store = Files.getFileStore(fs.getPath("/msg02/rec02.lime-test-text2"));
        assertThat(store.name()).isEqualTo(FILE);
        assertThat(store.type()).isEqualTo("lime");
        assertThat(store.isReadOnly()).isTrue();
        assertThat(store.getTotalSpace()).isEqualTo(Files.size(container));
        assertThat(store.getAttribute("totalSpace")).isEqualTo(Files.size(container));
        assertThat(store.getUsableSpace()).as("nothing can be written to a read-only store").isZero();
        assertThat(store.supportsFileAttributeView(BasicFileAttributeView.class)).isTrue();
        assertThat(store.supportsFileAttributeView(ContainerAttributeView.class)).isTrue();
        assertThat(store.supportsFileAttributeView(PosixFileAttributeView.class)).isFalse();
        assertThat(store.supportsFileAttributeView("basic")).isTrue();
        assertThat(store.supportsFileAttributeView("lime")).isTrue();
        assertThat(store.supportsFileAttributeView("posix")).isFalse();
        assertThatThrownBy(() -> store.getAttribute("blockSize")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(fs.getFileStores()).containsExactly(store);
        assertThat(fs.supportedFileAttributeViews()).containsExactlyInAnyOrder("basic", "lime");
        assertThatThrownBy(() -> Files.getFileStore(fs.getPath("/msg09"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void checkAccessOnAReadOnlyFileSystem() throws IOException {
        Path record = fs.getPath("/msg01/rec01.lime-test-text1");
        Path message = fs.getPath("/msg01");
        fs.provider().checkAccess(record);
        fs.provider().checkAccess(record, AccessMode.READ);
        fs.provider().checkAccess(message, AccessMode.READ, AccessMode.EXECUTE);
        assertThatThrownBy(() -> fs.provider().checkAccess(record, AccessMode.WRITE))
                .isInstanceOf(AccessDeniedException.class).hasMessageContaining("read-only");
        assertThatThrownBy(() -> fs.provider().checkAccess(message, AccessMode.WRITE))
                .isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> fs.provider().checkAccess(record, AccessMode.EXECUTE))
                .isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> fs.provider().checkAccess(fs.getPath("/msg04"), AccessMode.READ))
                .isInstanceOf(NoSuchFileException.class);
        assertThat(Files.isReadable(record)).isTrue();
        assertThat(Files.isWritable(record)).isFalse();
        assertThat(Files.isExecutable(record)).isFalse();
        assertThat(Files.isExecutable(message)).isTrue();
        assertThat(Files.exists(record)).isTrue();
        assertThat(Files.notExists(fs.getPath("/msg04"))).isTrue();
    }

    @Test
    void checkAccessOnAWritableFileSystem(@TempDir Path dir) throws IOException {
        Path copy = TestContainers.copyCorpus(FILE, dir.resolve("w.lime"));
        try (FileSystem writable = TestContainers.openWritable(copy)) {
            Path record = writable.getPath("/msg01/rec01.lime-test-text1");
            writable.provider().checkAccess(writable.getPath("/msg03"), AccessMode.WRITE);
            writable.provider().checkAccess(writable.getPath("/"), AccessMode.WRITE);
            assertThatThrownBy(() -> writable.provider().checkAccess(record, AccessMode.WRITE))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("never modified");
            assertThat(Files.isWritable(record)).isFalse();
            assertThat(Files.isWritable(writable.getPath("/msg03"))).isTrue();
            FileStore store = Files.getFileStore(record);
            assertThat(store.isReadOnly()).isFalse();
            assertThat(store.getUsableSpace()).isPositive();
        }
    }

    @Test
    void isSameFileAndIsHidden() throws IOException {
        Path record = fs.getPath("/msg02/rec01.lime-test-text1");
        assertThat(Files.isSameFile(record, fs.getPath("msg02/rec01.lime-test-text1"))).isTrue();
        assertThat(Files.isSameFile(record, fs.getPath("/msg01/../msg02/./rec01.lime-test-text1"))).isTrue();
        assertThat(Files.isSameFile(record, fs.getPath("/msg01/rec01.lime-test-text1"))).isFalse();
        assertThat(Files.isSameFile(record, padding.getPath("/msg02/rec01.lime-test-text1"))).isFalse();
        assertThat(Files.isSameFile(record, Path.of("/msg02/rec01.lime-test-text1"))).isFalse();
        assertThatThrownBy(() -> Files.isSameFile(record, fs.getPath("/msg02/rec09.x")))
                .isInstanceOf(NoSuchFileException.class);
        for (String p : new String[] {"/", "/msg01", "/msg02/rec01.lime-test-text1"}) {
            assertThat(Files.isHidden(fs.getPath(p))).isFalse();
        }
    }

    @Test
    void walkListsEveryNodeInFileOrder() throws IOException {
        List<String> expected = new ArrayList<>();
        expected.add("/");
        String message = "";
        for (TestContainers.Row row : rows) {
            String m = row.path().substring(0, row.path().lastIndexOf('/'));
            if (!m.equals(message)) {
                expected.add(m);
                message = m;
            }
            expected.add(row.path());
        }
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            assertThat(walk.map(Path::toString)).containsExactlyElementsOf(expected);
        }
        try (Stream<Path> walk = Files.walk(fs.getPath("/"), 1)) {
            assertThat(walk.map(Path::toString)).containsExactly("/", "/msg01", "/msg02", "/msg03");
        }
        try (Stream<Path> found = Files.find(fs.getPath("/"), 5, (p, a) -> a.isRegularFile() && a.size() > 30)) {
            assertThat(found.map(Path::toString)).containsExactly("/msg01/rec01.lime-test-text1",
                    "/msg01/rec02.lime-test-text1", "/msg02/rec01.lime-test-text1");
        }
        // a relative start walks relative paths
        try (Stream<Path> walk = Files.walk(fs.getPath("msg02"))) {
            assertThat(walk.map(Path::toString)).containsExactly("msg02", "msg02/rec01.lime-test-text1",
                    "msg02/rec02.lime-test-text2");
        }
    }

    @Test
    void listAndDirectoryStreams() throws IOException {
        try (Stream<Path> list = Files.list(fs.getPath("/msg02"))) {
            assertThat(list.map(Path::toString)).containsExactly("/msg02/rec01.lime-test-text1",
                    "/msg02/rec02.lime-test-text2");
        }
        assertThatThrownBy(() -> Files.list(fs.getPath("/msg01/rec01.lime-test-text1")))
                .isInstanceOf(NotDirectoryException.class);
        assertThatThrownBy(() -> Files.list(fs.getPath("/msg07"))).isInstanceOf(NoSuchFileException.class);
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(fs.getPath("/"))) {
            stream.iterator();
            assertThatThrownBy(stream::iterator).isInstanceOf(IllegalStateException.class);
        }
        DirectoryStream<Path> closed = Files.newDirectoryStream(fs.getPath("/"));
        closed.close();
        assertThatThrownBy(closed::iterator).isInstanceOf(IllegalStateException.class);
        // a filter that throws surfaces as DirectoryIteratorException
        try (DirectoryStream<Path> failing = Files.newDirectoryStream(fs.getPath("/"), p -> {
            throw new IOException("filter failed on " + p);
        })) {
            assertThatThrownBy(() -> failing.iterator().hasNext())
                    .isInstanceOf(java.nio.file.DirectoryIteratorException.class)
                    .hasMessageContaining("filter failed");
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "* | 18",
        "** | 18",
        "rec0?.* | 9",
        "rec1[0-2].* | 3",
        "rec{01,18}.* | 2",
        "*.len-1[!0-5] | 2",
        "*.len-0[13579] | 5",
        "rec??.len-?? | 18",
        "rec?.len-?? | 0",
        "rec0\\1.* | 1",
        "rec01.len\\-00 | 1",
        "\\* | 0",
        "*.{len-00,len-17,len-99} | 2",
        "{rec01,rec02}* | 2",
        "*.LEN-00 | 0",
        "rec[!0]?.* | 9",
    })
    void directoryStreamGlobFilters(String glob, int matches) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(padding.getPath("/msg01"), glob)) {
            for (Path p : stream) {
                assertThat(p.getParent()).isEqualTo(padding.getPath("/msg01"));
                names.add(p.getFileName().toString());
            }
        }
        assertThat(names).as(glob + " matched " + names).hasSize(matches);
        assertThat(names).isSorted(); // file order, which is name order here
    }
}
