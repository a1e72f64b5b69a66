package org.containerfs.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sha2;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.containerfs.core.ContainerFileSystems;

/**
 * The reference the Spark reads are compared with: the provider's own walk of the same files through the
 * plain Path API (file name, tree path, size, SHA-256 of the content). A file that does not open gives no
 * rows; a record whose content cannot be read is there with its listed size and a null SHA-256 (as Spark's
 * {@code sha2} of a null {@code content}).
 */
final class ProviderWalk {
    private ProviderWalk() {}

    /** One expected row, keyed by the container's file name (Spark shows the qualified URI); sha256 null if unreadable. */
    record Row(String file, String path, long size, String sha256) {
        @Override
        public String toString() {
            return file + " " + path + " " + size + " " + sha256;
        }
    }

    /** A Spark read's rows in the same terms (the container's file name from its URI). */
    static List<Row> rowsOf(Dataset<org.apache.spark.sql.Row> read) {
        return read.select(col("container"), col("path"), col("size"), sha2(col("content"), 256)).collectAsList().stream()
                .map(r -> new Row(new org.apache.hadoop.fs.Path(r.getString(0)).getName(), r.getString(1), r.getLong(2),
                        r.getString(3)))
                .toList();
    }

    static List<Row> walkDirectory(Path dir) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                if (Files.isRegularFile(file)) {
                    rows.addAll(walk(file));
                }
            }
        }
        return rows;
    }

    static List<Row> walk(Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        FileSystem fs;
        try {
            fs = ContainerFileSystems.open(file);
        } catch (IOException | RuntimeException notReadable) {
            return rows;
        }
        try (fs; Stream<Path> tree = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) tree::iterator) {
                if (Files.isDirectory(p)) {
                    continue;
                }
                String sha256;
                try {
                    sha256 = sha256(Files.readAllBytes(p));
                } catch (IOException damaged) {
                    sha256 = null;
                }
                rows.add(new Row(file.getFileName().toString(), p.toString(), Files.size(p), sha256));
            }
        }
        return rows;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
