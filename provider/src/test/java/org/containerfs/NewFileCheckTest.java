package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.containerfs.core.ContainerFileSystemProvider;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.spi.InvalidNameException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ContainerFileSystemProvider#checkNewFile} answers, for every format that takes writes, exactly
 * what {@code Files.newByteChannel(CREATE_NEW, WRITE)} answers for the same name (same exception type,
 * same message), changes no byte of the container, and tells a name no container of the format can hold
 * ({@link InvalidNameException}) from a well-formed one the container refuses now (a closed unit, not the
 * next number: {@link AccessDeniedException}).
 */
class NewFileCheckTest {
    @TempDir
    Path dir;

    /** What an attempt ended with: null for success, else the exception's type and message. */
    private record Outcome(Class<?> type, String message) {}

    private interface Attempt {
        void run() throws IOException;
    }

    private static Outcome outcome(Attempt a) {
        try {
            a.run();
            return null;
        } catch (IOException | RuntimeException e) {
            return new Outcome(e.getClass(), e.getMessage());
        }
    }

    private static String sha256(Path file) throws Exception {
        if (!Files.exists(file)) {
            return "absent"; // a new SION file is assembled at close
        }
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    /**
     * Checks {@code name}: the check changes nothing; a refusal is of {@code expected} type and is exactly
     * the create's own refusal; an accepted name ({@code expected} null) is not created by the check.
     */
    private static void assertChecked(FileSystem fs, Path container, String name, Class<?> expected) throws Exception {
        Path p = fs.getPath(name);
        ContainerFileSystemProvider provider = (ContainerFileSystemProvider) fs.provider();
        String before = sha256(container);
        Outcome checked = outcome(() -> provider.checkNewFile(p));
        assertThat(sha256(container)).as("the check of %s changes no byte", name).isEqualTo(before);
        if (expected == null) {
            assertThat(checked).as(name).isNull();
            assertThat(Files.exists(p)).as("%s not created by the check", name).isFalse();
            return;
        }
        assertThat(checked).as(name).isNotNull();
        assertThat(checked.type()).as("%s: %s", name, checked.message()).isEqualTo(expected);
        Outcome created = outcome(() -> Files.newByteChannel(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
                .close());
        assertThat(created).as("the create of %s", name).isEqualTo(checked);
        assertThat(sha256(container)).as("the refused create of %s", name).isEqualTo(before);
    }

    @Test
    void lime() throws Exception {
        Path file = dir.resolve("t.lime");
        try (FileSystem fs = ContainerFileSystems.create(file, "lime")) {
            assertChecked(fs, file, "/msg01/rec01.a", NoSuchFileException.class);
            Files.createDirectory(fs.getPath("/msg01"));
            Files.write(fs.getPath("/msg01/rec01.a"), new byte[] {1});
            assertChecked(fs, file, "/msg01/rec02.b", null);
            assertChecked(fs, file, "/msg01/rec02", null);
            assertChecked(fs, file, "/msg01/rec03.b", AccessDeniedException.class);
            assertChecked(fs, file, "/msg01/rec01.a", FileAlreadyExistsException.class);
            assertChecked(fs, file, "/msg01/notes.txt", InvalidNameException.class);
            assertChecked(fs, file, "/msg01/rec02.%zz", InvalidNameException.class);
            assertChecked(fs, file, "/rec02.b", AccessDeniedException.class);
            Files.createDirectory(fs.getPath("/msg02"));
            Files.write(fs.getPath("/msg02/rec01.a"), new byte[] {2});
            assertChecked(fs, file, "/msg01/rec02.b", AccessDeniedException.class); // msg01 is closed now
        }
    }

    @Test
    void gsd() throws Exception {
        Path file = dir.resolve("t.gsd");
        try (FileSystem fs = ContainerFileSystems.create(file, "gsd")) {
            Files.createDirectory(fs.getPath("/0"));
            Files.write(fs.getPath("/0/a"), new byte[] {1});
            assertChecked(fs, file, "/0/b", null);
            assertChecked(fs, file, "/0/a", FileAlreadyExistsException.class);
            assertChecked(fs, file, "/0/b%zz", InvalidNameException.class);
            Files.setAttribute(fs.getPath("/0"), "gsd:commit", true);
            assertChecked(fs, file, "/0/b", AccessDeniedException.class);
        }
    }

    @Test
    void scda() throws Exception {
        Path file = dir.resolve("t.scda");
        try (FileSystem fs = ContainerFileSystems.create(file, "scda")) {
            Files.write(fs.getPath("/0000.B.first"), new byte[] {1});
            assertChecked(fs, file, "/0001.B.next", null);
            assertChecked(fs, file, "/0003.B.late", AccessDeniedException.class);
            assertChecked(fs, file, "/notes.txt", InvalidNameException.class);
            assertChecked(fs, file, "/0001.Q.letter", InvalidNameException.class);
        }
    }

    @Test
    void g3() throws Exception {
        Path file = dir.resolve("t.g3");
        try (FileSystem fs = ContainerFileSystems.create(file, "g3")) {
            Files.createDirectory(fs.getPath("/000000.Scan"));
            Files.write(fs.getPath("/000000.Scan/a"), new byte[] {1});
            assertChecked(fs, file, "/000000.Scan/b", null);
            assertChecked(fs, file, "/000000.Scan/a", FileAlreadyExistsException.class);
            assertChecked(fs, file, "/000000.Scan/b%zz", InvalidNameException.class);
            Files.setAttribute(fs.getPath("/000000.Scan"), "g3:commit", true);
            assertChecked(fs, file, "/000000.Scan/b", AccessDeniedException.class);
        }
    }

    @Test
    void sion() throws Exception {
        Path file = dir.resolve("t.sion");
        try (FileSystem fs = ContainerFileSystems.create(file, "sion", Map.of("blockSize", 512))) {
            Files.write(fs.getPath("/task000000"), new byte[] {1});
            assertChecked(fs, file, "/task000001", null);
            assertChecked(fs, file, "/task000004", AccessDeniedException.class);
            assertChecked(fs, file, "/notes.txt", InvalidNameException.class);
        }
    }
}
