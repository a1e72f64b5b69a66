package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.spi.FileSystemProvider;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.lime.LimeFileSystemProvider;
import org.containerfs.spi.ContainerFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening and closing: detection by magic, the lime: URI scheme, and the env options the core reads. */
class FileSystemLifecycleTest {
    @TempDir
    Path dir;

    private static FileSystemProvider limeProvider() {
        return FileSystemProvider.installedProviders().stream()
                .filter(p -> p.getScheme().equals("lime")).findFirst().orElseThrow();
    }

    private static List<String> list(Path directory) throws IOException {
        try (Stream<Path> s = Files.list(directory)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    @Test
    void theLimeProviderIsInstalledUnderItsScheme() {
        assertThat(limeProvider()).isInstanceOf(LimeFileSystemProvider.class);
    }

    @Test
    void newFileSystemOfAPathFindsTheProviderByMagicWhateverTheFileIsCalled() throws IOException {
        for (String name : new String[] {"conf.lime", "conf.00200", "conf", "conf.zip.bak", "conf.ildg"}) {
            Path file = TestContainers.copyCorpus("s02_lime_writer_test1.lime", dir.resolve(name));
            try (FileSystem fs = FileSystems.newFileSystem(file)) {
                assertThat(fs.provider()).as(name).isInstanceOf(LimeFileSystemProvider.class);
                assertThat(fs.isOpen()).isTrue();
                assertThat(fs.isReadOnly()).as("read-only unless asked").isTrue();
                assertThat(list(fs.getPath("/"))).containsExactly("msg01", "msg02", "msg03");
            }
        }
        // a real file with no extension at all
        try (FileSystem fs = FileSystems.newFileSystem(TestContainers.corpus("cl2qcd_conf.00200"))) {
            assertThat(list(fs.getPath("/"))).containsExactly("msg01", "msg02", "msg03", "msg04");
        }
    }

    @Test
    void aFileWithoutTheMagicIsNotALimeContainer() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a container at all, just some words");
        assertThatThrownBy(() -> FileSystems.newFileSystem(text)).isInstanceOf(ProviderNotFoundException.class);
        assertThatThrownBy(() -> limeProvider().newFileSystem(text, Map.of()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("notes.txt").hasMessageContaining("not a lime container");
        // the same bytes with the lime extension are still refused: the magic decides, not the name
        Path named = Files.writeString(dir.resolve("notes.lime"), "not a container at all, just some words");
        assertThatThrownBy(() -> limeProvider().newFileSystem(named, Map.of()))
                .isInstanceOf(UnsupportedOperationException.class);
        // env format=lime turns "not mine" into a format error naming the file, the offset and what was expected
        assertThatThrownBy(() -> limeProvider().newFileSystem(text, Map.of("format", "lime")))
                .isInstanceOf(ContainerFormatException.class)
                .hasMessageContaining("notes.txt").hasMessageContaining("magic");
        Path empty = Files.write(dir.resolve("empty.dat"), new byte[0]);
        assertThatThrownBy(() -> FileSystems.newFileSystem(empty)).isInstanceOf(ProviderNotFoundException.class);
    }

    @Test
    void anEmptyFileIsAnEmptyContainerWhenItsNameOrTheEnvSaysLime() throws IOException {
        Path empty = Files.write(dir.resolve("empty.lime"), new byte[0]);
        try (FileSystem fs = FileSystems.newFileSystem(empty)) {
            assertThat(list(fs.getPath("/"))).isEmpty();
            assertThat(Files.readAttributes(fs.getPath("/"), "lime:records")).containsEntry("records", 0);
        }
        Path emptyDat = Files.write(dir.resolve("empty.dat"), new byte[0]);
        try (FileSystem fs = FileSystems.newFileSystem(emptyDat, Map.of("format", "lime"))) {
            assertThat(list(fs.getPath("/"))).isEmpty();
        }
    }

    @Test
    void theLimeUriSchemeOpensFindsAndForgetsFileSystems() throws IOException {
        Path file = TestContainers.copyCorpus("s03_multi_msg_pack.lime", dir.resolve("pack.lime"));
        URI uri = URI.create("lime:" + file.toUri());
        assertThatThrownBy(() -> FileSystems.getFileSystem(uri)).isInstanceOf(FileSystemNotFoundException.class);
        assertThatThrownBy(() -> Paths.get(URI.create(uri + "!/msg01"))).isInstanceOf(FileSystemNotFoundException.class);

        FileSystem fs = FileSystems.newFileSystem(uri, Map.of());
        try {
            assertThat(FileSystems.getFileSystem(uri)).isSameAs(fs);
            assertThat(FileSystems.getFileSystem(URI.create(uri + "!/msg02/rec01.text-utf8"))).isSameAs(fs);
            assertThatThrownBy(() -> FileSystems.newFileSystem(uri, Map.of()))
                    .isInstanceOf(FileSystemAlreadyExistsException.class)
                    .hasMessageContaining("pack.lime");
            Path record = Paths.get(URI.create(uri + "!/msg02/rec01.text-utf8"));
            assertThat(record.getFileSystem()).isSameAs(fs);
            assertThat(record).isEqualTo(fs.getPath("/msg02/rec01.text-utf8"));
            assertThat(Files.size(record)).isEqualTo(20);
            assertThat(record.toUri()).isEqualTo(URI.create(uri + "!/msg02/rec01.text-utf8"));
        } finally {
            fs.close();
        }
        assertThat(fs.isOpen()).isFalse();
        assertThatThrownBy(() -> FileSystems.getFileSystem(uri)).isInstanceOf(FileSystemNotFoundException.class);
        assertThatThrownBy(() -> Paths.get(URI.create(uri + "!/msg01"))).isInstanceOf(FileSystemNotFoundException.class);
        // and it opens again once closed
        try (FileSystem again = FileSystems.newFileSystem(uri, Map.of())) {
            assertThat(again).isNotSameAs(fs);
            assertThat(FileSystems.getFileSystem(uri)).isSameAs(again);
        }
    }

    @Test
    void twoThreadsOpeningOneUriGetOneFileSystemAndOneAlreadyExists() throws Exception {
        Path file = TestContainers.copyCorpus("s04_padding_len_0_to_17.lime", dir.resolve("race.lime"));
        URI uri = URI.create("lime:" + file.toUri());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int trial = 0; trial < 40; trial++) {
                java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(2);
                List<java.util.concurrent.Future<FileSystem>> opens = new java.util.ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    opens.add(pool.submit(() -> {
                        barrier.await();
                        try {
                            return FileSystems.newFileSystem(uri, Map.of());
                        } catch (FileSystemAlreadyExistsException e) {
                            return null;
                        }
                    }));
                }
                List<FileSystem> opened = new java.util.ArrayList<>();
                for (var f : opens) {
                    FileSystem fs = f.get(30, java.util.concurrent.TimeUnit.SECONDS);
                    if (fs != null) {
                        opened.add(fs);
                    }
                }
                try {
                    assertThat(opened).as("trial %d", trial).hasSize(1);
                    assertThat(FileSystems.getFileSystem(uri)).isSameAs(opened.get(0));
                } finally {
                    for (FileSystem fs : opened) {
                        fs.close();
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aUriOfAnotherSchemeIsRefused() {
        URI zip = URI.create("jar:file:///tmp/x.zip!/a");
        assertThatThrownBy(() -> limeProvider().getFileSystem(zip)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lime");
        assertThatThrownBy(() -> limeProvider().newFileSystem(zip, Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> limeProvider().getPath(zip)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void accessModeSelectsReadOnlyOrReadWriteAndRejectsAnythingElse() throws IOException {
        Path file = TestContainers.copyCorpus("s01_single_record.lime", dir.resolve("one.lime"));
        try (FileSystem fs = FileSystems.newFileSystem(file, Map.of("accessMode", "readOnly"))) {
            assertThat(fs.isReadOnly()).isTrue();
            assertThat(Files.getFileStore(fs.getPath("/")).isReadOnly()).isTrue();
        }
        try (FileSystem fs = FileSystems.newFileSystem(file, Map.of("accessMode", "readWrite"))) {
            assertThat(fs.isReadOnly()).isFalse();
            assertThat(Files.getFileStore(fs.getPath("/")).isReadOnly()).isFalse();
        }
        assertThatThrownBy(() -> limeProvider().newFileSystem(file, Map.of("accessMode", "rw")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("readOnly or readWrite").hasMessageContaining("rw");
        assertThatThrownBy(() -> limeProvider().newFileSystem(file, Map.of("create", "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("create").hasMessageContaining("true or false");
    }

    @Test
    void createCannotBeReadOnly() {
        Path missing = dir.resolve("never.lime");
        assertThatThrownBy(() -> limeProvider().newFileSystem(missing, Map.of("create", "true", "accessMode", "readOnly")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("create=true").hasMessageContaining("readOnly");
        assertThat(missing).doesNotExist();
    }

    @Test
    void aDirectoryIsNoContainer() throws IOException {
        assertThatThrownBy(() -> FileSystems.newFileSystem(dir)).isInstanceOf(ProviderNotFoundException.class);
        Path named = Files.createDirectory(dir.resolve("looks.lime"));
        assertThatThrownBy(() -> limeProvider().newFileSystem(named, Map.of()))
                .isExactlyInstanceOf(FileSystemException.class)
                .hasMessageContaining("looks.lime").hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> limeProvider().newFileSystem(named, Map.of("create", "true")))
                .isExactlyInstanceOf(FileSystemException.class);
    }

    @Test
    void oneWriterAtATime() throws IOException {
        Path file = TestContainers.copyCorpus("s01_single_record.lime", dir.resolve("one.lime"));
        try (FileSystem writer = FileSystems.newFileSystem(file, Map.of("accessMode", "readWrite"))) {
            assertThatThrownBy(() -> limeProvider().newFileSystem(file, Map.of("accessMode", "readWrite")))
                    .isInstanceOf(FileSystemException.class)
                    .hasMessageContaining("one.lime").hasMessageContaining("already open for writing");
            // readers are welcome meanwhile
            try (FileSystem reader = limeProvider().newFileSystem(file, Map.of())) {
                assertThat(list(reader.getPath("/"))).containsExactly("msg01");
            }
            assertThat(writer.isOpen()).isTrue();
        }
        // the lock went with the writer
        try (FileSystem again = FileSystems.newFileSystem(file, Map.of("accessMode", "readWrite"))) {
            assertThat(again.isReadOnly()).isFalse();
        }
    }

    @Test
    void createMakesANewContainerOnlyWhenAsked() throws IOException {
        Path missing = dir.resolve("new.lime");
        assertThatThrownBy(() -> limeProvider().newFileSystem(missing, Map.of()))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("new.lime").hasMessageContaining("create=true");
        assertThat(missing).doesNotExist();

        try (FileSystem fs = limeProvider().newFileSystem(missing, Map.of("create", "true"))) {
            assertThat(fs.isReadOnly()).as("create implies readWrite").isFalse();
            assertThat(list(fs.getPath("/"))).isEmpty();
            Files.createDirectory(fs.getPath("/msg01"));
            Files.writeString(fs.getPath("/msg01/rec01.hello"), "hello");
        }
        try (FileSystem fs = FileSystems.newFileSystem(missing)) {
            assertThat(Files.readString(fs.getPath("/msg01/rec01.hello"))).isEqualTo("hello");
        }
        // create=true on an existing container opens it for appending, leaving what is there
        try (FileSystem fs = limeProvider().newFileSystem(missing, Map.of("create", true))) {
            assertThat(list(fs.getPath("/msg01"))).containsExactly("rec01.hello");
        }
    }

    @Test
    void createOfAFileWithoutTheLimeNameNeedsTheFormat() throws IOException {
        Path missing = dir.resolve("conf.00300");
        assertThatThrownBy(() -> limeProvider().newFileSystem(missing, Map.of("create", "true")))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("conf.00300").hasMessageContaining("lime");
        Map<String, Object> env = new HashMap<>();
        env.put("create", "true");
        env.put("format", "lime");
        try (FileSystem fs = limeProvider().newFileSystem(missing, env)) {
            Files.createDirectory(fs.getPath("/msg01"));
            Files.write(fs.getPath("/msg01/rec01"), "typeless".getBytes(StandardCharsets.US_ASCII));
        }
        try (FileSystem fs = FileSystems.newFileSystem(missing)) {
            assertThat(Files.readString(fs.getPath("/msg01/rec01"))).isEqualTo("typeless");
        }
    }

    @Test
    void createThroughTheLimeUri() throws IOException {
        // FileSystems.newFileSystem(path, {create=true}) asks zipfs first, and zipfs creates an empty
        // zip under any name; the lime: URI (or the provider itself) is the way to create a container.
        Path file = dir.resolve("made by uri.lime");
        URI uri = URI.create("lime:" + file.toUri());
        try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of("create", "true"))) {
            assertThat(fs.provider()).isInstanceOf(LimeFileSystemProvider.class);
            Files.createDirectory(fs.getPath("/msg01"));
            Files.writeString(fs.getPath("/msg01/rec01.via-uri"), "made");
        }
        try (FileSystem fs = FileSystems.newFileSystem(file)) {
            assertThat(Files.readString(fs.getPath("/msg01/rec01.via-uri"))).isEqualTo("made");
        }
    }

    @Test
    void anotherFormatNamedInTheEnvIsNotThisProvidersBusiness() throws IOException {
        Path file = TestContainers.copyCorpus("s01_single_record.lime", dir.resolve("one.lime"));
        assertThatThrownBy(() -> limeProvider().newFileSystem(file, Map.of("format", "gsd")))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("gsd").hasMessageContaining("lime");
        try (FileSystem fs = limeProvider().newFileSystem(file, Map.of("format", "LIME"))) {
            assertThat(list(fs.getPath("/"))).containsExactly("msg01");
        }
    }

    @Test
    void aReadOnlyFileSystemSeesRecordsAppendedMeanwhile() throws IOException {
        Path file = TestContainers.copyCorpus("s01_single_record.lime", dir.resolve("live.lime"));
        try (FileSystem reader = FileSystems.newFileSystem(file)) {
            assertThat(list(reader.getPath("/"))).containsExactly("msg01");
            try (FileSystem writer = FileSystems.newFileSystem(file, Map.of("accessMode", "readWrite"))) {
                Files.createDirectory(writer.getPath("/msg02"));
                Files.writeString(writer.getPath("/msg02/rec01.later"), "appended later");
            }
            assertThat(list(reader.getPath("/"))).containsExactly("msg01", "msg02");
            assertThat(Files.readString(reader.getPath("/msg02/rec01.later"))).isEqualTo("appended later");
        }
        // refresh=false freezes the view at open time
        try (FileSystem frozen = limeProvider().newFileSystem(file, Map.of("refresh", "false"))) {
            try (FileSystem writer = FileSystems.newFileSystem(file, Map.of("accessMode", "readWrite"))) {
                Files.createDirectory(writer.getPath("/msg03"));
                Files.writeString(writer.getPath("/msg03/rec01.unseen"), "x");
            }
            assertThat(list(frozen.getPath("/"))).containsExactly("msg01", "msg02");
            assertThat(Files.exists(frozen.getPath("/msg03"))).isFalse();
        }
    }
}
