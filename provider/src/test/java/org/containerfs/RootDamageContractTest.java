package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The root attributes every format shares (issue 18.2): {@code damage} (String, empty when the
 * committed data is sound; else where and what was expected) and {@code uncommittedTail} (String,
 * empty when none; else what and where: an append a writer did not finish, which loses no committed
 * byte).
 */
class RootDamageContractTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "sion", "g3"})
    void everyCorpusFileThatOpensHasBothRootAttributes(String format) throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(HostileInputsTest.corpus().resolve(format))) {
            files = s.filter(p -> !p.toString().endsWith(".tsv") && !p.toString().endsWith(".md")).sorted().toList();
        }
        int opened = 0;
        for (Path file : files) {
            FileSystem fs;
            try {
                fs = ContainerFileSystems.open(file);
            } catch (IOException | RuntimeException refused) {
                continue; // damage that fails the open is reported by the exception
            }
            try (fs) {
                Map<String, Object> root = Files.readAttributes(fs.getPath("/"), format + ":*");
                assertThat(root.get("damage")).as("%s damage", file.getFileName()).isInstanceOf(String.class);
                assertThat(root.get("uncommittedTail")).as("%s uncommittedTail", file.getFileName()).isInstanceOf(String.class);
                opened++;
            }
        }
        assertThat(opened).isPositive();
    }

    @Test
    void aGsdWritersUncommittedDataIsAnUncommittedTailNotDamage() throws Exception {
        Path file = tmp.resolve("killed.gsd");
        try (FileSystem fs = AppendableFormat.GSD.create(file)) {
            AppendableFormat.GSD.append(fs, 0, 100);
        }
        long end = Files.size(file);
        append(file, new byte[1000]); // chunk data of a frame whose entries were never written
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "gsd:damage,uncommittedTail");
            assertThat(root.get("damage")).isEqualTo("");
            assertThat((String) root.get("uncommittedTail")).startsWith("1000 bytes from byte " + end + " ");
        }
    }

    @Test
    void aTornScdaSectionHeaderIsAnUncommittedTailAndOtherTrailingBytesAreDamage() throws Exception {
        Path file = tmp.resolve("torn.scda");
        try (FileSystem fs = ContainerFileSystems.create(file, "scda")) {
            Files.write(fs.getPath("/0000.B.kept"), "kept".getBytes(StandardCharsets.US_ASCII));
        }
        long end = Files.size(file);
        byte[] original = Files.readAllBytes(file);
        append(file, "? the first bytes of".getBytes(StandardCharsets.US_ASCII)); // a header write cut short
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "scda:damage,uncommittedTail");
            assertThat(root.get("damage")).isEqualTo("");
            assertThat((String) root.get("uncommittedTail")).contains("uncommitted append").contains("byte " + end);
        }
        Files.write(file, original);
        append(file, "B the first bytes of".getBytes(StandardCharsets.US_ASCII));
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "scda:damage,uncommittedTail");
            assertThat((String) root.get("damage")).contains("byte " + end);
            assertThat(root.get("uncommittedTail")).isEqualTo("");
        }
    }

    @Test
    void aLimeTailOfZerosIsUncommittedAndOfOtherBytesIsDamage() throws Exception {
        Path file = tmp.resolve("tail.lime");
        try (FileSystem fs = AppendableFormat.LIME.create(file)) {
            AppendableFormat.LIME.append(fs, 0, 100);
        }
        byte[] original = Files.readAllBytes(file);
        append(file, new byte[100]); // the first bytes of the zero header a writer reserves
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "lime:damage,uncommittedTail");
            assertThat(root.get("damage")).isEqualTo("");
            assertThat((String) root.get("uncommittedTail")).contains("byte " + original.length);
        }
        Files.write(file, original);
        byte[] junk = new byte[100];
        Arrays.fill(junk, (byte) 'x');
        append(file, junk);
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "lime:damage,uncommittedTail");
            assertThat((String) root.get("damage")).contains("byte " + original.length);
            assertThat(root.get("uncommittedTail")).isEqualTo("");
        }
    }

    private static void append(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }
}
