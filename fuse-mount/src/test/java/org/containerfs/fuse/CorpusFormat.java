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
    List<CorpusFormat> ALL = List.of(new Lime(), new Gsd(), new Scda(), new Sion(), new G3());

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

    /**
     * For a container the provider refuses to open (a damaged file header): a fragment of the
     * reason the mount command must print; {@code null} for a container that opens.
     */
    default String refusal(Path container) throws IOException {
        return null;
    }

    /**
     * Tree paths of the directories the manifest implies are empty (a G3 frame without keys, an scda
     * array of 0 elements, a GSD frame ended without chunks); the mount must show exactly these.
     */
    default java.util.Set<String> emptyDirectories(Path container) throws IOException {
        return java.util.Set.of();
    }

    /** The container of the corpus with this file name. */
    default Path corpusFile(String fileName) throws IOException {
        return containers().stream().filter(p -> p.getFileName().toString().equals(fileName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no corpus file " + fileName + " in " + name()));
    }

    /** Manifest rows (header skipped, blank lines dropped), split on tabs. */
    static List<String[]> tsv(Path file) throws IOException {
        List<String[]> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isBlank()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    /**
     * Every file of the corpus directory with one of the extensions (sorted by name), so that a
     * container the manifest has no rows for (an empty one) is mounted too; every manifest file
     * must be among them.
     */
    static List<Path> filesEndingWith(Path dir, List<String[]> rows, String... extensions) throws IOException {
        List<Path> files = new ArrayList<>();
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            s.filter(p -> java.util.Arrays.stream(extensions).anyMatch(e -> p.getFileName().toString().endsWith(e)))
                    .sorted().forEach(files::add);
        }
        for (String[] row : rows) {
            if (!files.contains(dir.resolve(row[0]))) {
                throw new IllegalStateException("manifest row for a file that is not in " + dir + ": " + row[0]);
            }
        }
        return files;
    }

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

    /**
     * GSD: MANIFEST.tsv rows (file, frame, chunk, type, type_id, N, M, nbytes, sha256), one per stored
     * chunk. A chunk is /frame/chunk with its name split on '/', unless a directory it needs is another
     * chunk of the same frame or a component is empty, "." or "..": then its slashes are %2F.
     */
    final class Gsd implements CorpusFormat {
        private final Path dir = corpusRoot().resolve("gsd");

        @Override
        public String name() {
            return "gsd";
        }

        @Override
        public List<Path> containers() throws IOException {
            return filesEndingWith(dir, tsv(dir.resolve("MANIFEST.tsv")), ".gsd");
        }

        @Override
        public Map<String, Expected> expected(Path container) throws IOException {
            String file = container.getFileName().toString();
            Map<String, java.util.Set<String>> namesByFrame = new java.util.HashMap<>();
            List<String[]> rows = new ArrayList<>();
            for (String[] row : tsv(dir.resolve("MANIFEST.tsv"))) {
                if (row[0].equals(file)) {
                    rows.add(row);
                    namesByFrame.computeIfAbsent(row[1], k -> new java.util.HashSet<>()).add(row[2]);
                }
            }
            Map<String, Expected> out = new LinkedHashMap<>();
            for (String[] row : rows) {
                String path = "/" + row[1] + "/" + chunkPath(row[2], namesByFrame.get(row[1]));
                out.put(path, new Expected(path, Long.parseLong(row[7]), row[8]));
            }
            return out;
        }

        /** Frames below the last stored one that hold no chunk (gsd stores no trailing empty frames). */
        @Override
        public java.util.Set<String> emptyDirectories(Path container) throws IOException {
            java.util.TreeSet<Integer> frames = new java.util.TreeSet<>();
            for (String[] row : tsv(dir.resolve("MANIFEST.tsv"))) {
                if (row[0].equals(container.getFileName().toString())) {
                    frames.add(Integer.parseInt(row[1]));
                }
            }
            java.util.Set<String> out = new java.util.TreeSet<>();
            for (int f = 0; !frames.isEmpty() && f < frames.last(); f++) {
                if (!frames.contains(f)) {
                    out.add("/" + f);
                }
            }
            return out;
        }

        static String chunkPath(String chunk, java.util.Set<String> frameNames) {
            String[] parts = chunk.split("/", -1);
            String prefix = "";
            for (int i = 0; i < parts.length; i++) {
                if (parts[i].isEmpty() || parts[i].equals(".") || parts[i].equals("..")) {
                    return chunk.replace("/", "%2F");
                }
                prefix = i == 0 ? parts[i] : prefix + "/" + parts[i];
                if (i < parts.length - 1 && frameNames.contains(prefix)) {
                    return chunk.replace("/", "%2F");
                }
            }
            return chunk;
        }
    }

    /**
     * scda: MANIFEST.tsv rows (file, section, type, user_string, N, E, decoded, data_bytes, data_sha256,
     * sc_io_decode_sha256, status) as libsc reads them, and ELEMENTS.tsv (file, section, type, element,
     * size, sha256). Section k is /kkkk.T.user (user string escaped by the name codec); an A section is a
     * directory of elements 000000, ... The mount opens with the default rules (not lenient, not strict):
     * a damaged section ends the tree there; a damaged file header refuses the container.
     */
    final class Scda implements CorpusFormat {
        /** Files libsc reads further than our default (non-lenient) rules: file -> the section they stop at. */
        private static final Map<String, String> DEFAULT_RULES_STOP = Map.of("count_leading_zeros.scda", "1");

        private final Path dir = corpusRoot().resolve("scda");

        @Override
        public String name() {
            return "scda";
        }

        @Override
        public List<Path> containers() throws IOException {
            return filesEndingWith(dir, tsv(dir.resolve("MANIFEST.tsv")), ".scda");
        }

        private List<String[]> rows(Path container) throws IOException {
            String file = container.getFileName().toString();
            List<String[]> rows = new ArrayList<>();
            for (String[] row : tsv(dir.resolve("MANIFEST.tsv"))) {
                if (row[0].equals(file)) {
                    rows.add(row);
                }
            }
            if (rows.isEmpty() || !rows.get(0)[1].equals("F")) {
                throw new IllegalStateException("no file header row for " + file);
            }
            return rows;
        }

        @Override
        public String refusal(Path container) throws IOException {
            return rows(container).get(0)[2].equals("ERROR") ? "file header F" : null;
        }

        @Override
        public java.util.Set<String> emptyDirectories(Path container) throws IOException {
            java.util.Set<String> emptyArrays = new java.util.TreeSet<>();
            walk(container, emptyArrays);
            return emptyArrays;
        }

        @Override
        public Map<String, Expected> expected(Path container) throws IOException {
            return walk(container, new java.util.TreeSet<>());
        }

        private Map<String, Expected> walk(Path container, java.util.Set<String> emptyArrays) throws IOException {
            String file = container.getFileName().toString();
            Map<String, Expected> out = new LinkedHashMap<>();
            List<String[]> rows = rows(container);
            if (refusal(container) != null) {
                return out;
            }
            List<String[]> elements = new ArrayList<>();
            for (String[] row : tsv(dir.resolve("ELEMENTS.tsv"))) {
                if (row[0].equals(file)) {
                    elements.add(row);
                }
            }
            for (String[] row : rows.subList(1, rows.size())) {
                if (row[1].equals("END") || row[2].equals("ERROR") || row[1].equals(DEFAULT_RULES_STOP.get(file))) {
                    break;
                }
                String section = "/" + Names.prefixed(Names.indexed("", Long.parseLong(row[1]), 4) + "." + row[2],
                        unescape(row[3]));
                if (row[2].equals("A")) {
                    long n = Long.parseLong(row[4]);
                    if (n == 0) {
                        emptyArrays.add(section);
                    }
                    long seen = 0;
                    for (String[] el : elements) {
                        if (el[1].equals(row[1])) {
                            String path = section + "/" + Names.indexed("", Long.parseLong(el[3]), 6);
                            out.put(path, new Expected(path, Long.parseLong(el[4]), el[5]));
                            seen++;
                        }
                    }
                    if (seen != n) {
                        throw new IllegalStateException(file + " section " + row[1] + ": " + n + " elements in MANIFEST.tsv, "
                                + seen + " in ELEMENTS.tsv");
                    }
                } else {
                    out.put(section, new Expected(section, Long.parseLong(row[7]), row[8]));
                }
            }
            return out;
        }

        /** The scda manifest's escapes: \\ and \xHH. */
        static byte[] unescape(String s) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == '\\') {
                    out.write('\\');
                    i++;
                } else if (c == '\\' && i + 3 < s.length() && s.charAt(i + 1) == 'x') {
                    out.write(Integer.parseInt(s.substring(i + 2, i + 4), 16));
                    i += 3;
                } else {
                    out.write(c);
                }
            }
            return out.toByteArray();
        }
    }

    /**
     * SIONlib: MANIFEST.tsv rows (file, task, globalrank, chunk, bytes, sha256_chunk, task_stream_bytes,
     * sha256_task_stream), one per chunk. The default tree is one file per task, /taskNNNNNN, holding the
     * task's logical stream (what sionsplit extracts).
     */
    final class Sion implements CorpusFormat {
        private final Path dir = corpusRoot().resolve("sion");

        @Override
        public String name() {
            return "sion";
        }

        @Override
        public List<Path> containers() throws IOException {
            return filesEndingWith(dir, tsv(dir.resolve("MANIFEST.tsv")), ".sion");
        }

        @Override
        public Map<String, Expected> expected(Path container) throws IOException {
            String file = container.getFileName().toString();
            Map<String, Expected> out = new LinkedHashMap<>();
            for (String[] row : tsv(dir.resolve("MANIFEST.tsv"))) {
                if (row[0].equals(file)) {
                    String path = "/" + Names.indexed("task", Long.parseLong(row[1]), 6);
                    Expected e = new Expected(path, Long.parseLong(row[6]), row[7]);
                    Expected before = out.put(path, e);
                    if (before != null && !before.equals(e)) {
                        throw new IllegalStateException(file + ": two stream sizes/sums for " + path);
                    }
                }
            }
            return out;
        }
    }

    /**
     * G3: MANIFEST.tsv rows (file, frame, offset, frame_type, key, blob_type, blob_len, blob_sha256,
     * crc_ok), one per key (a frame without keys has one row with an empty key). A key is
     * /NNNNNN.FrameType/key (ad-hoc types adhoc:Abcd are adhoc-Abcd; the key escaped by the name codec).
     * simple-types.g3.gz is the gzip of simple-types.g3 and read as such.
     */
    final class G3 implements CorpusFormat {
        private final Path dir = corpusRoot().resolve("g3");

        @Override
        public String name() {
            return "g3";
        }

        @Override
        public List<Path> containers() throws IOException {
            return filesEndingWith(dir, tsv(dir.resolve("MANIFEST.tsv")), ".g3", ".g3.gz");
        }

        @Override
        public Map<String, Expected> expected(Path container) throws IOException {
            String file = container.getFileName().toString();
            Map<String, Expected> out = new LinkedHashMap<>();
            for (String[] row : tsv(dir.resolve("MANIFEST.tsv"))) {
                if (!row[0].equals(file) || row[4].isEmpty()) {
                    continue; // a frame without keys: an empty directory, no file to check
                }
                String path = frameDir(row) + "/" + Names.component(row[4].getBytes(StandardCharsets.UTF_8));
                out.put(path, new Expected(path, Long.parseLong(row[6]), row[7]));
            }
            return out;
        }

        @Override
        public java.util.Set<String> emptyDirectories(Path container) throws IOException {
            java.util.Set<String> out = new java.util.TreeSet<>();
            for (String[] row : tsv(dir.resolve("MANIFEST.tsv"))) {
                if (row[0].equals(container.getFileName().toString()) && row[4].isEmpty()) {
                    out.add(frameDir(row));
                }
            }
            return out;
        }

        private static String frameDir(String[] row) {
            String type = row[3].startsWith("adhoc:") ? "adhoc-" + row[3].substring(6) : row[3];
            return "/" + Names.indexed("", Long.parseLong(row[1]), 6) + "." + type;
        }
    }
}
