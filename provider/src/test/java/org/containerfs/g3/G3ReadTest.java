package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.containerfs.spi.ChecksumMismatchException;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.Names;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.spi.UnsupportedVersionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading beyond the corpus: byte orders, odd keys and types, damage, hostile headers, other file systems. */
class G3ReadTest {
    @TempDir
    Path tmp;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private Path write(String name, byte[]... parts) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        Path p = tmp.resolve(name);
        Files.write(p, out.toByteArray());
        return p;
    }

    private static List<String> list(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toList());
        }
    }

    @Test
    void bigEndianFramesAndBlobsReadLikeLittleEndianOnes() throws Exception {
        byte[] be = G3TestSupport.frame(ByteOrder.BIG_ENDIAN, 'S', List.of(bytes("Elevation")),
                List.of(G3TestSupport.doubleBlob(ByteOrder.BIG_ENDIAN, 45.5)));
        byte[] le = G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 'S', List.of(bytes("Elevation")),
                List.of(G3TestSupport.doubleBlob(ByteOrder.LITTLE_ENDIAN, 45.5)));
        try (FileSystem fs = G3TestSupport.open(write("mixed.g3", be, le))) {
            assertThat(list(fs.getPath("/"))).containsExactly("000000.Scan", "000001.Scan");
            assertThat(Files.getAttribute(fs.getPath("/000000.Scan"), "g3:endianness")).isEqualTo("big");
            assertThat(Files.getAttribute(fs.getPath("/000000.Scan"), "g3:crcOk")).isEqualTo(true);
            assertThat(Files.getAttribute(fs.getPath("/000001.Scan"), "g3:endianness")).isEqualTo("little");
            Path beKey = fs.getPath("/000000.Scan/Elevation");
            assertThat(Files.getAttribute(beKey, "g3:blobEndianness")).isEqualTo("big");
            assertThat(Files.getAttribute(beKey, "g3:blobType")).isEqualTo("G3Double");
            assertThat(Files.getAttribute(beKey, "g3:classVersion")).isEqualTo(1L);
            assertThat(Files.readAllBytes(beKey)).isEqualTo(G3TestSupport.doubleBlob(ByteOrder.BIG_ENDIAN, 45.5));
            assertThat(G3Blobs.read(beKey)).contains(new G3Value.DoubleValue(45.5));
            assertThat(G3Blobs.read(fs.getPath("/000001.Scan/Elevation"))).contains(new G3Value.DoubleValue(45.5));
        }
    }

    @Test
    void keysOfAnyBytesGoThroughTheNameCodec() throws Exception {
        byte[] longKey = new byte[300];
        Arrays.fill(longKey, (byte) 'k');
        List<byte[]> keys = List.of(new byte[0], bytes("."), bytes(".."), bytes("a/b"), new byte[] {'n', 0, 'l'},
                new byte[] {(byte) 0xFF, 'x'}, bytes("50%"), bytes("Grüße"), longKey);
        List<byte[]> blobs = keys.stream().map(k -> G3TestSupport.doubleBlob(ByteOrder.LITTLE_ENDIAN, k.length))
                .collect(Collectors.toList());
        try (FileSystem fs = G3TestSupport.open(write("keys.g3", G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 'N', keys, blobs)))) {
            List<String> expected = keys.stream().map(Names::component).collect(Collectors.toList());
            assertThat(list(fs.getPath("/000000.None"))).containsExactlyElementsOf(expected);
            assertThat(expected.subList(0, 8)).containsExactly("%", "%2E", "%2E%2E", "a%2Fb", "n%00l", "%FFx", "50%25", "Grüße");
            for (int i = 0; i < keys.size(); i++) {
                Path p = fs.getPath("/000000.None").resolve(expected.get(i));
                assertThat(Files.readAllBytes(p)).isEqualTo(blobs.get(i));
                assertThat((byte[]) Files.getAttribute(p, "g3:key")).isEqualTo(keys.get(i));
            }
            assertThat(expected.get(8)).contains("%%").hasSizeLessThanOrEqualTo(255);
        }
    }

    @Test
    void adhocAndUnprintableTypeCodesGetTheirNames() throws Exception {
        byte[] a = G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, G3FrameTypes.adhoc("Ab"), List.of(), List.of());
        byte[] b = G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 0x01020304, List.of(), List.of());
        byte[] c = G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 'X', List.of(), List.of());
        try (FileSystem fs = G3TestSupport.open(write("types.g3", a, b, c))) {
            assertThat(list(fs.getPath("/"))).containsExactly("000000.adhoc-Ab", "000001.0x01020304", "000002.adhoc-X");
            assertThat(Files.getAttribute(fs.getPath("/000001.0x01020304"), "g3:typeCode")).isEqualTo(0x01020304);
            assertThat(Files.exists(fs.getPath("/000001.None"))).isFalse();
        }
    }

    @Test
    void duplicateKeysShowTheFirstAndReportTheOthers() throws Exception {
        byte[] first = G3TestSupport.doubleBlob(ByteOrder.LITTLE_ENDIAN, 1);
        byte[] second = G3TestSupport.doubleBlob(ByteOrder.LITTLE_ENDIAN, 2);
        byte[] other = G3TestSupport.doubleBlob(ByteOrder.LITTLE_ENDIAN, 3);
        byte[] frame = G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 'S', List.of(bytes("x"), bytes("y"), bytes("x")),
                List.of(first, other, second));
        try (FileSystem fs = G3TestSupport.open(write("dup.g3", frame))) {
            Path dir = fs.getPath("/000000.Scan");
            assertThat(list(dir)).containsExactly("x", "y");
            assertThat(Files.readAllBytes(dir.resolve("x"))).isEqualTo(first);
            Map<String, Object> a = Files.readAttributes(dir, "g3:*");
            assertThat(a.get("duplicates")).isEqualTo(1);
            assertThat(a.get("duplicateKeys")).isEqualTo("x");
            long dupOffset = 13 + 8 + 1 + 8 + first.length + 8 + 1 + 8 + other.length + 8 + 1 + 8;
            assertThat(a.get("duplicateBlobOffsets")).isEqualTo(String.valueOf(dupOffset));
            assertThat(a.get("entries")).isEqualTo(3);
            assertThat(a.get("crcOk")).isEqualTo(true); // the dropped duplicate still counts in the CRC
        }
    }

    @Test
    void aBadCrcFailsReadsNamingFrameAndBothCrcsButListingWorks() throws Exception {
        byte[] file = G3TestSupport.corpusBytes("simple-types.g3");
        file[222 + 40] ^= 0x40; // inside the ScanNumber blob of frame 1
        Path p = write("badcrc.g3", file);
        try (FileSystem fs = G3TestSupport.open(p)) {
            assertThat(list(fs.getPath("/000001.Scan"))).hasSize(5);
            assertThat(Files.readAllBytes(fs.getPath("/000000.Observation/Elevation"))).hasSize(41);
            Map<String, Object> a = Files.readAttributes(fs.getPath("/000001.Scan"), "g3:*");
            assertThat(a.get("crcOk")).isEqualTo(false);
            // unsigned 32-bit values (issue 18.3), the same in attributes and messages
            long storedValue = (Long) a.get("crcStored");
            long computedValue = (Long) a.get("crcComputed");
            assertThat(storedValue).isBetween(0L, 0xFFFFFFFFL).isEqualTo(
                    Integer.toUnsignedLong(ByteBuffer.wrap(file, 1215 - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt())); // the frame's last 4 bytes
            assertThat(computedValue).isBetween(0L, 0xFFFFFFFFL);
            String stored = storedValue + " (" + G3TestSupport.hex((int) storedValue) + ")";
            String computed = computedValue + " (" + G3TestSupport.hex((int) computedValue) + ")";
            assertThat(stored).isNotEqualTo(computed);
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/000001.Scan/Comment")))
                    .isInstanceOf(ChecksumMismatchException.class)
                    .hasMessageContaining("000001.Scan").hasMessageContaining(stored).hasMessageContaining(computed)
                    .hasMessageContaining(p.toString()).hasMessageContaining("at byte 222");
            // a wrong CRC, once found, is damage to committed data at the root too (issue 18.2)
            assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:damage")).contains("000001.Scan")
                    .contains("at byte 222").contains(stored).contains(computed);
        }
        try (FileSystem fs = G3TestSupport.open(p, Map.of("verify", "false"))) {
            assertThat(Files.readAllBytes(fs.getPath("/000001.Scan/Comment"))).hasSize(47);
        }
    }

    @Test
    void aTruncatedTailIsReportedAndStrictOpeningFails() throws Exception {
        byte[] file = G3TestSupport.corpusBytes("simple-types.g3");
        for (int cut : new int[] {2223 + 1, 2223 + 13, 2223 + 20, 2223 + 700, file.length - 1}) {
            Path p = write("cut" + cut + ".g3", Arrays.copyOf(file, cut));
            try (FileSystem fs = G3TestSupport.open(p)) {
                assertThat(list(fs.getPath("/"))).as("cut at %d", cut)
                        .containsExactly("000000.Observation", "000001.Scan", "000002.Scan");
                Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "g3:*");
                assertThat(root.get("tailOffset")).isEqualTo(2223L);
                assertThat(root.get("tailLength")).isEqualTo((long) cut - 2223);
                // what a writer killed during its one-write append leaves: no committed frame is lost (issue 18.2)
                assertThat((String) root.get("uncommittedTail")).startsWith("truncated tail").contains("from byte 2223");
                assertThat(root.get("damage")).isEqualTo("");
            }
            assertThatThrownBy(() -> G3TestSupport.open(p, Map.of("strict", true)))
                    .isInstanceOf(TruncatedDataException.class).hasMessageContaining("at byte 2223");
        }
    }

    @Test
    void bytesAfterTheLastFrameThatAreNoFrameAreAnUnreadableTail() throws Exception {
        Path p = write("junk.g3", G3TestSupport.corpusBytes("test-le.g3"), bytes("not a frame at all"));
        try (FileSystem fs = G3TestSupport.open(p)) {
            assertThat(list(fs.getPath("/"))).containsExactly("000000.None");
            assertThat((String) Files.getAttribute(fs.getPath("/"), "g3:damage")).startsWith("unreadable tail").contains("0x6E");
        }
        assertThatThrownBy(() -> G3TestSupport.open(p, Map.of("strict", "true")))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("at byte 347");
    }

    @Test
    void anotherFrameVersionIsRefused() throws Exception {
        byte[] frame = G3TestSupport.corpusBytes("test-le.g3");
        frame[1] = 2;
        Path p = write("v2frame.g3", frame);
        assertThatThrownBy(() -> G3TestSupport.open(p, Map.of("format", "g3")))
                .isInstanceOf(UnsupportedVersionException.class).hasMessageContaining("version 1").hasMessageContaining("found 2");
    }

    @Test
    void hostileCountsAndLengthsAllocateNothingAndEndAsATail() throws Exception {
        ByteBuffer hugeCount = ByteBuffer.allocate(13 + 8).order(ByteOrder.LITTLE_ENDIAN);
        hugeCount.put((byte) 1).putInt(1).putInt(Integer.MAX_VALUE).putInt('S').putLong(3);
        ByteBuffer hugeKey = ByteBuffer.allocate(13 + 8 + 16 + 4).order(ByteOrder.LITTLE_ENDIAN);
        hugeKey.put((byte) 1).putInt(1).putInt(1).putInt('S').putLong(1L << 62);
        ByteBuffer hugeBlob = ByteBuffer.allocate(13 + 8 + 1 + 8 + 20).order(ByteOrder.LITTLE_ENDIAN);
        hugeBlob.put((byte) 1).putInt(1).putInt(1).putInt('S').putLong(1).put((byte) 'k').putLong(-1L);
        for (ByteBuffer b : List.of(hugeCount, hugeKey, hugeBlob)) {
            Path p = write("hostile.g3", G3TestSupport.corpusBytes("test-le.g3"), b.array());
            try (FileSystem fs = G3TestSupport.open(p)) {
                assertThat(list(fs.getPath("/"))).containsExactly("000000.None");
                assertThat(Files.getAttribute(fs.getPath("/"), "g3:tailOffset")).isEqualTo(347L);
            }
            assertThatThrownBy(() -> G3TestSupport.open(p, Map.of("strict", true))).isInstanceOf(ContainerFormatException.class);
        }
    }

    @Test
    void worksOnAnInMemoryFileSystem() throws Exception {
        try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
            Path p = mem.getPath("/data/simple-types.g3");
            Files.createDirectories(p.getParent());
            Files.write(p, G3TestSupport.corpusBytes("simple-types.g3"));
            try (FileSystem fs = G3TestSupport.open(p)) {
                assertThat(list(fs.getPath("/"))).hasSize(4);
                assertThat(G3Blobs.read(fs.getPath("/000000.Observation/Elevation"))).isPresent();
            }
            Path gz = mem.getPath("/data/simple-types.g3.gz");
            Files.write(gz, G3TestSupport.corpusBytes("simple-types.g3.gz"));
            try (FileSystem fs = G3TestSupport.open(gz)) {
                assertThat(Files.readAllBytes(fs.getPath("/000003.Scan/Comment")))
                        .isEqualTo(Arrays.copyOfRange(G3TestSupport.corpusBytes("simple-types.g3"), 3231 - 4 - 47, 3231 - 4));
            }
        }
    }

    @Test
    void aFileSystemOfAnotherFormatIsNotClaimed() throws Exception {
        Path p = write("x.g3", bytes("\u0007 hello, this is no frame"));
        assertThatThrownBy(() -> G3TestSupport.open(p)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(new G3Format().probe(ByteBuffer.wrap(G3TestSupport.corpusBytes("simple-types.g3.gz")), "a.gz")).isTrue();
        assertThat(new G3Format().probe(ByteBuffer.wrap(G3TestSupport.corpusBytes("test-le.g3")), "x")).isTrue();
    }
}
