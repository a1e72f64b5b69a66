package org.containerfs.fuse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.Names;

/**
 * One format's corpus as the mount tests see it: which container files to mount and which files
 * each must show. Adding a format to the FUSE tests = one implementation plus one line in {@link #ALL}.
 */
interface CorpusFormat {

    /** Every format whose corpus the mount tests walk. */
    List<CorpusFormat> ALL = List.of(new Lime());

    /** The format's name (its attribute view: xattrs are {@code user.<name>.*}). */
    String name();

    /** The container files of the corpus, in manifest order. */
    List<Path> containers() throws IOException;

    /** Tree path ("/msg01/rec01.x") to what the manifest says of it, for one container. */
    Map<String, Expected> expected(Path container) throws IOException;

    /**
     * One manifest row: the file's size and sha256; {@code sha256 == null} when the reference tools
     * could not read it (then a read through the mount must fail with EIO, never return short data).
     */
    record Expected(String path, long size, String sha256) {}

    /** The shared corpus root (the parent pom sets containerfs.corpus). */
    static Path corpusRoot() {
        String p = System.getProperty("containerfs.corpus");
        if (p != null) {
            return Path.of(p);
        }
        return Path.of("..", "provider", "src", "test", "resources", "corpus").toAbsolutePath().normalize();
    }

    /** LIME: MANIFEST.tsv rows (file, message, record, MB, ME, type, length, sha256, note). */
    final class Lime implements CorpusFormat {
        private final Path dir = corpusRoot().resolve("lime");

        @Override
        public String name() {
            return "lime";
        }

        private List<String[]> rows() throws IOException {
            List<String[]> rows = new ArrayList<>();
            List<String> lines = Files.readAllLines(dir.resolve("MANIFEST.tsv"), StandardCharsets.UTF_8);
            for (String line : lines.subList(1, lines.size())) {
                if (!line.isBlank()) {
                    rows.add(line.split("\t", -1));
                }
            }
            return rows;
        }

        @Override
        public List<Path> containers() throws IOException {
            List<Path> files = new ArrayList<>();
            for (String[] row : rows()) {
                Path f = dir.resolve(row[0]);
                if (!files.contains(f)) {
                    files.add(f);
                }
            }
            return files;
        }

        @Override
        public Map<String, Expected> expected(Path container) throws IOException {
            Map<String, Expected> out = new LinkedHashMap<>();
            String name = container.getFileName().toString();
            for (String[] row : rows()) {
                if (!row[0].equals(name) || row[1].equals("-")) {
                    continue; // file-level rows: their record count is the number of rows checked here
                }
                String path = "/" + Names.indexed("msg", Long.parseLong(row[1]), 2) + "/"
                        + Names.prefixed(Names.indexed("rec", Long.parseLong(row[2]), 2), unescape(row[5]));
                out.put(path, new Expected(path, Long.parseLong(row[6]), row[7].equals("-") ? null : row[7]));
            }
            return out;
        }

        /** The manifest's type escapes: \\, \t, \n, \r and \xHH. */
        static byte[] unescape(String s) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] b = s.getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < b.length; i++) {
                if (b[i] != '\\') {
                    out.write(b[i]);
                    continue;
                }
                char c = (char) b[++i];
                switch (c) {
                    case '\\' -> out.write('\\');
                    case 't' -> out.write('\t');
                    case 'n' -> out.write('\n');
                    case 'r' -> out.write('\r');
                    case 'x' -> {
                        out.write(Integer.parseInt(new String(b, i + 1, 2, StandardCharsets.US_ASCII), 16));
                        i += 2;
                    }
                    default -> throw new IllegalArgumentException("unknown escape \\" + c + " in " + s);
                }
            }
            return out.toByteArray();
        }
    }
}
