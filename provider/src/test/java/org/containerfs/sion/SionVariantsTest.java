package org.containerfs.sion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.spi.UnsupportedVersionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Variants the reference corpus lacks, built from sion.md's layout: older file-format versions,
 * odd block sizes, key-value files, multi-file sets, killed writers and hostile headers.
 */
class SionVariantsTest {
    @TempDir
    Path dir;

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static List<String> list(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toList());
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    @ParameterizedTest(name = "ffv {0}")
    @ValueSource(ints = {2, 3, 4, 5})
    void olderFileFormatVersionsAlignRequestedChunkSizes(int ffv) throws IOException {
        byte[] a0 = SionBytes.filled(100, 1);
        byte[] a1 = SionBytes.filled(300, 2);
        byte[] b0 = SionBytes.filled(700, 3);
        SionBytes s = SionBytes.of(new byte[][][] {{a0, a1}, {b0}});
        s.ffv = ffv;
        s.blockSize = 512;
        // ffv <= 3 stores the requested sizes (300, 700); readers round them up to 512 and 1024
        s.chunkSizes = ffv <= 3 ? new long[] {300, 700} : new long[] {512, 1024};
        Path p = write("old" + ffv + ".sion", s.build());
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/task000000"))).isEqualTo(concat(a0, a1));
            assertThat(Files.readAllBytes(fs.getPath("/task000001"))).isEqualTo(b0);
            assertThat(Files.getAttribute(fs.getPath("/task000001"), "sion:capacity")).isEqualTo(1024L);
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:fileFormatVersion")).isEqualTo(ffv);
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:prefix")).isEqualTo("synthetic.sion");
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:fileNumber")).isEqualTo(ffv >= 3 ? 1 : -1);
            // key-value mode exists from ffv 5 only; flag1 is ignored before
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:keyValueMode")).isEqualTo(50);
        }
    }

    @ParameterizedTest(name = "block size {0}")
    @ValueSource(ints = {1, 7, 1000})
    void blockSizesThatAreNotPowersOfTwo(int blockSize) throws IOException {
        byte[][][] data = {{SionBytes.filled(1500, 1), SionBytes.filled(20, 2)}, {}, {SionBytes.filled(999, 3)}};
        SionBytes s = SionBytes.of(data);
        s.blockSize = blockSize;
        s.order = ByteOrder.BIG_ENDIAN;
        Path p = write("bs" + blockSize + ".sion", s.build());
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/task000000"))).isEqualTo(concat(data[0][0], data[0][1]));
            assertThat(Files.size(fs.getPath("/task000001"))).isZero();
            assertThat(Files.readAllBytes(fs.getPath("/task000002"))).isEqualTo(data[2][0]);
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:startOfData"))
                    .isEqualTo(SionBytes.roundUp(1088 + 48, blockSize));
        }
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of("chunks", true))) {
            // a task that never wrote: one empty chunk
            assertThat(list(fs.getPath("/task000001"))).containsExactly("chunk000000");
            assertThat(Files.size(fs.getPath("/task000001/chunk000000"))).isZero();
            assertThat(list(fs.getPath("/task000000"))).containsExactly("chunk000000", "chunk000001");
        }
    }

    @ParameterizedTest(name = "metadata {0}")
    @ValueSource(strings = {"LITTLE_ENDIAN", "BIG_ENDIAN"})
    void keyValueInlineTasksAreDirectoriesOfKeys(String orderName) throws IOException {
        ByteOrder order = orderName.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        byte[] v1 = SionBytes.filled(100, 1);
        byte[] v2 = SionBytes.filled(250, 2);
        byte[] v3 = SionBytes.filled(40, 3);
        byte[] stream = SionBytes.records(order, 7, v1, -1L, v2, 7, v3, 12, new byte[0]);
        // split the stream over two chunks in the middle of the second record's header
        int cut = 16 + 100 + 5;
        byte[] c0 = java.util.Arrays.copyOfRange(stream, 0, cut);
        byte[] c1 = java.util.Arrays.copyOfRange(stream, cut, stream.length);
        byte[] other = SionBytes.records(order, 3, v3);
        SionBytes s = SionBytes.of(new byte[][][] {{c0, c1}, {other}});
        s.order = order;
        s.flag1 = 51L << 32;
        s.blockSize = 256;
        s.chunkSizes = new long[] {512, 256};
        Path p = write("kv.sion", s.build());
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of())) {
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:keyValueModeName")).isEqualTo("inline");
            assertThat(Files.isDirectory(fs.getPath("/task000000"))).isTrue();
            assertThat(list(fs.getPath("/task000000")))
                    .containsExactly("stream", "key-7", "key-18446744073709551615", "key-12");
            assertThat(Files.readAllBytes(fs.getPath("/task000000/stream"))).isEqualTo(stream);
            assertThat(Files.readAllBytes(fs.getPath("/task000000/key-7"))).isEqualTo(concat(v1, v3));
            assertThat(Files.readAllBytes(fs.getPath("/task000000/key-18446744073709551615"))).isEqualTo(v2);
            assertThat(Files.size(fs.getPath("/task000000/key-12"))).isZero();
            assertThat(Files.getAttribute(fs.getPath("/task000000/key-7"), "sion:records")).isEqualTo(2);
            assertThat(Files.exists(fs.getPath("/task000000/key-8"))).isFalse();
            assertThat(Files.exists(fs.getPath("/task000000/key-07"))).isFalse();
            assertThat(list(fs.getPath("/task000001"))).containsExactly("stream", "key-3");
        }
        // chunks=true shows the raw chunks instead
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of("chunks", "true"))) {
            assertThat(Files.readAllBytes(fs.getPath("/task000000/chunk000001"))).isEqualTo(c1);
        }
    }

    @Test
    void keyValueRecordLongerThanTheStreamIsReportedWhenTheTaskIsListed() throws IOException {
        ByteBuffer bad = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN).putLong(1).putLong(1L << 40);
        SionBytes s = SionBytes.of(new byte[][][] {{bad.array()}});
        s.flag1 = 51L << 32;
        Path p = write("kvbad.sion", s.build());
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of())) {
            assertThatThrownBy(() -> list(fs.getPath("/task000000")))
                    .isInstanceOf(ContainerFormatException.class)
                    .hasMessageContaining("task000000").hasMessageContaining("key-value record of at most 24 bytes");
            assertThat(Files.readAllBytes(fs.getPath("/task000000/stream"))).isEqualTo(bad.array());
        }
    }

    @Test
    @Timeout(20)
    void zeroFilledKeyValueStreamIsOneEmptyKeyNotMillionsOfRecords() throws IOException {
        SionBytes s = SionBytes.of(new byte[][][] {{new byte[16 * 200_000]}});
        s.flag1 = 51L << 32;
        Path p = write("kvzero.sion", s.build());
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of())) {
            assertThat(list(fs.getPath("/task000000"))).containsExactly("stream", "key-0");
            assertThat(Files.size(fs.getPath("/task000000/key-0"))).isZero();
            assertThat(Files.getAttribute(fs.getPath("/task000000/key-0"), "sion:records")).isEqualTo(0);
        }
    }

    /** A set of two files: the first holds the mapping, the tree is in mapping order. */
    private Path writeSet(boolean withMember) throws IOException {
        byte[] t0 = SionBytes.filled(10, 1);
        byte[] t1 = SionBytes.filled(20, 2);
        byte[] t2 = SionBytes.filled(30, 3);
        byte[] t3 = SionBytes.filled(40, 4);
        SionBytes first = SionBytes.of(new byte[][][] {{t0}, {t2}});
        first.nfiles = 2;
        first.fileNumber = 0;
        first.prefix = "set.sion";
        first.globalRanks = new long[] {0, 2};
        // global order: file0/0, file1/0, file0/1, file1/1
        first.mapping = new int[] {0, 0, 1, 0, 0, 1, 1, 1};
        Path p = write("set.sion", first.build());
        if (withMember) {
            SionBytes member = SionBytes.of(new byte[][][] {{t1}, {t3}});
            member.nfiles = 2;
            member.fileNumber = 1;
            member.prefix = "set.sion";
            member.globalRanks = new long[] {1, 3};
            write("set.sion.000001", member.build());
        }
        return p;
    }

    @Test
    void multiFileSetOpenedByItsFirstFileIsOneTreeInMappingOrder() throws IOException {
        Path p = writeSet(true);
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of())) {
            assertThat(list(fs.getPath("/"))).containsExactly("task000000", "task000001", "task000002", "task000003");
            for (int g = 0; g < 4; g++) {
                Path task = fs.getPath(String.format("/task%06d", g));
                assertThat(Files.readAllBytes(task)).isEqualTo(SionBytes.filled(10 * (g + 1), g + 1));
                assertThat(Files.getAttribute(task, "sion:globalRank")).isEqualTo((long) g);
                assertThat(Files.getAttribute(task, "sion:physicalFile"))
                        .isEqualTo(g % 2 == 0 ? "set.sion" : "set.sion.000001");
                assertThat(Files.getAttribute(task, "sion:localRank")).isEqualTo(g / 2);
            }
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:tasks")).isEqualTo(4);
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:files")).isEqualTo(2);
            assertThat(openDescriptorsTo(dir.resolve("set.sion.000001"))).isEqualTo(1);
        }
        assertThat(openDescriptorsTo(dir.resolve("set.sion.000001"))).as("member closed with the file system").isZero();
        // A member opened alone shows its local tasks, as siondump does.
        try (FileSystem fs = FileSystems.newFileSystem(dir.resolve("set.sion.000001"), Map.of("format", "sion"))) {
            assertThat(list(fs.getPath("/"))).containsExactly("task000000", "task000001");
            assertThat(Files.readAllBytes(fs.getPath("/task000001"))).isEqualTo(SionBytes.filled(40, 4));
        }
    }

    /** Through a ContainerInput (an object store), the members are the input's siblings. */
    @Test
    void multiFileSetThroughAnInputReadsItsMembersAsSiblings() throws IOException {
        Path p = writeSet(true);
        org.containerfs.core.CountingInput input = org.containerfs.core.CountingInput.of(p);
        try (FileSystem fs = org.containerfs.core.ContainerFileSystems.open(input, Map.of())) {
            assertThat(list(fs.getPath("/"))).containsExactly("task000000", "task000001", "task000002", "task000003");
            for (int g = 0; g < 4; g++) {
                Path task = fs.getPath(String.format("/task%06d", g));
                assertThat(Files.readAllBytes(task)).isEqualTo(SionBytes.filled(10 * (g + 1), g + 1));
                assertThat(Files.getAttribute(task, "sion:physicalFile"))
                        .isEqualTo(g % 2 == 0 ? "set.sion" : "set.sion.000001");
            }
        }
        assertThat(openDescriptorsTo(dir.resolve("set.sion.000001"))).as("member closed with the file system").isZero();
        Files.delete(dir.resolve("set.sion.000001"));
        assertThatThrownBy(() -> org.containerfs.core.ContainerFileSystems.open(
                org.containerfs.core.CountingInput.of(p), Map.of()))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("s3://bucket/set.sion.000001");
    }

    /** Open descriptors of this JVM that point at {@code file} (Linux /proc). */
    private static long openDescriptorsTo(Path file) throws IOException {
        Path fds = Path.of("/proc/self/fd");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(fds));
        Path target = file.toRealPath();
        long n = 0;
        try (Stream<Path> s = Files.list(fds)) {
            for (Path fd : (Iterable<Path>) s::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).equals(target)) {
                        n++;
                    }
                } catch (IOException ignored) {
                    // the descriptor of the listing itself, closed meanwhile
                }
            }
        }
        return n;
    }

    @Test
    void missingMemberOfASetIsNamed() throws IOException {
        Path p = writeSet(false);
        assertThatThrownBy(() -> FileSystems.newFileSystem(p, Map.of()))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("set.sion.000001");
    }

    @Test
    void setOnJimfsFindsItsMembersOnTheSameFileSystem() throws IOException {
        writeSet(true);
        try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
            Path d = mem.getPath("/data");
            Files.createDirectories(d);
            Files.copy(dir.resolve("set.sion"), d.resolve("set.sion"));
            Files.copy(dir.resolve("set.sion.000001"), d.resolve("set.sion.000001"));
            try (FileSystem fs = FileSystems.newFileSystem(d.resolve("set.sion"), Map.of())) {
                assertThat(Files.readAllBytes(fs.getPath("/task000003"))).isEqualTo(SionBytes.filled(40, 4));
            }
        }
    }

    @Test
    void missingMeta2IsRefusedUnlessRecoverIsAsked() throws IOException {
        byte[] a0 = SionBytes.filled(512, 1);
        byte[] a1 = SionBytes.filled(200, 2);
        byte[] b0 = SionBytes.filled(300, 3);
        SionBytes s = SionBytes.of(new byte[][][] {{a0, a1}, {b0}});
        s.killed = true;
        Path p = write("killed.sion", s.build());
        assertThatThrownBy(() -> FileSystems.newFileSystem(p, Map.of()))
                .isInstanceOf(ContainerFormatException.class)
                .hasMessageContaining("killed.sion")
                .hasMessageContaining("META2 is missing")
                .hasMessageContaining("recover=true");
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of("recover", "true"))) {
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:recovered")).isEqualTo(true);
            assertThat(fs.isReadOnly()).isTrue();
            Path t0 = fs.getPath("/task000000");
            assertThat(Files.getAttribute(t0, "sion:recovered")).isEqualTo(true);
            // block 0 is capacity-sized; block 1 is clipped at the end of the file (200 bytes)
            assertThat((long[]) Files.getAttribute(t0, "sion:chunkSizes")).containsExactly(512L, 200L);
            assertThat(Files.readAllBytes(t0)).isEqualTo(concat(a0, a1));
            // task 1 wrote 300 bytes of 512; the rest is what the disk holds (zeros); block 1 lies past the end
            byte[] t1 = Files.readAllBytes(fs.getPath("/task000001"));
            assertThat(t1).hasSize(512);
            assertThat(java.util.Arrays.copyOf(t1, 300)).isEqualTo(b0);
        }
    }

    @Test
    void fileCutShortAfterCloseIsTruncatedUnlessRecoverIsAsked() throws IOException {
        byte[] a0 = SionBytes.filled(400, 1);
        byte[] a1 = SionBytes.filled(100, 2);
        SionBytes s = SionBytes.of(new byte[][][] {{a0, a1}});
        byte[] whole = s.build();
        Path p = write("cut.sion", java.util.Arrays.copyOf(whole, (int) s.startOfData + 512 + 60));
        assertThatThrownBy(() -> FileSystems.newFileSystem(p, Map.of()))
                .isInstanceOf(TruncatedDataException.class).hasMessageContaining("recover=true");
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of("recover", true))) {
            assertThat((long[]) Files.getAttribute(fs.getPath("/task000000"), "sion:chunkSizes"))
                    .containsExactly(512L, 60L);
            byte[] t = Files.readAllBytes(fs.getPath("/task000000"));
            assertThat(java.util.Arrays.copyOfRange(t, 0, 400)).isEqualTo(a0);
            assertThat(java.util.Arrays.copyOfRange(t, 512, 572)).isEqualTo(java.util.Arrays.copyOf(a1, 60));
        }
    }

    @Test
    void hostileTaskCountIsCheckedAgainstTheFileSizeBeforeAllocating() throws IOException {
        byte[] bytes = SionBytes.of(new byte[][][] {{SionBytes.filled(10, 1)}}).build();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(24, Integer.MAX_VALUE);
        Path p = write("hostile.sion", bytes);
        assertThatThrownBy(() -> FileSystems.newFileSystem(p, Map.of()))
                .isInstanceOf(TruncatedDataException.class)
                .hasMessageContaining("hostile.sion")
                .hasMessageContaining(Integer.MAX_VALUE + " tasks");
    }

    @Test
    @Timeout(10)
    void hostileCountsInMeta2AreRefused() throws IOException {
        SionBytes s = SionBytes.of(new byte[][][] {{SionBytes.filled(10, 1)}, {SionBytes.filled(5, 2)}});
        byte[] good = s.build();
        int m13 = s.varStart + 16 * 2;

        byte[] maxChunks = good.clone();
        ByteBuffer.wrap(maxChunks).order(ByteOrder.LITTLE_ENDIAN).putInt(m13, Integer.MAX_VALUE);
        assertThatThrownBy(() -> FileSystems.newFileSystem(write("maxchunks.sion", maxChunks), Map.of()))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("maxusedchunks");

        byte[] mapping = good.clone();
        ByteBuffer.wrap(mapping).order(ByteOrder.LITTLE_ENDIAN).putInt(good.length - 4, Integer.MAX_VALUE);
        assertThatThrownBy(() -> FileSystems.newFileSystem(write("mapping.sion", mapping), Map.of()))
                .isInstanceOf(TruncatedDataException.class).hasMessageContaining("mapping_size");

        byte[] blockCount = good.clone();
        ByteBuffer.wrap(blockCount).order(ByteOrder.LITTLE_ENDIAN).putLong((int) s.startOfVarheader, 1L << 40);
        assertThatThrownBy(() -> FileSystems.newFileSystem(write("blockcount.sion", blockCount), Map.of()))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("task 0: expected a block count between 0 and maxusedchunks (1), found 1099511627776");

        byte[] used = good.clone();
        ByteBuffer.wrap(used).order(ByteOrder.LITTLE_ENDIAN).putLong((int) s.startOfVarheader + 16 + 8, 513);
        assertThatThrownBy(() -> FileSystems.newFileSystem(write("used.sion", used), Map.of()))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("task 1 block 0")
                .hasMessageContaining("capacity 512");

        byte[] capacity = good.clone();
        ByteBuffer.wrap(capacity).order(ByteOrder.LITTLE_ENDIAN).putLong(s.varStart + 16, Long.MAX_VALUE)
                .putLong(s.varStart + 24, Long.MAX_VALUE);
        assertThatThrownBy(() -> FileSystems.newFileSystem(write("capacity.sion", capacity), Map.of()))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("64 bits");

        byte[] varheader = good.clone();
        ByteBuffer.wrap(varheader).order(ByteOrder.LITTLE_ENDIAN).putLong(m13 + 4, 1L << 50);
        assertThatThrownBy(() -> FileSystems.newFileSystem(write("varheader.sion", varheader), Map.of()))
                .isInstanceOf(TruncatedDataException.class).hasMessageContaining("start_of_varheader");

        byte[] blockSize = good.clone();
        ByteBuffer.wrap(blockSize).order(ByteOrder.LITTLE_ENDIAN).putInt(20, 0);
        assertThatThrownBy(() -> FileSystems.newFileSystem(write("bs0.sion", blockSize), Map.of()))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("at byte 20");

        byte[] endianness = good.clone();
        endianness[4] = 2;
        assertThatThrownBy(() -> FileSystems.newFileSystem(write("endian.sion", endianness), Map.of()))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("at byte 4");

        byte[] hugeSet = good.clone();
        ByteBuffer.wrap(hugeSet).order(ByteOrder.LITTLE_ENDIAN).putInt(28, Integer.MAX_VALUE);
        // without a mapping it is a member opened alone: its own two tasks
        try (FileSystem fs = FileSystems.newFileSystem(write("member.sion", hugeSet), Map.of())) {
            assertThat(list(fs.getPath("/"))).hasSize(2);
        }
    }

    @ParameterizedTest(name = "ffv {0}")
    @ValueSource(ints = {0, 1, 6, -5})
    void unsupportedFileFormatVersions(int ffv) throws IOException {
        byte[] bytes = SionBytes.of(new byte[][][] {{SionBytes.filled(10, 1)}}).build();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(16, ffv);
        Path p = write("v" + ffv + ".sion", bytes);
        assertThatThrownBy(() -> FileSystems.newFileSystem(p, Map.of()))
                .isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("at byte 16").hasMessageContaining("found " + ffv);
    }

    @Test
    void truncatedFilesAndNonSionFiles() throws IOException {
        byte[] good = SionBytes.of(new byte[][][] {{SionBytes.filled(10, 1)}}).build();
        for (int cut : new int[] {1, 4, 30, 100, 1090}) {
            Path p = write("cut" + cut + ".sion", java.util.Arrays.copyOf(good, cut));
            assertThatThrownBy(() -> FileSystems.newFileSystem(p, Map.of("format", "sion")))
                    .as("cut at " + cut).isInstanceOf(ContainerFormatException.class);
        }
        Path empty = write("empty.sion", new byte[0]);
        assertThatThrownBy(() -> FileSystems.newFileSystem(empty, Map.of()))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("empty");
        Path other = write("other.sion", "not a sion file at all".getBytes());
        assertThatThrownBy(() -> FileSystems.newFileSystem(other, Map.of("format", "sion")))
                .isInstanceOf(ContainerFormatException.class);
    }

    @Test
    void existingFileOpenedWritableIsRefusedWithTheReason() throws IOException {
        Path p = write("rw.sion", SionBytes.of(new byte[][][] {{SionBytes.filled(10, 1)}}).build());
        assertThatThrownBy(() -> FileSystems.newFileSystem(p, Map.of("accessMode", "readWrite")))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("META2").hasMessageContaining("rewriting");
        assertThatThrownBy(() -> FileSystems.newFileSystem(p, Map.of("create", "true")))
                .isInstanceOf(AccessDeniedException.class);
        // the refusal released the writer lock: a read-only open works
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of())) {
            assertThat(Files.size(fs.getPath("/task000000"))).isEqualTo(10);
            assertThatThrownBy(() -> Files.write(fs.getPath("/task000001"), new byte[1]))
                    .isInstanceOf(java.nio.file.ReadOnlyFileSystemException.class);
        }
    }

    @Test
    @Timeout(30)
    void concurrentReadersOfOneMultiChunkTaskSeeTheSameBytes() throws Exception {
        byte[][] blocks = {SionBytes.filled(900, 1), SionBytes.filled(1000, 2), SionBytes.filled(333, 3)};
        SionBytes s = SionBytes.of(new byte[][][] {blocks, {SionBytes.filled(10, 4)}});
        s.blockSize = 1000;
        Path p = write("threads.sion", s.build());
        byte[] expected = concat(blocks);
        try (FileSystem fs = FileSystems.newFileSystem(p, Map.of())) {
            Path task = fs.getPath("/task000000");
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
            try {
                List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
                for (int w = 0; w < 8; w++) {
                    int seed = w;
                    results.add(pool.submit(() -> {
                        java.util.Random random = new java.util.Random(seed);
                        try (var ch = Files.newByteChannel(task)) {
                            for (int i = 0; i < 200; i++) {
                                int from = random.nextInt(expected.length);
                                int len = 1 + random.nextInt(expected.length - from);
                                ByteBuffer buf = ByteBuffer.allocate(len);
                                ch.position(from);
                                while (buf.hasRemaining() && ch.read(buf) > 0) {
                                    // fill
                                }
                                if (!java.util.Arrays.equals(buf.array(), 0, len, expected, from, from + len)) {
                                    return false;
                                }
                            }
                        }
                        return true;
                    }));
                }
                for (var r : results) {
                    assertThat(r.get()).isTrue();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void fileInsideAZipIsReadThroughItsSeekableChannel() throws IOException {
        Path zip = dir.resolve("corpus.zip");
        try (FileSystem z = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
            Files.copy(SionCorpusTest.corpus().resolve("multiblock_bs512.sion"), z.getPath("/multiblock_bs512.sion"));
        }
        byte[] expected;
        try (FileSystem fs = FileSystems.newFileSystem(SionCorpusTest.corpus().resolve("multiblock_bs512.sion"), Map.of())) {
            expected = Files.readAllBytes(fs.getPath("/task000000"));
        }
        try (FileSystem z = FileSystems.newFileSystem(zip, Map.of());
                FileSystem fs = FileSystems.newFileSystem(z.getPath("/multiblock_bs512.sion"), Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/task000000"))).isEqualTo(expected);
        }
    }

    @Test
    void parMpiFileWithoutMappingFieldAndCorpusFileOnJimfs() throws IOException {
        try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
            Path copy = mem.getPath("/par_single.sion");
            Files.copy(SionCorpusTest.corpus().resolve("par_single.sion"), copy);
            try (FileSystem fs = FileSystems.newFileSystem(copy, Map.of())) {
                assertThat(Files.size(fs.getPath("/task000002"))).isEqualTo(775);
                assertThat(Files.getAttribute(fs.getPath("/"), "sion:mappingSize")).isEqualTo(0);
            }
        }
    }
}
