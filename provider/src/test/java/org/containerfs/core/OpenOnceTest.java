package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open once: whichever of our providers {@code FileSystems.newFileSystem(path)} asks first detects the
 * format from one read of the head and opens the container with the format that claims it, so the
 * other providers are never asked to read it again.
 */
class OpenOnceTest {
    @TempDir
    Path dir;

    @Test
    void theFirstProviderAskedOpensAContainerOfAnyFormat() throws IOException {
        ContainerFileSystemProvider first = ContainerFileSystems.providers().get(0);
        for (String format : InputCorpusTest.FORMATS) {
            for (Path file : InputCorpusTest.corpusFiles(format)) {
                if (Files.size(file) == 0) {
                    continue;
                }
                String byPath;
                try (FileSystem fs = FileSystems.newFileSystem(file, Map.of())) {
                    byPath = fs.provider().getScheme();
                } catch (Exception notAContainer) {
                    continue;
                }
                // a copy without its extension: only the bytes say what it is
                Path bare = Files.copy(file, dir.resolve(format + "-" + file.getFileName().toString().replace('.', '_')));
                try (FileSystem fs = first.newFileSystem(bare, Map.of())) {
                    assertThat(fs.provider().getScheme()).as("%s asked for %s", first.getScheme(), file)
                            .isEqualTo(byPath);
                }
            }
        }
    }

    @Test
    void aRequestedFormatIsNeverSwapped() throws IOException {
        Path lime = InputCorpusTest.corpusDir("lime").resolve("s01_single_record.lime");
        assertThatThrownBy(() -> ContainerFileSystems.provider("gsd").newFileSystem(lime, Map.of("format", "gsd")))
                .isInstanceOf(org.containerfs.spi.ContainerFormatException.class)
                .hasMessageContaining("gsd");
    }

    @Test
    void aFileOfNoFormatIsLeftToOtherProviders() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a container");
        for (ContainerFileSystemProvider p : ContainerFileSystems.providers()) {
            assertThatThrownBy(() -> p.newFileSystem(text, Map.of())).isInstanceOf(UnsupportedOperationException.class);
        }
    }
}
