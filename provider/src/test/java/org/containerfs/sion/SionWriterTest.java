package org.containerfs.sion;

import org.containerfs.core.ContainerFileSystems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Create-only writing: staged tasks, one chunk per task, atomic rename; siondefrag's layout byte for byte. */
class SionWriterTest {
    @TempDir
    Path dir;

    /**
     * The installed sion provider. {@code FileSystems.newFileSystem(path, {create=true})} would reach
     * the JDK's zip provider first, which accepts any new path.
     */
    static java.nio.file.spi.FileSystemProvider sion() {
        return java.nio.file.spi.FileSystemProvider.installedProviders().stream()
                .filter(p -> p.getScheme().equals("sion")).findFirst().orElseThrow();
    }

    static FileAttribute<Long> globalRank(long rank) {
        return ContainerFileSystems.attribute("sion:globalRank", rank);
    }

    private static List<String> siblings(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** The streams of multiblock_bs512.sion, as the reader serves them. */
    private static List<byte[]> multiblockStreams() throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (FileSystem fs = FileSystems.newFileSystem(SionCorpusTest.corpus().resolve("multiblock_bs512.sion"), Map.of())) {
            for (int t = 0; t < 3; t++) {
                out.add(Files.readAllBytes(fs.getPath(String.format("/task%06d", t))));
            }
        }
        return out;
    }

    private static void writeTasks(Path target, Map<String, ?> env, List<byte[]> tasks) throws IOException {
        try (FileSystem fs = sion().newFileSystem(target, env)) {
            for (int t = 0; t < tasks.size(); t++) {
                Files.write(fs.getPath(String.format("/task%06d", t)), tasks.get(t));
            }
        }
    }

    @Test
    void sameTaskDataAndBlockSizeGiveSiondefragsBytesExactly() throws IOException {
        byte[] expected = Files.readAllBytes(SionCorpusTest.corpus().resolve("defrag_q1_from_multiblock.sion"));
        Path target = dir.resolve("defrag_q1_from_multiblock.sion");
        // siondefrag stores the output name as given on its command line; env prefix reproduces it
        writeTasks(target, Map.of("create", "true", "blockSize", 1,
                "prefix", "/tmp/research-sion/gen/out/defrag_q1_from_multiblock.sion"), multiblockStreams());
        assertThat(Files.readAllBytes(target)).isEqualTo(expected);
    }

    @Test
    void withoutPrefixOptionOnlyThePrefixFieldDiffers() throws IOException {
        byte[] expected = Files.readAllBytes(SionCorpusTest.corpus().resolve("defrag_q1_from_multiblock.sion"));
        Path target = dir.resolve("out.sion");
        writeTasks(target, Map.of("create", "true", "blockSize", "1"), multiblockStreams());
        byte[] actual = Files.readAllBytes(target);
        assertThat(actual).hasSameSizeAs(expected);
        List<Integer> differing = new ArrayList<>();
        for (int i = 0; i < actual.length; i++) {
            if (actual[i] != expected[i]) {
                differing.add(i);
            }
        }
        assertThat(differing).isNotEmpty().allSatisfy(i -> assertThat(i).isBetween(52, 52 + 1024 - 1));
        assertThat(new String(actual, 52, 7)).isEqualTo("out.sio");
    }

