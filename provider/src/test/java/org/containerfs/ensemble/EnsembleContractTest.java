package org.containerfs.ensemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** The java.nio.file contract of a tree: paths, URIs, attributes, listings, refused changes (docs/nio-contract.md). */
class EnsembleContractTest {
    @TempDir
    Path dir;
    EnsembleFileSystem tree;

    @BeforeEach
    void open() throws IOException {
        Ensembles.copy(Ensembles.samples().resolve("lime/ildg.lime"), dir.resolve("ildg.lime"));
        Files.createDirectories(dir.resolve("sub dir"));
        Ensembles.copy(Ensembles.samples().resolve("gsd/trajectory.gsd"), dir.resolve("sub dir/traj.gsd"));
        Files.writeString(dir.resolve("notes.txt"), "notes\n");
        tree = ContainerFileSystems.openTree(dir, Map.of());
    }

    @AfterEach
    void close() throws IOException {
        tree.close();
    }

    @Test
    void pathsBehaveAsOnEveryJdkFileSystem() {
        Path record = tree.getPath("/ildg.lime/msg02/rec03.ildg-format");
        assertThat(record.getFileName().toString()).isEqualTo("rec03.ildg-format");
        assertThat(record.getParent()).isEqualTo(tree.getPath("/ildg.lime", "msg02"));
        assertThat(record.getNameCount()).isEqualTo(3);
        assertThat(record.subpath(1, 3).toString()).isEqualTo("msg02/rec03.ildg-format");
        assertThat(record.getRoot()).isEqualTo(tree.getPath("/"));
        assertThat(record.startsWith("/ildg.lime")).isTrue();
        assertThat(record.startsWith("/ildg")).isFalse();
        assertThat(record.endsWith("msg02/rec03.ildg-format")).isTrue();
        assertThat(tree.getPath("/a/../ildg.lime/./msg02").normalize()).isEqualTo(tree.getPath("/ildg.lime/msg02"));
        assertThat(tree.getPath("/..").normalize()).isEqualTo(tree.getPath("/"));
        Path base = tree.getPath("/sub dir");
        Path relative = tree.getPath("traj.gsd/frame");
        assertThat(base.relativize(base.resolve(relative))).isEqualTo(relative);
        assertThat(record.relativize(tree.getPath("/notes.txt")).toString()).isEqualTo("../../../notes.txt");
        assertThat(tree.getPath("").getNameCount()).isEqualTo(1);
        assertThat(tree.getPath("ildg.lime").toAbsolutePath()).isEqualTo(tree.getPath("/ildg.lime"));
        assertThat(tree.getPath("/ildg.lime//msg02/")).isEqualTo(tree.getPath("/ildg.lime/msg02"))
                .hasSameHashCodeAs(tree.getPath("/ildg.lime/msg02"));
        assertThat(tree.getPath("/a")).isNotEqualTo(tree.getPath("a"));
        assertThatThrownBy(() -> record.resolve(Path.of("x"))).isInstanceOf(ProviderMismatchException.class);
        assertThatThrownBy(() -> record.relativize(tree.getPath("x"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pathsOfTwoTreesOfOneDirectoryDiffer() throws IOException {
        try (FileSystem other = ContainerFileSystems.openTree(dir, Map.of())) {
            assertThat(other.getPath("/notes.txt")).isNotEqualTo(tree.getPath("/notes.txt"));
            assertThat(Files.isSameFile(other.getPath("/notes.txt"), tree.getPath("/notes.txt"))).isFalse();
        }
        assertThat(Files.isSameFile(tree.getPath("/notes.txt"), tree.getPath("/sub dir/../notes.txt"))).isTrue();
    }

    @Test
    void urisLeadBackToThePath() throws IOException {
        Path record = tree.getPath("/ildg.lime/msg02/rec03.ildg-format");
        URI uri = record.toUri();
        assertThat(uri.toString()).isEqualTo("ensemble:" + dir.toUri() + "!/ildg.lime/msg02/rec03.ildg-format");
        assertThat(Path.of(uri)).isEqualTo(record);
        Path spaced = tree.getPath("/sub dir/traj.gsd");
        assertThat(spaced.toUri().toString()).endsWith("!/sub%20dir/traj.gsd");
        assertThat(Path.of(spaced.toUri())).isEqualTo(spaced);
        assertThat(tree.getPath("notes.txt").toUri()).isEqualTo(tree.getPath("/notes.txt").toUri());
    }

    @Test
    void aTreeOpenedByUriClaimsIt() throws IOException {
        URI uri = URI.create("ensemble:" + dir.toUri() + "!/");
        try (FileSystem byUri = FileSystems.newFileSystem(uri, Map.of())) {
            assertThatThrownBy(() -> FileSystems.newFileSystem(uri, Map.of()))
                    .isInstanceOf(FileSystemAlreadyExistsException.class);
            assertThat(FileSystems.getFileSystem(uri)).isSameAs(byUri);
            assertThat(Path.of(URI.create("ensemble:" + dir.toUri() + "!/notes.txt")).getFileSystem()).isSameAs(byUri);
        }
        tree.close();
        assertThatThrownBy(() -> FileSystems.getFileSystem(uri)).isInstanceOf(FileSystemNotFoundException.class);
    }

    @Test
    void aDirectoryIsNotATreeThroughNewFileSystemByPath() {
        // FileSystems.newFileSystem(path) asks every provider: a directory stays nobody's
        assertThatThrownBy(() -> FileSystems.newFileSystem(dir, Map.of()))
                .isInstanceOf(java.nio.file.ProviderNotFoundException.class);
    }

    @Test
    void attributesBasicAndTheFormatsViewsInsideContainers() throws IOException {
        Path record = tree.getPath("/ildg.lime/msg02/rec03.ildg-format");
        try (FileSystem single = ContainerFileSystems.open(dir.resolve("ildg.lime"))) {
            Path same = single.getPath("/msg02/rec03.ildg-format");
            assertThat((byte[]) Files.getAttribute(record, "lime:type"))
                    .isEqualTo((byte[]) Files.getAttribute(same, "lime:type"));
            assertThat(Files.readAttributes(record, "lime:*").keySet())
                    .isEqualTo(Files.readAttributes(same, "lime:*").keySet());
            // the container's own directory has its root's attributes of the format
            assertThat(Files.getAttribute(tree.getPath("/ildg.lime"), "lime:damage"))
                    .isEqualTo(Files.getAttribute(single.getPath("/"), "lime:damage"));
            assertThat(Files.size(record)).isEqualTo(Files.size(same));
        }
        Map<String, Object> basic = Files.readAttributes(tree.getPath("/notes.txt"), "basic:size,isRegularFile");
        assertThat(basic).isEqualTo(Map.of("size", 6L, "isRegularFile", true));
        assertThat(Files.readAttributes(tree.getPath("/ildg.lime"), "*")).containsEntry("isDirectory", true)
                .containsEntry("size", Files.size(dir.resolve("ildg.lime")));
        assertThat(Files.getLastModifiedTime(tree.getPath("/ildg.lime")))
                .isEqualTo(Files.getLastModifiedTime(dir.resolve("ildg.lime")));
        assertThatThrownBy(() -> Files.readAttributes(tree.getPath("/notes.txt"), "lime:*"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> Files.readAttributes(record, "posix:*")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> Files.readAttributes(record, "basic:nosuch")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Files.readAttributes(record, PosixFileAttributes.class))
                .isInstanceOf(UnsupportedOperationException.class);
        BasicFileAttributeView view = Files.getFileAttributeView(record, BasicFileAttributeView.class);
        assertThat(view.readAttributes().isRegularFile()).isTrue();
        assertThatThrownBy(() -> view.setTimes(FileTime.fromMillis(0), null, null))
                .isInstanceOf(ReadOnlyFileSystemException.class);
        assertThat(tree.supportedFileAttributeViews()).contains("basic", "lime", "gsd", "scda", "sion", "g3");
        assertThatThrownBy(() -> Files.size(tree.getPath("/ildg.lime/msg09"))).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("/ildg.lime/msg09");
        assertThatThrownBy(() -> Files.newByteChannel(tree.getPath("/ildg.lime/msg01/nope")))
                .isInstanceOf(NoSuchFileException.class).hasMessageStartingWith("/ildg.lime/msg01/nope");
        assertThatThrownBy(() -> Files.size(tree.getPath("/nothing/here"))).isInstanceOf(NoSuchFileException.class)
                .hasMessage("/nothing/here");
    }

    @Test
    void directoryStreamsTakeFiltersAndGlobs() throws IOException {
        List<String> top = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tree.getPath("/"), "*.lime")) {
            ds.forEach(p -> top.add(p.toString()));
        }
        assertThat(top).containsExactly("/ildg.lime");
        List<String> inside = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tree.getPath("/ildg.lime/msg02"),
                p -> p.getFileName().toString().startsWith("rec0") && !p.toString().endsWith("data"))) {
            ds.forEach(p -> inside.add(p.getFileName().toString()));
        }
        assertThat(inside).containsExactly("rec01.scidac-private-record-xml", "rec02.scidac-record-xml",
                "rec03.ildg-format", "rec05.scidac-checksum", "rec06.ildg-data-lfn");
        try (Stream<Path> s = Files.list(tree.getPath("sub dir"))) {
            assertThat(s.map(Path::toString)).containsExactly("sub dir/traj.gsd"); // relative stays relative
        }
        try (Stream<Path> s = Files.walk(tree.getPath("/"))) {
            assertThat(s.count()).isGreaterThan(10);
        }
        assertThat(tree.getPathMatcher("glob:/**/*.gsd").matches(tree.getPath("/sub dir/traj.gsd"))).isTrue();
    }

    @Test
    void channelsReadAtAnyPosition() throws IOException {
        Path record = tree.getPath("/ildg.lime/msg02/rec04.ildg-binary-data");
        byte[] all = Files.readAllBytes(record);
        assertThat(all.length).isGreaterThan(16);
        try (SeekableByteChannel ch = Files.newByteChannel(record)) {
            ByteBuffer buf = ByteBuffer.allocate(8);
            ch.position(all.length - 8).read(buf);
            assertThat(buf.array()).containsExactly(java.util.Arrays.copyOfRange(all, all.length - 8, all.length));
            assertThat(ch.size()).isEqualTo(all.length);
        }
        try (var in = Files.newInputStream(tree.getPath("/notes.txt"))) {
            assertThat(new String(in.readAllBytes())).isEqualTo("notes\n");
        }
    }

    @Test
    void everyChangeIsRefusedAndChangesNothing() throws IOException {
        Map<String, String> before = sourceState();
        Path notes = tree.getPath("/notes.txt");
        Path record = tree.getPath("/ildg.lime/msg02/rec03.ildg-format");
        List<Executable> changes = List.of(
                () -> Files.createDirectory(tree.getPath("/new")),
                () -> Files.createDirectory(tree.getPath("/ildg.lime/msg03")),
                () -> Files.createFile(tree.getPath("/new.txt")),
                () -> Files.writeString(notes, "x"),
                () -> Files.writeString(tree.getPath("/ildg.lime/msg02/rec06.x"), "x"),
                () -> Files.newByteChannel(record, StandardOpenOption.WRITE),
                () -> Files.newOutputStream(notes, StandardOpenOption.APPEND),
                () -> Files.newByteChannel(notes, StandardOpenOption.READ, StandardOpenOption.DELETE_ON_CLOSE),
                () -> Files.delete(notes),
                () -> Files.delete(tree.getPath("/ildg.lime")),
                () -> Files.delete(record),
                () -> Files.deleteIfExists(tree.getPath("/nothing")),
                () -> Files.copy(notes, tree.getPath("/copy.txt")),
                () -> Files.copy(record, tree.getPath("/copy.txt")),
                () -> Files.move(notes, tree.getPath("/moved.txt")),
                () -> Files.setLastModifiedTime(notes, FileTime.fromMillis(0)),
                () -> Files.createSymbolicLink(tree.getPath("/link"), notes),
                () -> Files.createLink(tree.getPath("/link"), notes));
        for (Executable change : changes) {
            org.junit.jupiter.api.Assertions.assertThrows(ReadOnlyFileSystemException.class, change);
        }
        assertThatThrownBy(() -> Files.setAttribute(notes, "basic:size", 0L)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Files.setAttribute(notes, "posix:permissions", null))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> Files.newByteChannel(notes, StandardOpenOption.READ, StandardOpenOption.APPEND))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> tree.provider().checkAccess(notes, java.nio.file.AccessMode.WRITE))
                .isInstanceOf(AccessDeniedException.class);
        assertThat(Files.isWritable(record)).isFalse();
        assertThat(Files.isReadable(record)).isTrue();
        assertThat(tree.isReadOnly()).isTrue();
        assertThat(Files.getFileStore(record).isReadOnly()).isTrue();
        Files.copy(notes, notes); // onto itself: nothing to do, as on every JDK file system
        Files.move(record, record);
        assertThat(sourceState()).isEqualTo(before);
    }

    /** Every file under the source directory with its size and digest. */
    private Map<String, String> sourceState() throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                out.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "dir" : Ensembles.sha256(p)
                        + " " + Files.getLastModifiedTime(p));
            }
        }
        return out;
    }

    @Test
    void hiddenSameFileAndStore() throws IOException {
        Files.writeString(dir.resolve(".hidden"), "");
        assertThat(Files.isHidden(tree.getPath("/.hidden"))).isTrue();
        assertThat(Files.isHidden(tree.getPath("/notes.txt"))).isFalse();
        assertThat(Files.getFileStore(tree.getPath("/notes.txt")).type()).isEqualTo("ensemble");
        assertThatThrownBy(() -> Files.getFileStore(tree.getPath("/nothing"))).isInstanceOf(NoSuchFileException.class);
        assertThat(tree.getPath("/ildg.lime/msg02").toRealPath()).isEqualTo(tree.getPath("/ildg.lime/msg02"));
    }

    @Test
    void aTreeIsOpenedOverADirectoryOnly() {
        assertThatThrownBy(() -> ContainerFileSystems.openTree(dir.resolve("notes.txt"), Map.of()))
                .isInstanceOf(java.nio.file.NotDirectoryException.class);
        assertThatThrownBy(() -> ContainerFileSystems.openTree(dir.resolve("nothing"), Map.of()))
                .isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> ContainerFileSystems.openTree(dir, Map.of("cacheContainers", 0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ContainerFileSystems.openTree(dir, Map.of("accessMode", "readWrite")))
                .isInstanceOf(ReadOnlyFileSystemException.class);
    }

    @Test
    void attributesOfAListedEntryNeedNoOpen() throws IOException {
        try (Stream<Path> s = Files.list(tree.getPath("/"))) {
            for (Path p : s.toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                assertThat(a.isDirectory()).isEqualTo(!p.toString().equals("/notes.txt"));
            }
        }
        assertThat(tree.containersOpened()).isZero();
    }

    @Test
    void aContainerAppendedToShowsItsNewUnits() throws IOException {
        Path message = tree.getPath("/ildg.lime/msg03");
        assertThat(Files.exists(tree.getPath("/ildg.lime/msg02"))).isTrue(); // open in the tree from here on
        assertThat(Files.exists(message)).isFalse();
        try (FileSystem writer = ContainerFileSystems.open(dir.resolve("ildg.lime"), Map.of("accessMode", "readWrite"))) {
            Files.createDirectory(writer.getPath("/msg03"));
            Files.writeString(writer.getPath("/msg03/rec01.note"), "appended");
        }
        try (Stream<Path> s = Files.list(tree.getPath("/ildg.lime"))) {
            assertThat(s.map(Path::toString)).contains("/ildg.lime/msg03");
        }
        assertThat(Files.readString(tree.getPath("/ildg.lime/msg03/rec01.note"))).isEqualTo("appended");
        assertThat(tree.containersOpened()).isEqualTo(1);
    }

    @Test
    void aPathBelowAFileNamedLikeAContainerIsNoFile() throws IOException {
        Files.writeString(dir.resolve("fake.gsd"), "text");
        assertThatThrownBy(() -> Files.size(tree.getPath("/fake.gsd/frame"))).isInstanceOf(java.nio.file.FileSystemException.class)
                .hasMessageContaining("/fake.gsd/frame");
        assertThat(Files.isRegularFile(tree.getPath("/fake.gsd"))).isTrue();
        Files.writeString(dir.resolve("fake.gsd"), "other text, of another size");
        assertThat(Files.isDirectory(tree.getPath("/fake.gsd"))).as("a changed file is asked again").isTrue();
    }

    @Test
    void aDirectoryNamedLikeAContainerIsADirectory() throws IOException {
        Files.createDirectories(dir.resolve("results.lime"));
        Files.writeString(dir.resolve("results.lime/summary.txt"), "sum");
        try (Stream<Path> s = Files.list(tree.getPath("/results.lime"))) {
            assertThat(s.map(Path::toString)).containsExactly("/results.lime/summary.txt");
        }
        assertThat(Files.readString(tree.getPath("/results.lime/summary.txt"))).isEqualTo("sum");
        assertThat(tree.containersOpened()).isZero();
    }

    @Test
    void anEvictedContainerReopensThroughThePersistedIndexCache(@TempDir Path cacheDir) throws IOException {
        Ensembles.copy(dir.resolve("ildg.lime"), dir.resolve("other.lime"));
        // entries are written only for containers not modified in the last two seconds (docs/index-cache.md)
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        Files.setLastModifiedTime(dir.resolve("ildg.lime"), old);
        Files.setLastModifiedTime(dir.resolve("other.lime"), old);
        Map<String, Object> env = Map.of("cacheContainers", 1, "indexCache", cacheDir.toString(), "indexCacheMinSize", 0);
        try (EnsembleFileSystem cached = ContainerFileSystems.openTree(dir, env)) {
            Map<String, String> first = Ensembles.snapshot(cached.getPath("/ildg.lime"));
            assertThat(first).containsKey("msg01/rec01.scidac-private-file-xml");
            Ensembles.snapshot(cached.getPath("/other.lime")); // evicts ildg.lime
            assertThat(cached.containersOpen()).isEqualTo(1);
            // The first record's type changes in place, size and modification time kept: the same identity
            // for the index cache, so a reopen from its entry still shows the old name; a scan would not.
            try (var ch = Files.newByteChannel(dir.resolve("ildg.lime"), StandardOpenOption.WRITE)) {
                ch.position(16).write(ByteBuffer.wrap(new byte[] {'S'}));
            }
            Files.setLastModifiedTime(dir.resolve("ildg.lime"), old);
            assertThat(Ensembles.snapshot(cached.getPath("/ildg.lime")).keySet()).isEqualTo(first.keySet());
            assertThat(cached.containersOpened()).isEqualTo(3);
        }
        try (EnsembleFileSystem scanning = ContainerFileSystems.openTree(dir, Map.of("indexCache", "off"))) {
            assertThat(Ensembles.snapshot(scanning.getPath("/ildg.lime")))
                    .containsKey("msg01/rec01.Scidac-private-file-xml");
        }
    }
}
