package org.containerfs.scda;

import org.containerfs.core.ContainerFileSystems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.containerfs.scda.RawScda.bytes;
import static org.containerfs.core.ContainerFileSystems.attribute;
import static org.containerfs.scda.ScdaTestSupport.independentDecode;
import static org.containerfs.scda.ScdaTestSupport.open;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.containerfs.spi.ChecksumMismatchException;
import org.containerfs.spi.ContainerFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScdaWriteTest {
    @TempDir
    Path dir;

    private static final Map<String, Object> CREATE = Map.of("create", true, "vendor", "test", "userString", "written by a test");

    private static List<Path> list(Path p) throws IOException {
        try (Stream<Path> s = Files.list(p)) {
            return s.toList();
        }
    }

    private static String names(Path p) throws IOException {
        return String.join(" ", list(p).stream().map(x -> x.getFileName().toString()).toList());
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Compressible data (text-like), so that compression is visible in the sizes. */
    private static byte[] text(int n, long seed) {
        Random r = new Random(seed);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ("abcde \n".charAt(r.nextInt(7)));
        }
        return b;
    }

    @Test
    void varraySectionRoundTripsInThePaperLayout() throws Exception {
        Path file = dir.resolve("v.scda");
        try (FileSystem fs = open(file, CREATE)) {
            Path v = fs.getPath("/0000.V.sizes 2 0 4");
            Files.createDirectory(v);
            Files.write(v.resolve("000000"), bytes("ab"));
            Files.write(v.resolve("000001"), new byte[0]);
            Files.write(v.resolve("000002"), bytes("cde\n"));
            assertThat(names(v)).isEqualTo("000000 000001 000002");
            Files.write(fs.getPath("/0001.B.after"), bytes("x"));
        }
        byte[] expected = new RawScda("test", "written by a test")
                .varray("sizes 2 0 4", bytes("ab"), new byte[0], bytes("cde\n"))
                .block("after", bytes("x")).bytes();
        assertThat(Files.readAllBytes(file)).isEqualTo(expected);
        try (FileSystem fs = open(file, Map.of())) {
            Path v = fs.getPath("/0000.V.sizes 2 0 4");
            assertThat(Files.readAttributes(v, "scda:*"))
                    .containsEntry("type", "V").containsEntry("count", 3L).containsEntry("headerOffset", 128L)
                    .containsEntry("dataOffset", 128L + 96 + 3 * 32).containsEntry("compressed", false);
            assertThat((long[]) Files.getAttribute(v, "scda:sizes")).containsExactly(2, 0, 4);
            assertThat(Files.readAllBytes(v.resolve("000000"))).isEqualTo(bytes("ab"));
            assertThat(Files.size(v.resolve("000001"))).isZero();
            assertThat(Files.readAllBytes(v.resolve("000002"))).isEqualTo(bytes("cde\n"));
            assertThat(Files.readAllBytes(fs.getPath("/0001.B.after"))).isEqualTo(bytes("x"));
        }
    }

    @Test
    void compressedSectionsRoundTripAndDecodeIndependentlyOfTheProvider() throws Exception {
        Path file = dir.resolve("z.scda");
        byte[] block = text(5000, 1);
        byte[][] fixed = {text(300, 2), text(300, 3), random(300, 4)};
        byte[][] variable = {text(10, 5), new byte[0], text(2000, 6)};
        var encode = attribute("scda:encode", true);
        try (FileSystem fs = open(file, CREATE)) {
            try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/0000.B.block"),
                    java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), encode)) {
                ch.write(ByteBuffer.wrap(block, 0, 1234));
                ch.write(ByteBuffer.wrap(block, 1234, block.length - 1234));
            }
            Path a = fs.getPath("/0001.A.fixed");
            Files.createDirectory(a, encode);
            for (int i = 0; i < fixed.length; i++) {
                Files.write(a.resolve(String.format("%06d", i)), fixed[i]);
            }
            Path v = fs.getPath("/0002.V.variable");
            Files.createDirectory(v, encode);
            for (int i = 0; i < variable.length; i++) {
                Files.write(v.resolve(String.format("%06d", i)), variable[i]);
            }
            Files.write(fs.getPath("/0003.I.plain"), new byte[32]);
        }
        // decoded view: one logical section per pair
        try (FileSystem fs = open(file, Map.of())) {
            Path root = fs.getPath("/");
            assertThat(names(root)).isEqualTo("0000.B.block 0001.A.fixed 0002.V.variable 0003.I.plain");
            Path b = fs.getPath("/0000.B.block");
            assertThat(Files.size(b)).isEqualTo(5000);
            assertThat(Files.readAllBytes(b)).isEqualTo(block);
            assertThat(Files.readAttributes(b, "scda:*")).containsEntry("compressed", true).containsEntry("rawIndex", 0)
                    .containsEntry("compressedRawIndex", 1);
            Path a = fs.getPath("/0001.A.fixed");
            assertThat(Files.getAttribute(a, "scda:elementSize")).isEqualTo(300L);
            for (int i = 0; i < fixed.length; i++) {
                assertThat(Files.readAllBytes(a.resolve(String.format("%06d", i)))).isEqualTo(fixed[i]);
            }
            Path v = fs.getPath("/0002.V.variable");
            assertThat((long[]) Files.getAttribute(v, "scda:sizes")).containsExactly(10, 0, 2000);
            for (int i = 0; i < variable.length; i++) {
                assertThat(Files.readAllBytes(v.resolve(String.format("%06d", i)))).isEqualTo(variable[i]);
            }
            assertThat(Files.readAttributes(root, "scda:sections,rawSections"))
                    .containsEntry("sections", 4).containsEntry("rawSections", 7);
        }
        // raw view: the paper's two raw sections per logical section, decoded here without the provider
        try (FileSystem fs = open(file, Map.of("decode", false))) {
            assertThat(names(fs.getPath("/"))).isEqualTo("0000.I.B compressed scda 00 0001.B.block "
                    + "0002.I.A compressed scda 00 0003.V.fixed 0004.A.V compressed scda 00 0005.V.variable 0006.I.plain");
            assertThat(Files.readAllBytes(fs.getPath("/0000.I.B compressed scda 00"))).isEqualTo(RawScda.entry('U', "5000"));
            byte[] blockText = Files.readAllBytes(fs.getPath("/0001.B.block"));
            assertLines(blockText, "=\n");
            assertThat(independentDecode(blockText)).isEqualTo(block);
            assertThat(Files.readAllBytes(fs.getPath("/0002.I.A compressed scda 00"))).isEqualTo(RawScda.entry('U', "300"));
            for (int i = 0; i < fixed.length; i++) {
                byte[] t = Files.readAllBytes(fs.getPath("/0003.V.fixed", String.format("%06d", i)));
                assertLines(t, "=\n");
                assertThat(independentDecode(t)).isEqualTo(fixed[i]);
            }
            Path uEntries = fs.getPath("/0004.A.V compressed scda 00");
            assertThat(Files.getAttribute(uEntries, "scda:elementSize")).isEqualTo(32L);
            for (int i = 0; i < variable.length; i++) {
                assertThat(Files.readAllBytes(uEntries.resolve(String.format("%06d", i))))
                        .isEqualTo(RawScda.entry('U', String.valueOf(variable[i].length)));
                byte[] t = Files.readAllBytes(fs.getPath("/0005.V.variable", String.format("%06d", i)));
                assertThat(independentDecode(t)).isEqualTo(variable[i]);
            }
        }
    }

    private static void writeEncoded(Path p, byte[] data) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(p, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), attribute("scda:encode", true))) {
            ch.write(ByteBuffer.wrap(data));
        }
    }

    @Test
    void compressedSectionsHaveExactlyThePapersLayout() throws Exception {
        byte[] block = text(700, 21);
        byte[][] fixed = {text(90, 22), text(90, 23)};
        byte[][] variable = {text(5, 24), text(200, 25)};
        Path file = dir.resolve("layout.scda");
        try (FileSystem fs = open(file, Map.of("create", true, "encode", true, "vendor", "test", "userString", "paper"))) {
            Files.write(fs.getPath("/0000.B.block"), block);
            Path a = fs.getPath("/0001.A.fixed");
            Files.createDirectory(a);
            Files.write(a.resolve("000000"), fixed[0]);
            Files.write(a.resolve("000001"), fixed[1]);
            Path v = fs.getPath("/0002.V.variable");
            Files.createDirectory(v);
            Files.write(v.resolve("000000"), variable[0]);
            Files.write(v.resolve("000001"), variable[1]);
        }
        // eq. (8), (9), (10) of the paper, built by hand with java.util.zip and java.util.Base64
        byte[] expected = new RawScda("test", "paper")
                .compressedBlock("block", block.length, RawScda.stage2(RawScda.stage1(block), "=\n"))
                .inline("A compressed scda 00", RawScda.entry('U', "90"))
                .varray("fixed", RawScda.stage2(RawScda.stage1(fixed[0]), "=\n"), RawScda.stage2(RawScda.stage1(fixed[1]), "=\n"))
                .array("V compressed scda 00", 32, RawScda.entry('U', "5"), RawScda.entry('U', "200"))
                .varray("variable", RawScda.stage2(RawScda.stage1(variable[0]), "=\n"),
                        RawScda.stage2(RawScda.stage1(variable[1]), "=\n"))
                .bytes();
        assertThat(Files.readAllBytes(file)).isEqualTo(expected);
    }

    @Test
    void emptyCompressedSectionsRoundTrip() throws Exception {
        Path file = dir.resolve("empty.scda");
        try (FileSystem fs = open(file, Map.of("create", true, "encode", true))) {
            Files.write(fs.getPath("/0000.B.empty block"), new byte[0]);
            Files.createDirectory(fs.getPath("/0001.A.no elements"), attribute("scda:elementSize", 16));
            Files.createDirectory(fs.getPath("/0002.V.no elements"));
            Path v = fs.getPath("/0003.V.empty elements");
            Files.createDirectory(v);
            Files.write(v.resolve("000000"), new byte[0]);
            Files.write(v.resolve("000001"), new byte[0]);
        }
        try (FileSystem fs = open(file, Map.of("strict", true))) {
            assertThat(Files.size(fs.getPath("/0000.B.empty block"))).isZero();
            assertThat(Files.readAllBytes(fs.getPath("/0000.B.empty block"))).isEmpty();
            assertThat(Files.getAttribute(fs.getPath("/0001.A.no elements"), "scda:elementSize")).isEqualTo(16L);
            assertThat(list(fs.getPath("/0001.A.no elements"))).isEmpty();
            assertThat(list(fs.getPath("/0002.V.no elements"))).isEmpty();
            assertThat((long[]) Files.getAttribute(fs.getPath("/0003.V.empty elements"), "scda:sizes")).containsExactly(0, 0);
            assertThat(Files.readAllBytes(fs.getPath("/0003.V.empty elements/000001"))).isEmpty();
            assertThat(Files.getAttribute(fs.getPath("/"), "scda:rawSections")).isEqualTo(8);
        }
        try (FileSystem fs = open(file, Map.of("decode", false))) {
            byte[] t = Files.readAllBytes(fs.getPath("/0001.B.empty block"));
            assertThat(independentDecode(t)).isEmpty();
        }
    }

    @Test
    void containerInsideAZipFileIsRead() throws Exception {
        Path zip = dir.resolve("corpus.zip");
        try (FileSystem z = java.nio.file.FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
            Files.copy(ScdaTestSupport.corpus().resolve("arrays.scda"), z.getPath("/arrays.scda"));
        }
        try (FileSystem z = java.nio.file.FileSystems.newFileSystem(zip, Map.of());
                FileSystem fs = open(z.getPath("/arrays.scda"), Map.of())) {
            Path a = fs.getPath("/0004.A.N=250 E=4");
            assertThat(list(a)).hasSize(250);
            assertThat(Files.readAllBytes(a.resolve("000249"))).hasSize(4);
        }
    }

    /** Lines of 76 base64 characters, the last shorter, each followed by the 2-byte break. */
    private static void assertLines(byte[] text, String lineBreak) {
        String s = new String(text, StandardCharsets.ISO_8859_1);
        assertThat(s).endsWith(lineBreak);
        String[] lines = s.split(java.util.regex.Pattern.quote(lineBreak), -1);
        for (int i = 0; i < lines.length - 2; i++) {
            assertThat(lines[i]).hasSize(76).matches("[A-Za-z0-9+/]+");
        }
        assertThat(lines[lines.length - 2].length()).isBetween(1, 76);
        assertThat(lines[lines.length - 1]).isEmpty();
        assertThat(s).startsWith(new String(Encoder.prefixText(independentSize(text)), StandardCharsets.US_ASCII));
    }

    private static long independentSize(byte[] text) {
        byte[] head = java.util.Base64.getDecoder().decode(Arrays.copyOf(text, 12));
        return ByteBuffer.wrap(head).getLong();
    }

    @Test
    void elementReadsOfACompressedArrayDecodeOnlyThatElement() throws Exception {
        Path file = dir.resolve("elements.scda");
        byte[][] elements = new byte[40][];
        try (FileSystem fs = open(file, Map.of("create", true, "encode", true))) {
            Path a = fs.getPath("/0000.A");
            Files.createDirectory(a);
            for (int i = 0; i < elements.length; i++) {
                elements[i] = text(1000, 100 + i);
                Files.write(a.resolve(String.format("%06d", i)), elements[i]);
            }
        }
        // damage element 7's base64 text in the file: every other element still reads
        long offset;
        long length;
        try (FileSystem fs = open(file, Map.of())) {
            Map<String, Object> a = Files.readAttributes(fs.getPath("/0000.A/000007"), "scda:*");
            offset = (long) a.get("dataOffset");
            length = (long) a.get("compressedSize");
        }
        try (SeekableByteChannel ch = Files.newByteChannel(file, StandardOpenOption.WRITE)) {
            ch.position(offset + length / 2);
            ch.write(ByteBuffer.wrap(bytes("AAAA")));
        }
        try (FileSystem fs = open(file, Map.of())) {
            for (int i = elements.length - 1; i >= 0; i--) {
                Path p = fs.getPath("/0000.A", String.format("%06d", i));
                if (i == 7) {
                    assertThatThrownBy(() -> Files.readAllBytes(p)).isInstanceOf(ContainerFormatException.class)
                            .hasMessageContaining("0000.A/000007");
                } else {
                    assertThat(Files.readAllBytes(p)).isEqualTo(elements[i]);
                }
            }
            // a positional read in the middle of one element
            try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/0000.A/000031"))) {
                ByteBuffer buf = ByteBuffer.allocate(100);
                ch.position(500);
                ch.read(buf);
                assertThat(buf.array()).isEqualTo(Arrays.copyOfRange(elements[31], 500, 600));
            }
        }
    }

    @Test
    void handBuiltCompressedBlocksDecodeWithEveryLineBreakStyle() throws Exception {
        byte[] data = text(3000, 9);
        byte[] s1 = RawScda.stage1(data);
        Path file = dir.resolve("styles.scda");
        Files.write(file, new RawScda("x", "")
                .compressedBlock("unix", 3000, RawScda.stage2(s1, "=\n"))
                .compressedBlock("mime", 3000, RawScda.stage2(s1, "\r\n"))
                .compressedBlock("bare", 3000, RawScda.stage2(s1, "\n")).bytes());
        try (FileSystem fs = open(file, Map.of())) {
            assertThat(names(fs.getPath("/"))).isEqualTo("0000.B.unix 0001.B.mime 0002.B.bare");
            for (Path p : list(fs.getPath("/"))) {
                assertThat(Files.readAllBytes(p)).isEqualTo(data);
            }
        }
    }

    @Test
    void libscEncodeOutputIsDecodedWhenAnnouncedByTheConvention() throws Exception {
        // sc_io_encode_payloads holds sc_io_encode_zlib output of its section 2 in plain B sections;
        // announced by the convention's I section, the same text decodes to the original
        byte[] text;
        byte[] original;
        try (FileSystem fs = open(ScdaTestSupport.corpus().resolve("sc_io_encode_payloads.scda"), Map.of())) {
            List<Path> s = list(fs.getPath("/"));
            text = Files.readAllBytes(s.get(0));
            original = Files.readAllBytes(s.get(2));
        }
        Path file = dir.resolve("libsc-text.scda");
        Files.write(file, new RawScda("libsc", "").compressedBlock("from sc_io_encode", original.length, text).bytes());
        try (FileSystem fs = open(file, Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/0000.B.from sc_io_encode"))).isEqualTo(original);
        }
    }

    @Test
    void sizePrefixFormatByteAndAdlerAreChecked() throws Exception {
        byte[] data = text(2000, 11);
        byte[] good = RawScda.stage1(data);
        byte[] wrongSize = good.clone();
        wrongSize[7] ^= 1;
        byte[] wrongFormat = good.clone();
        wrongFormat[8] = 'y';
        byte[] wrongAdler = good.clone();
        wrongAdler[wrongAdler.length - 1] ^= 0x55;
        byte[] shortStream = Arrays.copyOf(good, good.length - 6);
        Path file = dir.resolve("checks.scda");
        Files.write(file, new RawScda("x", "")
                .compressedBlock("size", 2000, RawScda.stage2(wrongSize, "=\n"))
                .compressedBlock("format", 2000, RawScda.stage2(wrongFormat, "=\n"))
                .compressedBlock("adler", 2000, RawScda.stage2(wrongAdler, "=\n"))
                .compressedBlock("short", 2000, RawScda.stage2(shortStream, "=\n"))
                .compressedBlock("declared", 1999, RawScda.stage2(good, "=\n"))
                .compressedBlock("empty", 0, RawScda.stage2(good, "=\n")).bytes());
        try (FileSystem fs = open(file, Map.of())) {
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/0000.B.size")))
                    .isInstanceOf(ContainerFormatException.class).hasMessageContaining("stored uncompressed size 2000");
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/0001.B.format")))
                    .isInstanceOf(ContainerFormatException.class).hasMessageContaining("format byte 'z'");
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/0002.B.adler")))
                    .isInstanceOf(ChecksumMismatchException.class).hasMessageContaining("Adler-32");
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/0003.B.short")))
                    .isInstanceOf(ContainerFormatException.class);
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/0004.B.declared")))
                    .isInstanceOf(ContainerFormatException.class).hasMessageContaining("uncompressed size 1999");
            assertThat(Files.size(fs.getPath("/0005.B.empty"))).isZero();
            assertThatThrownBy(() -> Files.readAllBytes(fs.getPath("/0005.B.empty")))
                    .isInstanceOf(ContainerFormatException.class).hasMessageContaining("uncompressed size 0");
        }
        try (FileSystem fs = open(file, Map.of("decode", false))) {
            assertThat(list(fs.getPath("/"))).hasSize(12);
        }
    }

    @Test
    void pairThatDoesNotConformIsAnErrorNotARawFallback() throws Exception {
        Path file = dir.resolve("badpair.scda");
        Files.write(file, new RawScda("x", "")
                .inline("B compressed scda 00", RawScda.entry('U', "10"))
                .inline("not a block", new byte[32]).bytes());
        try (FileSystem fs = open(file, Map.of())) {
            assertThat(list(fs.getPath("/"))).isEmpty();
            assertThat((String) Files.getAttribute(fs.getPath("/"), "scda:damage"))
                    .contains("section 0 (compressed B): expected a B section after the \"B compressed scda 00\" section, found type I");
        }
        try (FileSystem fs = open(file, Map.of("decode", false))) {
            assertThat(list(fs.getPath("/"))).hasSize(2);
        }
    }

    @Test
    void lonePairOpenerAtTheEndIsDamageThatAnAppendDoesNotRemove() throws Exception {
        Path file = dir.resolve("lone.scda");
        byte[] bytes = new RawScda("x", "").block("b", bytes("x"))
                .inline("A compressed scda 00", RawScda.entry('U', "10")).bytes();
        Files.write(file, bytes);
        try (FileSystem fs = open(file, Map.of("accessMode", "readWrite"))) {
            assertThat(names(fs.getPath("/"))).isEqualTo("0000.B.b");
            assertThat(Files.readAttributes(fs.getPath("/"), "scda:*")).containsEntry("tornTail", false)
                    .containsEntry("damageOffset", 128L + 96 + 1 + 31 + 96);
            assertThatThrownBy(() -> Files.write(fs.getPath("/0001.B.c"), bytes("y")))
                    .isInstanceOf(ContainerFormatException.class).hasMessageContaining("refusing to append");
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
        try (FileSystem fs = open(file, Map.of("decode", false, "strict", true))) {
            assertThat(names(fs.getPath("/"))).isEqualTo("0000.B.b 0001.I.A compressed scda 00");
        }
    }

    @Test
    void mimeLineBreaksAreWrittenAndReadInEveryPadding() throws Exception {
        Path file = dir.resolve("mime.scda");
        try (FileSystem fs = open(file, Map.of("create", true, "lineBreak", "mime", "userString", "mime"))) {
            Files.write(fs.getPath("/0000.B.ends in LF"), bytes("data\n"));
            Files.write(fs.getPath("/0001.B.plain"), bytes("data"));
            Path a = fs.getPath("/0002.A.arr");
            Files.createDirectory(a);
            Files.write(a.resolve("000000"), bytes("xy"));
            writeEncoded(fs.getPath("/0003.B.z"), text(500, 3));
        }
        byte[] all = Files.readAllBytes(file);
        String s = new String(all, StandardCharsets.ISO_8859_1);
        assertThat(s).startsWith("scdata0 containerfs " + "-".repeat(10) + "\r\nF mime ");
        assertThat(s).contains("data\n" + "=".repeat(23) + "\r\n\r\n").contains("data\r\n" + "=".repeat(22) + "\r\n\r\n");
        assertThat(s).doesNotContain("-\n").doesNotContain("\n\n");
        for (boolean lenient : new boolean[] {false, true}) {
            try (FileSystem fs = open(file, Map.of("lenient", lenient))) {
                assertThat(names(fs.getPath("/"))).isEqualTo("0000.B.ends in LF 0001.B.plain 0002.A.arr 0003.B.z");
                assertThat(Files.readAllBytes(fs.getPath("/0000.B.ends in LF"))).isEqualTo(bytes("data\n"));
                assertThat(Files.readAllBytes(fs.getPath("/0002.A.arr/000000"))).isEqualTo(bytes("xy"));
                assertThat(Files.readAllBytes(fs.getPath("/0003.B.z"))).isEqualTo(text(500, 3));
            }
        }
        try (FileSystem fs = open(file, Map.of("decode", false))) {
            byte[] t = Files.readAllBytes(fs.getPath("/0004.B.z"));
            assertLines(t, "\r\n");
            assertThat(independentDecode(t)).isEqualTo(text(500, 3));
        }
    }

    @Test
    void arraySectionIsCommittedOnExplicitCommitOnTheNextSectionAndOnClose() throws Exception {
        Path file = dir.resolve("commit.scda");
        try (FileSystem fs = open(file, Map.of("create", true))) {
            Path a = fs.getPath("/0000.A.first");
            Files.createDirectory(a);
            Files.write(a.resolve("000000"), bytes("abc"));
            assertThat(committedSections(file)).isZero();
            assertThat(Files.readAllBytes(a.resolve("000000"))).isEqualTo(bytes("abc"));
            assertThat(Files.getAttribute(a, "scda:pending")).isEqualTo(true);
            Files.setAttribute(a, "scda:commit", true);
            assertThat(committedSections(file)).isEqualTo(1);
            assertThat(Files.getAttribute(a, "scda:count")).isEqualTo(1L);

            Path v = fs.getPath("/0001.V.second");
            Files.createDirectory(v);
            Files.write(v.resolve("000000"), bytes("1"));
            Files.write(v.resolve("000001"), bytes("22"));
            Files.write(fs.getPath("/0002.I.third"), new byte[32]);
            assertThat(committedSections(file)).isEqualTo(3);

            Path last = fs.getPath("/0003.A.last");
            Files.createDirectory(last);
            Files.write(last.resolve("000000"), bytes("zz"));
            assertThat(committedSections(file)).isEqualTo(3);
        }
        assertThat(committedSections(file)).isEqualTo(4);
        try (FileSystem fs = open(file, Map.of())) {
            assertThat(names(fs.getPath("/"))).isEqualTo("0000.A.first 0001.V.second 0002.I.third 0003.A.last");
            assertThat(Files.readAllBytes(fs.getPath("/0001.V.second/000001"))).isEqualTo(bytes("22"));
        }
    }

    @Test
    void readChannelOpenedBeforeCommitFollowsTheMovedElementData() throws Exception {
        Path file = dir.resolve("moved.scda");
        byte[] first = text(3000, 31);
        try (FileSystem fs = open(file, Map.of("create", true))) {
            for (String type : new String[] {"V", "A"}) {
                boolean encoded = type.equals("A");
                Path v = fs.getPath(encoded ? "/0001.A.encoded" : "/0000.V.plain");
                Files.createDirectory(v, attribute("scda:encode", encoded));
                Files.write(v.resolve("000000"), first);
                Files.write(v.resolve("000001"), first);
                try (SeekableByteChannel ch = Files.newByteChannel(v.resolve("000000"))) {
                    ByteBuffer head = ByteBuffer.allocate(1000);
                    ch.read(head);
                    // the commit moves the spooled data up by 32 bytes per element
                    Files.setAttribute(v, "scda:commit", true);
                    ByteBuffer rest = ByteBuffer.allocate(2000);
                    while (rest.hasRemaining()) {
                        ch.read(rest);
                    }
                    byte[] all = new byte[3000];
                    System.arraycopy(head.array(), 0, all, 0, 1000);
                    System.arraycopy(rest.array(), 0, all, 1000, 2000);
                    assertThat(all).isEqualTo(first);
                }
            }
        }
    }

    /** Sections a separate read-only open sees (what another process would see). */
    private static int committedSections(Path file) throws IOException {
        try (FileSystem fs = new ScdaFileSystemProvider().newFileSystem(file, Map.of())) {
            return (int) Files.getAttribute(fs.getPath("/"), "scda:sections");
        }
    }

    @Test
    void tornTailFromAnInterruptedAppendIsReportedThenRemovedByTheNextAppend() throws Exception {
        Path file = dir.resolve("torn.scda");
        Path snapshot = dir.resolve("snapshot.scda");
        try (FileSystem fs = open(file, Map.of("create", true))) {
            Files.write(fs.getPath("/0000.B.kept"), bytes("committed"));
            try (OutputStream out = Files.newOutputStream(fs.getPath("/0001.B.torn"))) {
                out.write(random(1 << 20, 1));
                out.flush();
                // what a kill at this instant leaves behind
                Files.copy(file, snapshot);
            }
        }
        long committedEnd = 128 + 96 + 9 + ScdaSyntax.padLength(9);
        assertThat(Files.size(snapshot)).isGreaterThan(committedEnd + (1 << 20));
        assertThat(Files.readAllBytes(snapshot)[(int) committedEnd]).isEqualTo((byte) '?');
        try (FileSystem fs = open(snapshot, Map.of())) {
            assertThat(names(fs.getPath("/"))).isEqualTo("0000.B.kept");
            Map<String, Object> a = Files.readAttributes(fs.getPath("/"), "scda:*");
            assertThat(a).containsEntry("tornTail", true).containsEntry("damageOffset", committedEnd);
            assertThat((String) a.get("uncommittedTail")).contains("uncommitted append");
            assertThat(a.get("damage")).isEqualTo(""); // no committed byte is lost (issue 18.2)
        }
        try (FileSystem fs = open(snapshot, Map.of("accessMode", "readWrite"))) {
            Files.write(fs.getPath("/0001.B.again"), bytes("second try"));
        }
        byte[] expected = new RawScda("containerfs", "").block("kept", bytes("committed"))
                .block("again", bytes("second try")).bytes();
        assertThat(Files.readAllBytes(snapshot)).isEqualTo(expected);
    }

    @Test
    void readOnlyFileSystemSeesSectionsAnotherWriterCommits() throws Exception {
        Path file = dir.resolve("live.scda");
        try (FileSystem w = open(file, Map.of("create", true))) {
            Files.write(w.getPath("/0000.B.first"), bytes("1"));
        }
        try (FileSystem reader = new ScdaFileSystemProvider().newFileSystem(file, Map.of());
                FileSystem writer = new ScdaFileSystemProvider().newFileSystem(file, Map.of("accessMode", "readWrite"))) {
            assertThat(names(reader.getPath("/"))).isEqualTo("0000.B.first");
            try (OutputStream out = Files.newOutputStream(writer.getPath("/0001.B.second"))) {
                out.write(random(1 << 20, 3));
                out.flush();
                // uncommitted: the reader does not show it
                assertThat(names(reader.getPath("/"))).isEqualTo("0000.B.first");
                assertThat(Files.getAttribute(reader.getPath("/"), "scda:tornTail")).isEqualTo(true);
            }
            assertThat(names(reader.getPath("/"))).isEqualTo("0000.B.first 0001.B.second");
            assertThat(Files.readAllBytes(reader.getPath("/0001.B.second"))).isEqualTo(random(1 << 20, 3));
        }
    }

    @Test
    void truncatedLibscFileIsCutBackToItsLastCompleteSectionBeforeAppending() throws Exception {
        Path file = dir.resolve("trunc.scda");
        Files.copy(ScdaTestSupport.corpus().resolve("trunc_mid_block.scda"), file);
        try (FileSystem fs = open(file, Map.of("accessMode", "readWrite"))) {
            Files.write(fs.getPath("/0004.B.size 33"), Arrays.copyOf(bytes("0123456789012345678901234567890123"), 33));
        }
        try (FileSystem fs = open(file, Map.of("strict", true))) {
            assertThat(list(fs.getPath("/"))).hasSize(5);
        }
    }

    @Test
    void appendingAfterRealDamageIsRefused() throws Exception {
        Path file = dir.resolve("damaged.scda");
        Files.copy(ScdaTestSupport.corpus().resolve("bad_data_padding.scda"), file);
        try (FileSystem fs = open(file, Map.of("accessMode", "readWrite"))) {
            assertThatThrownBy(() -> Files.write(fs.getPath("/0001.B.x"), bytes("x")))
                    .isInstanceOf(ContainerFormatException.class)
                    .hasMessageContaining("refusing to append after damage")
                    .hasMessageContaining("section 1 (B)");
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(Files.readAllBytes(ScdaTestSupport.corpus().resolve("bad_data_padding.scda")));
    }

    @Test
    void largeBlockStreamsToTheFileWhileItIsWritten() throws Exception {
        Path file = dir.resolve("large.scda");
        byte[] chunk = random(1 << 20, 5);
        try (FileSystem fs = open(file, Map.of("create", true))) {
            try (OutputStream out = Files.newOutputStream(fs.getPath("/0000.B.large"))) {
                for (int i = 0; i < 16; i++) {
                    out.write(chunk);
                }
                // the data is in the file before close: the count entry is filled in at close
                assertThat(Files.size(file)).isGreaterThanOrEqualTo(128 + 96 + 15L * chunk.length);
            }
        }
        try (FileSystem fs = open(file, Map.of())) {
            Path p = fs.getPath("/0000.B.large");
            assertThat(Files.size(p)).isEqualTo(16L << 20);
            try (SeekableByteChannel ch = Files.newByteChannel(p)) {
                ByteBuffer buf = ByteBuffer.allocate(chunk.length);
                ch.position(7L << 20);
                while (buf.hasRemaining()) {
                    ch.read(buf);
                }
                assertThat(buf.array()).isEqualTo(chunk);
            }
        }
    }

    @Test
    void writesOutsideTheAppendRulesAreRefused() throws Exception {
        Path file = dir.resolve("rules.scda");
        try (FileSystem fs = open(file, Map.of("create", true))) {
            assertThatThrownBy(() -> Files.write(fs.getPath("/0000.B." + "u".repeat(59)), bytes("x")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("at most 58 bytes");
            assertThatThrownBy(() -> Files.write(fs.getPath("/0001.B.skip"), bytes("x")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("next section is 0000");
            assertThatThrownBy(() -> Files.write(fs.getPath("/0000.I.short"), bytes("x")))
                    .isInstanceOf(IOException.class).hasMessageContaining("exactly 32 bytes");
            assertThatThrownBy(() -> Files.write(fs.getPath("/0000.I.B compressed scda 00"), new byte[32]))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("reserved");
            Files.write(fs.getPath("/0000.B." + "u".repeat(58)), bytes("x"));
            assertThatThrownBy(() -> Files.write(fs.getPath("/0000.B." + "u".repeat(58)), bytes("y")))
                    .isInstanceOf(AccessDeniedException.class);
            Path a = fs.getPath("/0001.A.fixed");
            Files.createDirectory(a);
            Files.write(a.resolve("000000"), bytes("abc"));
            assertThatThrownBy(() -> Files.write(a.resolve("000001"), bytes("abcd")))
                    .isInstanceOf(IOException.class).hasMessageContaining("have 3 bytes");
            assertThatThrownBy(() -> Files.write(a.resolve("000001"), bytes("ab")))
                    .isInstanceOf(IOException.class).hasMessageContaining("was not added");
            assertThatThrownBy(() -> Files.write(a.resolve("000002"), bytes("abc")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("000001");
            Files.write(a.resolve("000001"), bytes("def"));
            assertThatThrownBy(() -> Files.delete(fs.getPath("/0000.B." + "u".repeat(58))))
                    .isInstanceOf(AccessDeniedException.class);
        }
        try (FileSystem fs = open(file, Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/0001.A.fixed/000001"))).isEqualTo(bytes("def"));
            assertThat(Files.getAttribute(fs.getPath("/0001.A.fixed"), "scda:count")).isEqualTo(2L);
        }
    }

    @Test
    void userStringBytesAreEncodedInNamesAndWrittenBack() throws Exception {
        Path file = dir.resolve("names.scda");
        byte[] user = {'a', '/', 0, '\n', (byte) 0xFF, '%', '-'};
        String name = ScdaContainer.sectionName(0, 'B', user);
        assertThat(name).isEqualTo("0000.B.a%2F%00%0A%FF%25-");
        try (FileSystem fs = open(file, Map.of("create", true))) {
            Files.write(fs.getPath("/" + name), bytes("x"));
            Files.write(fs.getPath("/0001.B"), bytes("empty user string"));
        }
        try (FileSystem fs = open(file, Map.of())) {
            assertThat((byte[]) Files.getAttribute(fs.getPath("/" + name), "scda:userString")).isEqualTo(user);
            assertThat(Files.readAllBytes(fs.getPath("/0001.B"))).isEqualTo(bytes("empty user string"));
        }
    }

    @Test
    void lenientAcceptsWhatLibscAcceptsAndStrictRejectsIt() throws Exception {
        Map<String, byte[]> quirks = new HashMap<>();
        quirks.put("leading spaces in a count", new RawScda("x", "").block("b", " 3", bytes("abc"), RawScda.pad(3, 'c')).bytes());
        quirks.put("plus sign in a count", new RawScda("x", "").block("b", "+3", bytes("abc"), RawScda.pad(3, 'c')).bytes());
        quirks.put("LF-first padding after LF data", new RawScda("x", "").block("b", "3", bytes("ab\n"), RawScda.pad(3, 'c')).bytes());
        byte[] user59 = new byte[62];
        Arrays.fill(user59, 0, 59, (byte) 'u');
        user59[59] = ' ';
        user59[60] = '-';
        user59[61] = '\n';
        quirks.put("59-byte user string behind one dash", new RawScda("x", "").raw(bytes("B "))
                .raw(user59).raw(RawScda.entry('E', "1")).raw(bytes("q")).raw(RawScda.pad(1, 'q')).bytes());
        for (Map.Entry<String, byte[]> q : quirks.entrySet()) {
            Path file = dir.resolve("quirk.scda");
            Files.write(file, q.getValue());
            try (FileSystem fs = open(file, Map.of("lenient", true, "strict", true))) {
                assertThat(list(fs.getPath("/"))).as(q.getKey()).hasSize(1);
            }
            assertThatThrownBy(() -> open(file, Map.of("strict", true)).close()).as(q.getKey())
                    .isInstanceOf(ContainerFormatException.class)
                    .hasMessageContaining("section 0 (B)")
                    .hasMessageContaining("at byte " + (q.getKey().contains("padding") ? 227 : q.getKey().contains("user") ? 130 : 194));
        }
    }

    @Test
    void hostileCountsFailWithoutAllocating() throws Exception {
        String nines = "9".repeat(26);
        Path file = dir.resolve("hostile.scda");
        Files.write(file, new RawScda("x", "").block("huge", nines, new byte[0], new byte[0]).bytes());
        try (FileSystem fs = open(file, Map.of())) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "scda:damage")).contains("data bytes from byte 224");
        }
        Files.write(file, new RawScda("x", "").raw(bytes("A ")).raw(RawScda.field(bytes("empty elements"), 62))
                .raw(RawScda.entry('N', nines)).raw(RawScda.entry('E', "0")).raw(RawScda.pad(0, -1)).bytes());
        try (FileSystem fs = open(file, Map.of())) {
            Path a = fs.getPath("/0000.A.empty elements");
            assertThat(Files.getAttribute(a, "scda:count")).isEqualTo(Long.MAX_VALUE);
            assertThatThrownBy(() -> list(a)).isInstanceOf(ContainerFormatException.class).hasMessageContaining("2^31-1");
        }
        Files.write(file, new RawScda("x", "").raw(bytes("V ")).raw(RawScda.field(bytes("v"), 62))
                .raw(RawScda.entry('N', "12345678901234567890")).raw(RawScda.entry('E', "1")).bytes());
        try (FileSystem fs = open(file, Map.of())) {
            assertThat(list(fs.getPath("/"))).isEmpty();
            assertThat(Files.getAttribute(fs.getPath("/"), "scda:tornTail")).isEqualTo(true);
        }
    }
}
