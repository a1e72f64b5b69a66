package org.containerfs.gsd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.containerfs.gsd.GsdTestSupport.corpus;
import static org.containerfs.gsd.GsdTestSupport.create;
import static org.containerfs.gsd.GsdTestSupport.openRead;
import static org.containerfs.gsd.GsdTestSupport.openWrite;
import static org.containerfs.gsd.GsdTestSupport.writeChunk;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Appending frames: staging, the three commit triggers, refusals, growth, versions, live refresh. */
class GsdWriterTest {
    @TempDir
    Path tmp;

    static byte[] floats(float... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            b.putFloat(f);
        }
        return b.array();
    }

    static byte[] u64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    static int frames(Path file) throws IOException {
        try (FileSystem fs = openRead(file)) {
            return (Integer) Files.getAttribute(fs.getPath("/"), "gsd:frames");
        }
    }

    @Test
    void newFileHasGsdsFreshLayoutAndTheEnvHeaderFields() throws IOException {
        Path file = tmp.resolve("new.gsd");
        try (FileSystem fs = create(file, Map.of("application", "unit test", "schema", "hoomd", "schemaVersion", "1.4"))) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:frames")).isEqualTo(0);
        }
        assertThat(Files.size(file)).isEqualTo(5376);
        try (FileSystem fs = openRead(file)) {
            Map<String, Object> a = Files.readAttributes(fs.getPath("/"), "gsd:*");
            assertThat(a).containsEntry("version", "2.0").containsEntry("application", "unit test")
                    .containsEntry("schema", "hoomd").containsEntry("schemaVersion", "1.4")
                    .containsEntry("indexLocation", 256L).containsEntry("namelistLocation", 4352L);
        }
    }

    @Test
    void stagedFrameCommitsOnNextFrameMkdirOnExplicitCommitAndOnClose() throws IOException {
        Path file = tmp.resolve("commit.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            Files.createDirectory(fs.getPath("/0"));
            Files.createDirectory(fs.getPath("/0/particles"));
            writeChunk(fs.getPath("/0/particles/position"), "float", 3, floats(1, 2, 3, 4, 5, 6));
            writeChunk(fs.getPath("/0/step"), "uint64", 1, u64(7));
            // staged: visible in this file system, not yet in the file
            assertThat(Files.getAttribute(fs.getPath("/0/particles/position"), "gsd:N")).isEqualTo(2L);
            assertThat(Files.getAttribute(fs.getPath("/0/particles/position"), "gsd:committed")).isEqualTo(false);
            assertThat(Files.getAttribute(fs.getPath("/0"), "gsd:committed")).isEqualTo(false);
            assertThat(frames(file)).isEqualTo(0);

            Files.createDirectory(fs.getPath("/1")); // commits frame 0
            assertThat(frames(file)).isEqualTo(1);
            writeChunk(fs.getPath("/1/step"), "uint64", 1, u64(8));
            assertThat(frames(file)).isEqualTo(1);
            Files.setAttribute(fs.getPath("/1"), "gsd:commit", true); // explicit commit
            assertThat(frames(file)).isEqualTo(2);
            assertThat(Files.getAttribute(fs.getPath("/1/step"), "gsd:committed")).isEqualTo(true);

            Files.createDirectory(fs.getPath("/2"));
            writeChunk(fs.getPath("/2/step"), "uint64", 1, u64(9));
        } // close commits frame 2
        assertThat(frames(file)).isEqualTo(3);
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.readAllBytes(fs.getPath("/0/particles/position"))).isEqualTo(floats(1, 2, 3, 4, 5, 6));
            assertThat(Files.readAllBytes(fs.getPath("/2/step"))).isEqualTo(u64(9));
            Map<String, Object> a = Files.readAttributes(fs.getPath("/0/particles/position"), "gsd:*");
            assertThat(a).containsEntry("type", "float").containsEntry("typeId", 9).containsEntry("N", 2L)
                    .containsEntry("M", 3).containsEntry("frame", 0).containsEntry("nameId", 0);
        }
    }

    @Test
    void onlyTheNextFrameMayBeCreatedAndCommittedFramesAreNeverChanged() throws IOException {
        Path file = tmp.resolve("refuse.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/1")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("the next frame is /0");
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/00")))
                    .isInstanceOf(AccessDeniedException.class);
            Files.createDirectory(fs.getPath("/0"));
            writeChunk(fs.getPath("/0/a"), "int32", 1, new byte[8]);
            Files.setAttribute(fs.getPath("/0"), "gsd:commit", true);
            assertThatThrownBy(() -> writeChunk(fs.getPath("/0/b"), "int32", 1, new byte[4]))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("create /1 first");
            assertThatThrownBy(() -> Files.write(fs.getPath("/0/a"), new byte[4]))
                    .isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> Files.delete(fs.getPath("/0/a"))).isInstanceOf(AccessDeniedException.class);
            Files.createDirectory(fs.getPath("/1"));
            assertThatThrownBy(() -> writeChunk(fs.getPath("/1/bad"), "float", 3, new byte[16]))
                    .isInstanceOf(IOException.class).hasMessageContaining("not a multiple of M=3 x 4 bytes");
            assertThat(Files.exists(fs.getPath("/1/bad"))).isFalse();
            assertThatThrownBy(() -> writeChunk(fs.getPath("/1/t"), "complex", 1, new byte[4]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gsd:type");
            writeChunk(fs.getPath("/1/a"), "int32", 1, new byte[4]);
            assertThatThrownBy(() -> writeChunk(fs.getPath("/1/a"), "int32", 1, new byte[4]))
                    .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
            assertThatThrownBy(() -> Files.setAttribute(fs.getPath("/1/a"), "gsd:commit", true))
                    .isInstanceOf(AccessDeniedException.class);
        }
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:frames")).isEqualTo(2);
            // the refused chunk's name never reached the name list
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:names")).isEqualTo(1);
        }
    }

    @Test
    void defaultTypeIsUint8WithWidthOneAndEmptyChunksAreFilesOfSizeZero() throws IOException {
        Path file = tmp.resolve("defaults.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            Files.createDirectory(fs.getPath("/0"));
            Files.write(fs.getPath("/0/blob"), "hello".getBytes(StandardCharsets.UTF_8));
            writeChunk(fs.getPath("/0/none"), "double", 3, new byte[0]);
        }
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.readAttributes(fs.getPath("/0/blob"), "gsd:type,N,M"))
                    .containsEntry("type", "uint8").containsEntry("N", 5L).containsEntry("M", 1);
            assertThat(Files.size(fs.getPath("/0/none"))).isZero();
            assertThat(Files.getAttribute(fs.getPath("/0/none"), "gsd:M")).isEqualTo(3);
        }
    }

    @Test
    void characterChunkRaisesTheVersionTo21() throws IOException {
        Path file = tmp.resolve("chars.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            Files.createDirectory(fs.getPath("/0"));
            writeChunk(fs.getPath("/0/n"), "int32", 1, new byte[4]);
            Files.createDirectory(fs.getPath("/1"));
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:version")).isEqualTo("2.0");
            writeChunk(fs.getPath("/1/text"), "character", 1, "héllo".getBytes(StandardCharsets.UTF_8));
        }
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:version")).isEqualTo("2.1");
            assertThat(Files.getAttribute(fs.getPath("/1/text"), "gsd:type")).isEqualTo("character");
            assertThat(new String(Files.readAllBytes(fs.getPath("/1/text")), StandardCharsets.UTF_8)).isEqualTo("héllo");
        }
    }

    @Test
    void indexAndNameListGrowAsGsdDoesLeavingDeadSpaceBehind() throws IOException {
        Path file = tmp.resolve("grow.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            for (int f = 0; f < 150; f++) {
                Files.createDirectory(fs.getPath("/" + f));
                writeChunk(fs.getPath("/" + f + "/step"), "uint64", 1, u64(f));
                // a new 40-byte name every third frame: 2055 name bytes outgrow the 1 KiB list twice (4 KiB)
                if (f % 3 == 0) {
                    writeChunk(fs.getPath("/" + f + "/" + "n".repeat(36) + String.format("%04d", f)), "int8", 1, new byte[] {(byte) f});
                }
            }
        }
        try (FileSystem fs = openRead(file)) {
            Map<String, Object> a = Files.readAttributes(fs.getPath("/"), "gsd:*");
            assertThat(a).containsEntry("frames", 150).containsEntry("chunks", 200).containsEntry("names", 51)
                    .containsEntry("indexAllocatedEntries", 256L).containsEntry("namelistAllocatedEntries", 64L);
            assertThat((Long) a.get("indexLocation")).isGreaterThan(5376L);
            assertThat((Long) a.get("namelistLocation")).isGreaterThan(5376L);
            for (int f = 0; f < 150; f++) {
                assertThat(Files.readAllBytes(fs.getPath("/" + f + "/step"))).isEqualTo(u64(f));
            }
            assertThat(Files.readAllBytes(fs.getPath("/147/" + "n".repeat(36) + "0147"))).containsExactly(147);
        }
    }

    @Test
    void v1FileStaysV1AndRefusesNamesGsdWouldCut() throws IOException {
        Path file = tmp.resolve("v1.gsd");
        Files.copy(corpus("v1_upstream_test_gsd_v1.gsd"), file);
        try (FileSystem fs = openWrite(file, Map.of())) {
            Files.createDirectory(fs.getPath("/5"));
            writeChunk(fs.getPath("/5/7"), "int32", 1, new byte[] {1, 0, 0, 0});
            writeChunk(fs.getPath("/5/" + "x".repeat(63)), "int32", 1, new byte[] {2, 0, 0, 0});
            assertThatThrownBy(() -> writeChunk(fs.getPath("/5/" + "y".repeat(64)), "int32", 1, new byte[4]))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("at most 63 bytes");
            assertThatThrownBy(() -> writeChunk(fs.getPath("/5/c"), "character", 1, new byte[4]))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("2.1");
        }
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:version")).isEqualTo("1.0");
            assertThat(Files.readAllBytes(fs.getPath("/5/7"))).containsExactly(1, 0, 0, 0);
            assertThat(Files.getAttribute(fs.getPath("/5/7"), "gsd:nameId"))
                    .isEqualTo(Files.getAttribute(fs.getPath("/4/7"), "gsd:nameId"));
            assertThat(Files.readAllBytes(fs.getPath("/5/" + "x".repeat(63)))).containsExactly(2, 0, 0, 0);
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:names")).isEqualTo(128);
        }
    }

    @Test
    void framesCommittedEmptyInTheMiddleAreKeptAsFrameNumbers() throws IOException {
        Path file = tmp.resolve("gaps.gsd");
        try (FileSystem fs = create(file, Map.of("sync", "true"))) {
            Files.createDirectory(fs.getPath("/0"));
            writeChunk(fs.getPath("/0/a"), "uint8", 1, new byte[] {1});
            Files.createDirectory(fs.getPath("/1"));
            Files.createDirectory(fs.getPath("/2")); // frame 1 ends empty
            assertThat(Files.isDirectory(fs.getPath("/1"))).isTrue();
            writeChunk(fs.getPath("/2/a"), "uint8", 1, new byte[] {3});
            Files.createDirectory(fs.getPath("/3")); // a trailing empty frame: gone after close, as in gsd
        }
        try (FileSystem fs = openRead(file)) {
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s.map(p -> p.getFileName().toString())).containsExactly("0", "1", "2");
            }
            assertThat(Files.readAllBytes(fs.getPath("/2/a"))).containsExactly(3);
        }
    }

    @Test
    void chunkNamesThatCannotBeSplitAreWrittenAndShownAsOneComponent() throws IOException {
        Path file = tmp.resolve("names.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            Files.createDirectory(fs.getPath("/0"));
            writeChunk(fs.getPath("/0/particles"), "uint8", 1, new byte[] {1});
            writeChunk(fs.getPath("/0/particles%2Fposition"), "uint8", 1, new byte[] {2});
            writeChunk(fs.getPath("/0/a%2F%2Fb"), "uint8", 1, new byte[] {3});
            writeChunk(fs.getPath("/0/100%25 wörld"), "uint8", 1, new byte[] {4});
        }
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.readAllBytes(fs.getPath("/0/particles"))).containsExactly(1);
            assertThat(Files.getAttribute(fs.getPath("/0/particles%2Fposition"), "gsd:name")).isEqualTo("particles/position");
            assertThat(Files.getAttribute(fs.getPath("/0/a%2F%2Fb"), "gsd:name")).isEqualTo("a//b");
            assertThat(Files.getAttribute(fs.getPath("/0/100%25 wörld"), "gsd:name")).isEqualTo("100% wörld");
        }
    }

    @Test
    void appendsAfterOrphanBytesOfAKilledWriterAndReportsThem() throws IOException {
        Path file = tmp.resolve("orphan.gsd");
        Files.copy(corpus("appended_three_sessions.gsd"), file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(new byte[100])); // data a writer wrote before it died
        }
        try (FileSystem fs = openWrite(file, Map.of())) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:orphanBytes")).isEqualTo(100L);
            Files.createDirectory(fs.getPath("/6"));
            writeChunk(fs.getPath("/6/configuration/step".replace("/configuration/step", "/x")), "uint64", 1, u64(6));
        }
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.readAllBytes(fs.getPath("/6/x"))).isEqualTo(u64(6));
            assertThat((Long) Files.getAttribute(fs.getPath("/6/x"), "gsd:location")).isEqualTo(5736L + 100);
        }
    }

    @Test
    void readOnlyFileSystemSeesFramesAppendedByAnotherWriter() throws IOException {
        Path file = tmp.resolve("live.gsd");
        try (FileSystem writer = create(file, Map.of()); FileSystem reader = openRead(file)) {
            for (int f = 0; f < 200; f++) { // past one index growth (128 slots)
                Files.createDirectory(writer.getPath("/" + f));
                writeChunk(writer.getPath("/" + f + "/step"), "uint64", 1, u64(f));
                // 20 names of 66 bytes: the name list moves to a larger block while the reader is open
                writeChunk(writer.getPath("/" + f + "/name" + "q".repeat(60) + (f % 20 + 10)), "uint8", 1, new byte[] {(byte) f});
                Files.setAttribute(writer.getPath("/" + f), "gsd:commit", true);
                if (f % 50 == 0 || f == 199) {
                    // a lookup of a new path refreshes: only the new index slots are read
                    assertThat(Files.readAllBytes(reader.getPath("/" + f + "/step"))).isEqualTo(u64(f));
                    assertThat(Files.readAllBytes(reader.getPath("/" + f + "/name" + "q".repeat(60) + (f % 20 + 10))))
                            .containsExactly((byte) f);
                }
            }
            assertThat(Files.getAttribute(reader.getPath("/"), "gsd:frames")).isEqualTo(200);
            assertThat(Files.getAttribute(reader.getPath("/"), "gsd:indexAllocatedEntries")).isEqualTo(512L);
            assertThat(Files.getAttribute(reader.getPath("/"), "gsd:namelistAllocatedEntries")).isEqualTo(32L);
            assertThat(Files.getAttribute(reader.getPath("/"), "gsd:names")).isEqualTo(21);
            assertThat(Files.readAllBytes(reader.getPath("/19/name" + "q".repeat(60) + "29"))).containsExactly((byte) 19);
        }
    }

    @Test
    void containerLivesOnJimfs() throws IOException {
        try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
            Path file = mem.getPath("/data/traj.gsd");
            Files.createDirectories(file.getParent());
            try (FileSystem fs = create(file, Map.of())) {
                Files.createDirectory(fs.getPath("/0"));
                writeChunk(fs.getPath("/0/v"), "double", 1, new byte[16]);
            }
            try (FileSystem fs = openWrite(file, Map.of())) {
                Files.createDirectory(fs.getPath("/1"));
                writeChunk(fs.getPath("/1/v"), "double", 1, new byte[8]);
            }
            try (FileSystem fs = openRead(file)) {
                assertThat(Files.getAttribute(fs.getPath("/0/v"), "gsd:N")).isEqualTo(2L);
                assertThat(Files.getAttribute(fs.getPath("/1/v"), "gsd:N")).isEqualTo(1L);
            }
        }
    }

    @Test
    void duplicateNameInOneFrameShowsTheFirstAndReportsTheOther() throws IOException {
        Path file = tmp.resolve("dup.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            Files.createDirectory(fs.getPath("/0"));
            writeChunk(fs.getPath("/0/a"), "uint8", 1, new byte[] {1});
            writeChunk(fs.getPath("/0/b"), "uint8", 1, new byte[] {2});
        }
        // the C layer does not reject a repeated name: make entry 1 use name id 0 as well
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {0, 0}), 256 + 32 + 28);
        }
        try (FileSystem fs = openRead(file)) {
            try (Stream<Path> s = Files.list(fs.getPath("/0"))) {
                assertThat(s.map(p -> p.getFileName().toString())).containsExactly("a");
            }
            assertThat(Files.readAllBytes(fs.getPath("/0/a"))).containsExactly(1);
            assertThat(Files.getAttribute(fs.getPath("/0"), "gsd:duplicates")).isEqualTo("a");
        }
    }

    @Test
    void corpusFileCopiedToATempDirCanBeAppendedWhileKeepingItsFrames() throws IOException {
        Path file = tmp.resolve("hoomd.gsd");
        Files.copy(corpus("hoomd_trajectory.gsd"), file, StandardCopyOption.REPLACE_EXISTING);
        try (FileSystem fs = openWrite(file, Map.of())) {
            Files.createDirectory(fs.getPath("/12"));
            writeChunk(fs.getPath("/12/log%2Fnew"), "double", 1, new byte[8]);
        }
        try (FileSystem fs = openRead(file); FileSystem orig = openRead(corpus("hoomd_trajectory.gsd"))) {
            assertThat(Files.readAllBytes(fs.getPath("/11/particles/position")))
                    .isEqualTo(Files.readAllBytes(orig.getPath("/11/particles/position")));
            assertThat(Files.exists(fs.getPath("/12/log/new"))).isTrue();
            assertThat(List.of(Files.getAttribute(fs.getPath("/"), "gsd:frames"))).containsExactly(13);
        }
    }

    /**
     * gsd's M field is a u32, but this library reads widths up to 2^31-1: a wider chunk is refused when it is
     * created, before any byte of it is written, and the container keeps every byte it had.
     */
    @Test
    void aChunkWiderThanTheReaderTakesIsRefusedBeforeAnyByteIsWritten() throws IOException {
        Path file = tmp.resolve("wide-m.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            Files.createDirectory(fs.getPath("/0"));
            writeChunk(fs.getPath("/0/a"), "uint8", 1, new byte[] {1});
        }
        byte[] before = Files.readAllBytes(file);
        try (FileSystem fs = openWrite(file, Map.of())) {
            Files.createDirectory(fs.getPath("/1"));
            for (long m : new long[] {1L << 31, 0xFFFFFFFFL}) {
                assertThatThrownBy(() -> Files.newByteChannel(fs.getPath("/1/wide"),
                        java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        org.containerfs.core.ContainerFileSystems.attribute("gsd:type", "uint8"),
                        org.containerfs.core.ContainerFileSystems.attribute("gsd:M", m)))
                        .isInstanceOf(AccessDeniedException.class).hasMessageContaining("gsd:M = " + m)
                        .hasMessageContaining("2147483647").hasMessageContaining("nothing was written");
            }
            assertThat(Files.exists(fs.getPath("/1/wide"))).isFalse();
            assertThat(Files.readAllBytes(file)).isEqualTo(before);
        }
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:names")).isEqualTo(1);
        }
    }

    @Test
    void chunkOfMoreThanTwoGigaElementsKeepsItsCount() throws IOException {
        Path file = tmp.resolve("wide.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            Files.createDirectory(fs.getPath("/0"));
            writeChunk(fs.getPath("/0/huge"), "uint8", 1, new byte[] {1}); // name id 0: index entry 0
            writeChunk(fs.getPath("/0/small"), "uint8", 1, new byte[] {5});
        }
        long n = (1L << 31) + 3;
        long location;
        try (FileSystem fs = openRead(file)) {
            location = (Long) Files.getAttribute(fs.getPath("/0/huge"), "gsd:location");
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {9}), location + n - 1); // a sparse file now holds the data
            ch.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, n), 256 + 8); // entry 0's N
        }
        try (FileSystem fs = openRead(file)) {
            Path huge = fs.getPath("/0/huge");
            assertThat(Files.getAttribute(huge, "gsd:N")).isEqualTo(n);
            assertThat(Files.size(huge)).isEqualTo(n);
            try (var ch = Files.newByteChannel(huge)) {
                ByteBuffer last = ByteBuffer.allocate(1);
                ch.position(n - 1).read(last);
                assertThat(last.get(0)).isEqualTo((byte) 9);
            }
            assertThat(Files.getAttribute(fs.getPath("/0/small"), "gsd:N")).isEqualTo(1L);
            assertThat(Files.readAllBytes(fs.getPath("/0/small"))).containsExactly(5);
        }
    }

    /**
     * 200 frames whose chunks declare 1 GiB each (200 GiB in all, a sparse file): opening, listing
     * and reading attributes finish in well under the time one pass over that data would take,
     * so the open reads the index only.
     */
    @Test
    void openingAndListingNeverTouchChunkData() throws IOException {
        Path file = tmp.resolve("sparse.gsd");
        int frames = 200;
        try (FileSystem fs = create(file, Map.of())) {
            for (int f = 0; f < frames; f++) {
                Files.createDirectory(fs.getPath("/" + f));
                writeChunk(fs.getPath("/" + f + "/big"), "uint8", 1, new byte[] {(byte) f});
            }
        }
        long gib = 1L << 30;
        long indexLocation;
        long lastLocation;
        try (FileSystem fs = openRead(file)) {
            indexLocation = (Long) Files.getAttribute(fs.getPath("/"), "gsd:indexLocation");
            lastLocation = (Long) Files.getAttribute(fs.getPath("/" + (frames - 1) + "/big"), "gsd:location");
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1}), lastLocation + gib - 1); // sparse tail
            for (int e = 0; e < frames; e++) {
                ch.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, gib), indexLocation + 32L * e + 8);
            }
        }
        long t0 = System.nanoTime();
        try (FileSystem fs = openRead(file)) {
            long declared = 0;
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                for (Path p : walk.filter(Files::isRegularFile).toList()) {
                    declared += Files.size(p);
                    assertThat(Files.getAttribute(p, "gsd:N")).isEqualTo(gib);
                }
            }
            assertThat(declared).isEqualTo(frames * gib);
            try (var ch = Files.newByteChannel(fs.getPath("/7/big"))) {
                ByteBuffer first = ByteBuffer.allocate(1);
                ch.read(first);
                assertThat(first.get(0)).isEqualTo((byte) 7);
            }
        }
        assertThat((System.nanoTime() - t0) / 1_000_000).as("ms to open and list 200 GiB of chunks").isLessThan(10_000);
    }

    @Test
    void manyEmptyFramesBeforeAChunkStillGiveAFileGsdAccepts() throws IOException {
        Path file = tmp.resolve("late.gsd");
        try (FileSystem fs = create(file, Map.of())) {
            for (int f = 0; f <= 200; f++) {
                Files.createDirectory(fs.getPath("/" + f));
            }
            writeChunk(fs.getPath("/200/late"), "uint8", 1, new byte[] {42});
        }
        // gsd accepts an entry only if its frame is below the index slot count (128 in a new file)
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:frames")).isEqualTo(201);
            assertThat((Long) Files.getAttribute(fs.getPath("/"), "gsd:indexAllocatedEntries")).isGreaterThan(200L);
            assertThat(Files.readAllBytes(fs.getPath("/200/late"))).containsExactly(42);
            try (Stream<Path> s = Files.list(fs.getPath("/199"))) {
                assertThat(s).isEmpty();
            }
        }
    }
}
