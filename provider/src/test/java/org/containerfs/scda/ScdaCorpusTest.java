package org.containerfs.scda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.containerfs.scda.ScdaTestSupport.corpus;
import static org.containerfs.scda.ScdaTestSupport.open;
import static org.containerfs.scda.ScdaTestSupport.sha256;
import static org.containerfs.scda.ScdaTestSupport.unescape;

import java.io.ByteArrayOutputStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.spi.UnsupportedVersionException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every row of MANIFEST.tsv and ELEMENTS.tsv (written by libsc's reader) against our tree, with
 * {@code lenient=true} (must match libsc exactly) and in the default strict mode (must match except
 * for the deliberate deviations listed in {@link #STRICT_DEVIATIONS}).
 */
class ScdaCorpusTest {

    /** Files libsc accepts but the strict reader rejects: file -> [section index, rule fragment]. */
    private static final Map<String, String[]> STRICT_DEVIATIONS = Map.of(
            "count_leading_zeros.scda", new String[] {"1", "leading zeros"});

    private static final Pattern CLEAN_END = Pattern.compile("clean end of file at byte (\\d+)");

    @TestFactory
    Stream<DynamicTest> everyManifestRowMatchesWithLenientReading() throws Exception {
        return ScdaTestSupport.manifest().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(),
                () -> checkFile(e.getKey(), e.getValue(), true)));
    }

    @TestFactory
    Stream<DynamicTest> everyManifestRowMatchesWithStrictReadingExceptDocumentedDeviations() throws Exception {
        return ScdaTestSupport.manifest().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(),
                () -> checkFile(e.getKey(), strictExpectation(e.getKey(), e.getValue()), false)));
    }

    private static List<String[]> strictExpectation(String file, List<String[]> rows) {
        String[] dev = STRICT_DEVIATIONS.get(file);
        if (dev == null) {
            return rows;
        }
        List<String[]> out = new ArrayList<>();
        for (String[] r : rows) {
            if (r[1].equals(dev[0])) {
                out.add(new String[] {file, dev[0], "ERROR", "-", "-", "-", "-", "-", "-", "-",
                        "strict reader: scdaret=15000 " + dev[1]});
                break;
            }
            out.add(r);
        }
        return out;
    }

    private static void checkFile(String file, List<String[]> rows, boolean lenient) throws Exception {
        Path path = corpus().resolve(file);
        Map<String, Object> env = new HashMap<>();
        env.put("lenient", lenient);
        String[] header = rows.get(0);
        assertThat(header[1]).isEqualTo("F");
        if (header[2].equals("ERROR")) {
            assertThatThrownBy(() -> open(path, env).close())
                    .isInstanceOf(ContainerFormatException.class)
                    .hasMessageContaining("file header F")
                    .satisfies(t -> assertThat(t instanceof TruncatedDataException).isEqualTo(header[10].contains("scdaret=15004")));
            return;
        }
        try (FileSystem fs = open(path, env)) {
            Path root = fs.getPath("/");
            Map<String, Object> rootAttrs = Files.readAttributes(root, "scda:*");
            assertThat((byte[]) rootAttrs.get("userString")).isEqualTo(unescape(header[3]));
            assertThat((byte[]) rootAttrs.get("vendor")).isEqualTo("libsc".getBytes());
            List<Path> listed;
            try (Stream<Path> s = Files.list(root)) {
                listed = s.toList();
            }
            int k = 0;
            long previousEnd = 128;
            for (String[] row : rows.subList(1, rows.size())) {
                if (row[1].equals("END")) {
                    Matcher m = CLEAN_END.matcher(row[10]);
                    assertThat(m.find()).isTrue();
                    long end = Long.parseLong(m.group(1));
                    assertThat(Files.size(path)).isEqualTo(end);
                    assertThat(rootAttrs.get("end")).isEqualTo(end);
                    assertThat(rootAttrs.get("damage")).isEqualTo("");
                    assertThat(listed).hasSize(k);
                    assertThat(rootAttrs.get("sections")).isEqualTo(k);
                    continue;
                }
                assertThat(Integer.parseInt(row[1])).isEqualTo(k);
                if (row[2].equals("ERROR")) {
                    boolean truncation = row[10].contains("scdaret=15004");
                    assertThat(listed).hasSize(k);
                    assertThat((String) rootAttrs.get("damage")).contains("section " + k);
                    assertThat((long) rootAttrs.get("damageOffset")).isBetween(previousEnd, Files.size(path));
                    assertThat(rootAttrs.get("tornTail")).isEqualTo(truncation);
                    Map<String, Object> strictOpen = new HashMap<>(env);
                    strictOpen.put("strict", true);
                    assertThatThrownBy(() -> open(path, strictOpen).close())
                            .isInstanceOf(ContainerFormatException.class)
                            .hasMessageContaining("section " + k)
                            .hasMessageContaining(path.toString())
                            .satisfies(t -> assertThat(t instanceof TruncatedDataException).isEqualTo(truncation));
                    continue;
                }
                Path section = listed.get(k);
                checkSection(section, k, row);
                previousEnd = (long) Files.getAttribute(section, "scda:dataOffset")
                        + (long) Files.getAttribute(section, "scda:dataLength")
                        + (int) Files.getAttribute(section, "scda:paddingLength");
                k++;
            }
        }
    }

    private static void checkSection(Path section, int k, String[] row) throws Exception {
        char type = row[2].charAt(0);
        byte[] user = unescape(row[3]);
        assertThat(section.getFileName().toString()).isEqualTo(ScdaContainer.sectionName(k, type, user));
        Map<String, Object> a = Files.readAttributes(section, "scda:*");
        assertThat(a.get("type")).isEqualTo(String.valueOf(type));
        assertThat((byte[]) a.get("userString")).isEqualTo(user);
        assertThat(a.get("index")).isEqualTo(k);
        assertThat(a.get("compressed")).isEqualTo(false);
        assertThat(row[6]).isEqualTo("no");
        long dataBytes = Long.parseLong(row[7]);
        byte[] data;
        if (type == 'A') {
            long n = Long.parseLong(row[4]);
            long e = Long.parseLong(row[5]);
            assertThat(Files.isDirectory(section)).isTrue();
            assertThat(a.get("count")).isEqualTo(n);
            assertThat(a.get("elementSize")).isEqualTo(e);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            try (Stream<Path> s = Files.list(section)) {
                List<Path> elements = s.toList();
                assertThat(elements).hasSize((int) n);
                for (int i = 0; i < n; i++) {
                    assertThat(elements.get(i).getFileName().toString()).isEqualTo(String.format("%06d", i));
                    byte[] el = Files.readAllBytes(elements.get(i));
                    assertThat(el).hasSize((int) e);
                    all.writeBytes(el);
                }
            }
            data = all.toByteArray();
        } else {
            assertThat(Files.isRegularFile(section)).isTrue();
            if (type == 'B') {
                assertThat(Long.parseLong(row[5])).isEqualTo(dataBytes);
            }
            assertThat(Files.size(section)).isEqualTo(dataBytes);
            data = Files.readAllBytes(section);
        }
        assertThat(data).hasSize((int) dataBytes);
        assertThat(sha256(data)).isEqualTo(row[8]);
        if (!row[9].equals("-")) {
            // sc_io_encode output: decoded independently of the provider
            assertThat(sha256(ScdaTestSupport.independentDecode(data))).isEqualTo(row[9]);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyElementsRowMatches() throws Exception {
        return ScdaTestSupport.tsv("ELEMENTS.tsv").stream().map(row -> DynamicTest.dynamicTest(
                row[0] + " section " + row[1] + " element " + row[3], () -> {
                    try (FileSystem fs = open(corpus().resolve(row[0]), Map.of("lenient", true))) {
                        Path section;
                        try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                            section = s.toList().get(Integer.parseInt(row[1]));
                        }
                        assertThat(Files.getAttribute(section, "scda:type")).isEqualTo(row[2]);
                        Path element = section.resolve(String.format("%06d", Long.parseLong(row[3])));
                        assertThat(Files.size(element)).isEqualTo(Long.parseLong(row[4]));
                        assertThat(sha256(Files.readAllBytes(element))).isEqualTo(row[5]);
                        assertThat(Files.getAttribute(element, "scda:index")).isEqualTo(Long.parseLong(row[3]));
                    }
                }));
    }

    @Test
    void wrongVersionInTheMagicIsAnUnsupportedVersion() {
        assertThatThrownBy(() -> open(corpus().resolve("bad_magic.scda"), Map.of()).close())
                .isInstanceOf(UnsupportedVersionException.class)
                .hasMessageContaining("at byte 5")
                .hasMessageContaining("scdata1");
    }

    @Test
    void installedProviderOpensCorpusFilesByPath() throws Exception {
        try (FileSystem fs = FileSystems.newFileSystem(corpus().resolve("all_types.scda"), Map.of())) {
            assertThat(fs.provider().getScheme()).isEqualTo("scda");
            assertThat(Files.readAllBytes(fs.getPath("/0000.I.I: inline section"))).hasSize(32);
            assertThat(Files.readAttributes(fs.getPath("/0002.A.A: 4 doubles (native LE)"), "scda:count"))
                    .containsEntry("count", 4L);
        }
    }

    @Test
    void strictRejectionNamesSectionOffsetAndRule() {
        assertThatThrownBy(() -> open(corpus().resolve("count_leading_zeros.scda"), Map.of("strict", true)).close())
                .isInstanceOf(ContainerFormatException.class)
                .hasMessageContaining("section 1 (B)")
                .hasMessageContaining("at byte 290")
                .hasMessageContaining("without leading zeros")
                .hasMessageContaining("\"00033\"");
    }

    @Test
    void versionSectionOfHandmadeFileIsRejectedAsMalformedNotRead() throws Exception {
        // v_section_handmade has one E entry where a V needs N = 3 of them
        try (FileSystem fs = open(corpus().resolve("v_section_handmade.scda"), Map.of())) {
            Map<String, Object> a = Files.readAttributes(fs.getPath("/"), "scda:damage,damageOffset");
            assertThat((String) a.get("damage")).contains("section 0 (V)").contains("count entry \"E \"");
            assertThat(a.get("damageOffset")).isEqualTo(256L);
        }
    }
}
