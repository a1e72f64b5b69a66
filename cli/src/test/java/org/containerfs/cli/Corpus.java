package org.containerfs.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The LIME corpus of the provider's tests and its MANIFEST.tsv (one row per record, sha256 of its payload). */
final class Corpus {
    private Corpus() {}

    /** One record row of the manifest. */
    record Row(String file, int message, int record, String type, long length, String sha256, String note) {
        /** The record's path in the tree: /msgNN/recNN.<type>. */
        String path() {
            return String.format("/msg%02d/rec%02d.%s", message, record, type);
        }

        boolean readable() {
            return !sha256.equals("-");
        }

        @Override
        public String toString() {
            return file + " " + path();
        }
    }

    static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("containerfs")) && Files.isDirectory(p.resolve("provider"))) {
                return p;
            }
        }
        throw new IllegalStateException("the repository root is not above " + dir);
    }

    static Path limeDirectory() {
        String property = System.getProperty("containerfs.corpus");
        Path base = property != null ? Path.of(property)
                : repositoryRoot().resolve("provider/src/test/resources/corpus");
        return base.resolve("lime");
    }

    static Path lime(String name) {
        return limeDirectory().resolve(name);
    }

    static List<Row> rows() {
        try {
            List<Row> rows = new ArrayList<>();
            List<String> lines = Files.readAllLines(limeDirectory().resolve("MANIFEST.tsv"), StandardCharsets.UTF_8);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.split("\t", -1);
                if (f.length < 9 || f[1].equals("-")) {
                    continue; // the per-file reference line
                }
                rows.add(new Row(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[5], Long.parseLong(f[6]), f[7], f[8]));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Row> rows(String file) {
        return rows().stream().filter(r -> r.file().equals(file)).toList();
    }

    /** Corpus files in manifest order (including files without records). */
    static Set<String> files() {
        try {
            Set<String> files = new LinkedHashSet<>();
            List<String> lines = Files.readAllLines(limeDirectory().resolve("MANIFEST.tsv"), StandardCharsets.UTF_8);
            for (String line : lines.subList(1, lines.size())) {
                files.add(line.split("\t", -1)[0]);
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether the manifest describes the file as damaged: a record whose payload cannot be read, or bytes after
     * the last record that are not a record (which c-lime ignores silently).
     */
    static boolean damaged(String file) {
        try {
            for (String line : Files.readAllLines(limeDirectory().resolve("MANIFEST.tsv"), StandardCharsets.UTF_8)) {
                String[] f = line.split("\t", -1);
                if (f[0].equals(file) && (f[7].equals("-") && !f[1].equals("-") || f[8].contains("trailing bytes"))) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256(Path file) {
        try {
            return sha256(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
