package org.containerfs.lime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.containerfs.spi.Names;
import org.containerfs.spi.TruncatedDataException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every row of corpus/lime/MANIFEST.tsv (what c-lime's own tools read) against the provider's tree. */
public class LimeCorpusTest {

    record Row(String file, String message, String record, String mb, String me, String type, String length,
            String sha256, String note) {
        boolean fileLevel() {
            return message.equals("-");
        }
    }

    static Path corpus() {
        try {
            return Path.of(LimeCorpusTest.class.getResource("/corpus/lime").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Row> manifest() throws IOException {
        List<Row> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(corpus().resolve("MANIFEST.tsv"), StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            rows.add(new Row(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]));
        }
        return rows;
    }

    /** The manifest's type escapes: \\ \t \n \r and \xHH. */
    public static byte[] unescape(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.write(c);
                continue;
            }
            char n = s.charAt(++i);
            switch (n) {
                case '\\' -> out.write('\\');
                case 't' -> out.write('\t');
                case 'n' -> out.write('\n');
                case 'r' -> out.write('\r');
                case 'x' -> {
                    out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                default -> throw new IllegalArgumentException("bad escape in " + s);
            }
        }
        return out.toByteArray();
    }

    static String sha256(Path p) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(p)) {
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    @TestFactory
    Stream<DynamicTest> everyManifestRow() throws IOException {
        List<Row> rows = manifest();
        assertThat(rows).hasSizeGreaterThan(50);
        return rows.stream().map(row -> DynamicTest.dynamicTest(
                row.file() + " " + (row.fileLevel() ? "(file)" : row.message() + "/" + row.record()),
                () -> check(row, rows)));
    }

    private static void check(Row row, List<Row> all) throws Exception {
        try (FileSystem fs = FileSystems.newFileSystem(corpus().resolve(row.file()), Map.of("format", "lime"))) {
            if (row.fileLevel()) {
                checkFile(fs, row, all);
            } else {
                checkRecord(fs, row);
            }
        }
    }

    private static void checkRecord(FileSystem fs, Row row) throws Exception {
        byte[] type = unescape(row.type());
        String recName = Names.indexed("rec", Long.parseLong(row.record()), 2);
        Path p = fs.getPath("/" + Names.indexed("msg", Long.parseLong(row.message()), 2),
                Names.prefixed(recName, type));
        assertThat(Files.isRegularFile(p)).as("%s exists", p).isTrue();
        assertThat(Files.size(p)).isEqualTo(Long.parseLong(row.length()));
        Map<String, Object> a = Files.readAttributes(p, "lime:*");
        assertThat((byte[]) a.get("type")).isEqualTo(type);
        assertThat(a.get("mb")).isEqualTo(row.mb().equals("1"));
        assertThat(a.get("me")).isEqualTo(row.me().equals("1"));
        assertThat(a.get("length")).isEqualTo(Long.parseLong(row.length()));
        assertThat((long) a.get("dataOffset")).isEqualTo((long) a.get("headerOffset") + 144);
        if (row.sha256().equals("-")) {
            assertThat(a.get("truncated")).isEqualTo(true);
            assertThatThrownBy(() -> sha256(p))
                    .isInstanceOf(TruncatedDataException.class)
                    .hasMessageContaining(row.file())
                    .hasMessageContaining("byte ")
                    .hasMessageContaining(Names.prefixed(recName, type));
        } else {
            assertThat(a.get("truncated")).isEqualTo(false);
            assertThat(sha256(p)).isEqualTo(row.sha256());
        }
    }

    private static final Pattern RECORDS = Pattern.compile("rc=(\\d), (\\d+) records");
    private static final Pattern TRAILING = Pattern.compile("(\\d+) trailing bytes");

    private static void checkFile(FileSystem fs, Row row, List<Row> all) throws Exception {
        Matcher m = RECORDS.matcher(row.note());
        assertThat(m.find()).as("note %s", row.note()).isTrue();
        int rc = Integer.parseInt(m.group(1));
        int records = Integer.parseInt(m.group(2));
        Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "lime:*");
        assertThat(root.get("records")).isEqualTo(records);

        // The tree holds exactly the manifest's records, in file order.
        Map<String, Long> expected = new LinkedHashMap<>();
        for (Row r : all) {
            if (r.file().equals(row.file()) && !r.fileLevel()) {
                expected.put("/" + Names.indexed("msg", Long.parseLong(r.message()), 2) + "/"
                        + Names.prefixed(Names.indexed("rec", Long.parseLong(r.record()), 2), unescape(r.type())),
                        Long.parseLong(r.length()));
            }
        }
        Map<String, Long> actual = new LinkedHashMap<>();
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(p)) {
                    actual.put(p.toString(), Files.size(p));
                }
            }
        }
        assertThat(actual).containsExactlyEntriesOf(expected);

        String damage = (String) root.get("damage");
        Matcher t = TRAILING.matcher(row.note());
        if (t.find()) {
            assertThat(root.get("trailingBytes")).isEqualTo(Long.parseLong(t.group(1)));
            assertThat(damage).contains("partial header");
        } else if (rc != 0) {
            // c-lime fails on these files: the damage is reported, the good records listed.
            assertThat(damage).contains("truncated payload");
        } else {
            assertThat(root.get("trailingBytes")).isEqualTo(0L);
            assertThat(damage).isEmpty();
        }
    }
}
