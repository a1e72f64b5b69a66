package org.containerfs.ensemble;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;

/** A generated ensemble on any NIO file system, and what a tree or a container shows of it. */
final class Ensembles {
    private Ensembles() {}

    static final List<String> FORMAT_DIRS = List.of("lime", "gsd", "scda", "sion", "g3");
    /** Copies of the whole corpus: each run directory holds every corpus file of every format. */
    static final int RUNS = 3;

    static Path corpus() {
        String dir = System.getProperty("containerfs.corpus");
        return dir != null ? Path.of(dir) : Path.of("src/test/resources/corpus").toAbsolutePath();
    }

    static Path samples() {
        Path fromCorpus = corpus().resolve("../../../../../samples").normalize();
        return Files.isDirectory(fromCorpus) ? fromCorpus : Path.of("../samples").toAbsolutePath().normalize();
    }

    /**
     * run0..run2/{lime,gsd,scda,sion,g3}/ with every corpus file (sound, damaged, not containers at all),
     * samples/ with every sample (a SIONlib two-file set among them), plain files beside them, a file
     * named like a container that is text, and one whose GSD header is cut short.
     */
    static Path make(Path root) throws IOException {
        Files.createDirectories(root);
        for (int run = 0; run < RUNS; run++) {
            for (String format : FORMAT_DIRS) {
                Path dir = Files.createDirectories(root.resolve("run" + run).resolve(format));
                try (Stream<Path> files = Files.list(corpus().resolve(format))) {
                    for (Path f : files.filter(Files::isRegularFile).toList()) {
                        copy(f, dir.resolve(f.getFileName().toString()));
                    }
                }
            }
            Files.writeString(root.resolve("run" + run).resolve("notes.txt"), "run " + run + "\n");
        }
        Path samples = Files.createDirectories(root.resolve("samples"));
        for (String format : FORMAT_DIRS) {
            try (Stream<Path> files = Files.list(samples().resolve(format))) {
                for (Path f : files.toList()) {
                    copy(f, samples.resolve(f.getFileName().toString()));
                }
            }
        }
        Files.writeString(root.resolve("README.txt"), "an ensemble\n");
        Files.writeString(root.resolve("not-really.lime"), "plain text, named like a LIME file\n");
        byte[] gsd = Files.readAllBytes(corpus().resolve("gsd/hoomd_trajectory.gsd"));
        Files.write(root.resolve("cut-header.gsd"), java.util.Arrays.copyOf(gsd, 100));
        return root;
    }

    static void copy(Path from, Path to) throws IOException {
        Files.write(to, Files.readAllBytes(from)); // across file systems (jimfs): bytes, not Files.copy
    }

    /** Whether the test takes {@code name} for a container name (independently of the library's list). */
    static boolean containerName(String name) {
        String n = name.toLowerCase(Locale.ROOT).replaceFirst("\\.gz(ip)?$", "");
        return Stream.of(".lime", ".ildg", ".gsd", ".scda", ".sion", ".g3").anyMatch(n::endsWith);
    }

    static boolean sionMember(Path file) {
        String name = file.getFileName().toString();
        return name.matches(".*\\.sion\\.[0-9]{6}")
                && Files.exists(file.resolveSibling(name.substring(0, name.length() - 7)));
    }

    /**
     * Everything under {@code top}, by path relative to it: "dir", "size sha256" for a file, or
     * "failed" for a directory that could not be listed or a file that could not be read.
     */
    static Map<String, String> snapshot(Path top) throws IOException {
        Map<String, String> out = new TreeMap<>();
        Files.walkFileTree(top, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                out.put(top.relativize(dir).toString(), "dir");
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                out.put(top.relativize(file).toString(), fileEntry(file, attrs));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) {
                out.put(top.relativize(file).toString(), "failed");
                return FileVisitResult.CONTINUE;
            }
        });
        return out;
    }

    /** "size sha256", or "size unreadable" for a record whose bytes are not all there (a truncated container). */
    static String fileEntry(Path file, BasicFileAttributes attrs) {
        try {
            return attrs.size() + " " + sha256(file);
        } catch (IOException e) {
            return attrs.size() + " unreadable";
        }
    }

    /** What a container file shows when opened alone: its tree, "failed", or for a non-container, its bytes. */
    static Map<String, String> singleOpen(Path file) throws IOException {
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            return snapshot(fs.getPath("/"));
        } catch (ProviderNotFoundException notAContainer) {
            return Map.of("", Files.size(file) + " " + sha256(file));
        } catch (IOException damaged) {
            return Map.of("", "failed");
        }
    }

    static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        try (SeekableByteChannel ch = Files.newByteChannel(file)) {
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            while (ch.read(buf) >= 0) {
                buf.flip();
                digest.update(buf);
                buf.clear();
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    static String text(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }
}
