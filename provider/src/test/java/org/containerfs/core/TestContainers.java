package org.containerfs.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.containerfs.lime.LimeCorpusTest;
import org.containerfs.spi.Names;

/** Shared fixtures of the core tests: the LIME corpus, its manifest, digests, and opening helpers. */
final class TestContainers {
    private TestContainers() {}

    /** A file of the LIME corpus, from the surefire property or else the test classpath. */
    static Path corpus(String name) {
        String dir = System.getProperty("containerfs.corpus");
        if (dir != null && Files.isDirectory(Path.of(dir, "lime"))) {
            return Path.of(dir, "lime", name);
        }
        URL url = TestContainers.class.getResource("/corpus/lime/" + name);
        if (url == null) {
            throw new IllegalStateException("corpus file " + name + " not found");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Copies a corpus file to {@code target} (any NIO file system), creating its directory. */
    static Path copyCorpus(String name, Path target) throws IOException {
        if (target.getParent() != null) {
            Files.createDirectories(target.getParent());
        }
        Files.write(target, Files.readAllBytes(corpus(name)));
        return target;
    }

    static FileSystem openReadOnly(Path container) throws IOException {
        return FileSystems.newFileSystem(container, Map.of());
    }

    static FileSystem openWritable(Path container) throws IOException {
        return FileSystems.newFileSystem(container, Map.of("accessMode", "readWrite"));
    }

    /** A new, empty container, writable (through the lime: URI: zipfs would claim a path with create=true). */
    static FileSystem create(Path container) throws IOException {
        return FileSystems.newFileSystem(java.net.URI.create("lime:" + container.toUri()), Map.of("create", "true"));
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

    /** One record row of MANIFEST.tsv (file-level rows, message "-", are skipped). */
    record Row(String file, int message, int record, boolean mb, boolean me, byte[] type, long length,
            String sha256) {
        /** The record's path in the tree: /msgNN/recNN.<encoded type>. */
        String path() {
            return "/" + Names.indexed("msg", message, 2) + "/" + Names.prefixed(Names.indexed("rec", record, 2), type);
        }
    }

    static List<Row> manifest(String file) throws IOException {
        List<Row> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(corpus("MANIFEST.tsv"), StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            if (!f[0].equals(file) || f[1].equals("-")) {
                continue;
            }
            rows.add(new Row(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[3].equals("1"),
                    f[4].equals("1"), unescapeType(f[5]), Long.parseLong(f[6]), f[7]));
        }
        if (rows.isEmpty()) {
            throw new IllegalStateException("no manifest rows for " + file);
        }
        return rows;
    }

    /** The manifest's type column: \\, \t, \n, \r and \xHH escapes of the raw bytes. */
    static byte[] unescapeType(String s) {
        return LimeCorpusTest.unescape(s);
    }
}