    @Test
    void roundTripWithGlobalRanksBlockSize1000AndAnEmptyTask() throws IOException {
        Path target = dir.resolve("new.sion");
        byte[] a = SionBytes.filled(2500, 1);
        byte[] c = SionBytes.filled(1000, 3);
        try (FileSystem fs = sion().newFileSystem(target, Map.of("create", "true", "blockSize", 1000))) {
            try (OutputStream out = Files.newOutputStream(fs.getPath("/task000000"), StandardOpenOption.CREATE_NEW)) {
                // streamed in pieces
                out.write(a, 0, 1000);
                out.write(a, 1000, 1500);
            }
            Files.newByteChannel(fs.getPath("/task000001"), java.util.Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), globalRank(99)).close();
            Files.newByteChannel(fs.getPath("/task000002"), java.util.Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), globalRank(7)).write(java.nio.ByteBuffer.wrap(c));
            // staged tasks are visible and readable before the file is assembled
            assertThat(Files.readAllBytes(fs.getPath("/task000000"))).isEqualTo(a);
        }
        assertThat(siblings(dir)).containsExactly("new.sion");
        try (FileSystem fs = sion().newFileSystem(target, Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/task000000"))).isEqualTo(a);
            assertThat(Files.size(fs.getPath("/task000001"))).isZero();
            assertThat(Files.readAllBytes(fs.getPath("/task000002"))).isEqualTo(c);
            assertThat(Files.getAttribute(fs.getPath("/task000000"), "sion:globalRank")).isEqualTo(0L);
            assertThat(Files.getAttribute(fs.getPath("/task000001"), "sion:globalRank")).isEqualTo(99L);
            assertThat(Files.getAttribute(fs.getPath("/task000002"), "sion:globalRank")).isEqualTo(7L);
            assertThat(Files.getAttribute(fs.getPath("/task000000"), "sion:capacity")).isEqualTo(3000L);
            assertThat(Files.getAttribute(fs.getPath("/task000001"), "sion:capacity")).isEqualTo(0L);
            assertThat((long[]) Files.getAttribute(fs.getPath("/task000002"), "sion:chunkOffsets"))
                    .containsExactly(2000L + 3000L); // start of data = roundup(1088 + 48, 1000)
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "sion:*");
            assertThat(root.get("blockSize")).isEqualTo(1000);
            assertThat(root.get("maxChunks")).isEqualTo(1);
            assertThat(root.get("fileNumber")).isEqualTo(1);
            assertThat(root.get("writerVersion")).isEqualTo("1.7p6");
            assertThat(root.get("flag1")).isEqualTo(50L << 32);
            assertThat(root.get("prefix")).isEqualTo("new.sion");
        }
        assertThat(Files.size(target)).isEqualTo(5000 + 1000 + 3 * 16 + 4);
    }

    @Test
    void tasksAreStagedInAFileNextToTheTargetNotInMemory() throws IOException {
        Path target = dir.resolve("staged.sion");
        try (FileSystem fs = sion().newFileSystem(target, Map.of("create", "true", "blockSize", 512))) {
            try (OutputStream out = Files.newOutputStream(fs.getPath("/task000000"))) {
                out.write(new byte[300_000]);
                out.flush();
                assertThat(Files.size(dir.resolve(".staged.sion.sion-staging"))).isEqualTo(300_000);
            }
            // nothing is committed before close: the target appears only then
            assertThat(Files.exists(target)).isFalse();
        }
        assertThat(siblings(dir)).containsExactly("staged.sion");
        assertThat(Files.size(target)).isEqualTo(1536 + 300_032 + 16 + 4);
    }

    @Test
    void tasksMustBeWrittenUnderTheNextNameAndNeverChanged() throws IOException {
        Path target = dir.resolve("order.sion");
        try (FileSystem fs = sion().newFileSystem(target, Map.of("create", "true", "blockSize", 512))) {
            assertThatThrownBy(() -> Files.write(fs.getPath("/task000001"), new byte[1]))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("the next task is task000000");
            assertThatThrownBy(() -> Files.write(fs.getPath("/task0"), new byte[1]))
                    .isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/task000000")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("no directories");
            Files.write(fs.getPath("/task000000"), new byte[] {1, 2, 3});
            assertThatThrownBy(() -> Files.write(fs.getPath("/task000000"), new byte[1]))
                    .isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> Files.newByteChannel(fs.getPath("/task000001"),
                    java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    ContainerFileSystems.attribute("sion:capacity", "1"))).isInstanceOf(AccessDeniedException.class).hasMessageContaining("sion:capacity");
            try (var first = Files.newOutputStream(fs.getPath("/task000001"))) {
                first.write(9);
                assertThatThrownBy(() -> Files.write(fs.getPath("/task000002"), new byte[1]))
                        .isInstanceOf(IOException.class).hasMessageContaining("task000001 is still being written");
            }
        }
        try (FileSystem fs = sion().newFileSystem(target, Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/task000001"))).containsExactly(9);
        }
    }

    @Test
    void withoutBlockSizeTheFileStoresBlockSizeIsUsedAsSionlibDoes() throws IOException {
        Path target = dir.resolve("default.sion");
        writeTasks(target, Map.of("create", "true"), List.of(new byte[] {1, 2}));
        long expected;
        try {
            expected = Files.getFileStore(dir).getBlockSize();
        } catch (UnsupportedOperationException e) {
            expected = 4096;
        }
        try (FileSystem fs = sion().newFileSystem(target, Map.of())) {
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:blockSize"))
                    .isEqualTo((int) (expected > 32L << 20 ? 2L << 20 : expected));
            assertThat(Files.readAllBytes(fs.getPath("/task000000"))).containsExactly(1, 2);
        }
    }

    @Test
    void badBlockSizeIsRefusedAndLeavesNothingBehind() throws IOException {
        Path target = dir.resolve("bad.sion");
        assertThatThrownBy(() -> sion().newFileSystem(target, Map.of("create", "true", "blockSize", 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blockSize");
        assertThat(siblings(dir)).isEmpty();
    }

    @Test
    void anExistingEmptyFileIsNotOverwritten() throws IOException {
        Path target = dir.resolve("empty.sion");
        Files.write(target, new byte[0]);
        assertThatThrownBy(() -> sion().newFileSystem(target, Map.of("create", "true", "blockSize", 512)))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class)
                .hasMessageContaining("does not exist");
        assertThat(siblings(dir)).containsExactly("empty.sion");
    }

    @Test
    void aSecondWriterOfTheSameNewFileIsRefusedWhileTheFirstIsOpen() throws IOException {
        Path target = dir.resolve("twice.sion");
        try (FileSystem first = sion().newFileSystem(target, Map.of("create", "true", "blockSize", 512))) {
            Files.write(first.getPath("/task000000"), new byte[] {1});
            assertThatThrownBy(() -> sion().newFileSystem(dir.resolve("./twice.sion"),
                    Map.of("create", "true", "blockSize", 512)))
                    .isInstanceOf(java.nio.file.FileSystemException.class);
        }
        try (FileSystem fs = sion().newFileSystem(target, Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/task000000"))).containsExactly(1);
        }
    }

    @Test
    void aFileSystemClosedWithoutTasksLeavesAValidEmptySionFile() throws IOException {
        Path target = dir.resolve("none.sion");
        sion().newFileSystem(target, Map.of("create", "true", "blockSize", 512)).close();
        try (FileSystem fs = sion().newFileSystem(target, Map.of())) {
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:tasks")).isEqualTo(0);
        }
        assertThat(siblings(dir)).containsExactly("none.sion");
    }

    @Test
    void leftoversOfAKilledWriterAreReplacedByTheNextCreate() throws IOException {
        Path target = dir.resolve("again.sion");
        // what a writer killed before (or during) its commit leaves: no target, staging and commit files
        Files.write(dir.resolve(".again.sion.sion-staging"), new byte[1234]);
        Files.write(dir.resolve(".again.sion.sion-commit"), new byte[99]);
        assertThatThrownBy(() -> sion().newFileSystem(target, Map.of()))
                .isInstanceOf(java.nio.file.NoSuchFileException.class);
        writeTasks(target, Map.of("create", "true", "blockSize", 16), List.of(new byte[] {5}));
        assertThat(siblings(dir)).containsExactly("again.sion");
        try (FileSystem fs = sion().newFileSystem(target, Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/task000000"))).containsExactly(5);
        }
    }

    @Test
    void writesOnJimfsAndBigEndianUserDataLabel() throws IOException {
        try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
            Path target = mem.getPath("/out.sion");
            List<byte[]> streams = multiblockStreams();
            writeTasks(target, Map.of("create", "true", "blockSize", 512, "endianness", "big"), streams);
            assertThat(siblings(mem.getPath("/"))).containsExactly("out.sion", "work");
            try (FileSystem fs = sion().newFileSystem(target, Map.of("chunks", "true"))) {
                for (int t = 0; t < 3; t++) {
                    Path c = fs.getPath(String.format("/task%06d/chunk000000", t));
                    assertThat(Files.readAllBytes(c)).isEqualTo(streams.get(t));
                }
                assertThat(Files.getAttribute(fs.getPath("/"), "sion:userDataEndianness")).isEqualTo("big");
                assertThat(Files.getAttribute(fs.getPath("/"), "sion:endianness")).isEqualTo("little");
                assertThat((long[]) Files.getAttribute(fs.getPath("/"), "sion:chunkSizesStored"))
                        .containsExactly(1536L, 512L, 1024L);
            }
            assertThat(Arrays.copyOfRange(Files.readAllBytes(target), 4, 8)).containsExactly(0, 1, 1, 0);
        }
    }
}
