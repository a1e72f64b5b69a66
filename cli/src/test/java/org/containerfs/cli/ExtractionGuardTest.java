package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExtractionGuardTest {
    @TempDir
    Path tmp;

    @Test
    void plainNamesResolveBelowTheRealDestination() throws IOException {
        ExtractionGuard guard = ExtractionGuard.forDestination(tmp.resolve("new/dest"));

        assertThat(guard.destination()).isEqualTo(tmp.toRealPath().resolve("new/dest")).isDirectory();
        assertThat(guard.target("msg01", "rec01.xml")).isEqualTo(guard.destination().resolve("msg01/rec01.xml"));
        assertThat(guard.target("rec02...")).isEqualTo(guard.destination().resolve("rec02..."));
        assertThat(guard.target("%2E%2E", "%2F")).isEqualTo(guard.destination().resolve("%2E%2E/%2F"));
        assertThat(guard.target("...", ".hidden", "a b")).isEqualTo(guard.destination().resolve(".../.hidden/a b"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "", "/", "/etc", "/etc/passwd", "../x", "a/../../x", "a/b", "a\\..\\b", "x\0y", "\\"})
    void aNameThatIsNotOnePlainComponentIsRefused(String hostile) throws IOException {
        ExtractionGuard guard = ExtractionGuard.forDestination(tmp);

        assertThatThrownBy(() -> guard.target(hostile)).isInstanceOf(ExtractionGuard.UnsafeTargetException.class)
                .hasMessageContaining("refusing");
        assertThatThrownBy(() -> guard.target(List.of("msg01", hostile))).isInstanceOf(ExtractionGuard.UnsafeTargetException.class);
        assertThat(tmp).isEmptyDirectory();
    }

    @Test
    void noNamesAtAllIsRefused() throws IOException {
        ExtractionGuard guard = ExtractionGuard.forDestination(tmp);

        assertThatThrownBy(() -> guard.target(List.of())).isInstanceOf(ExtractionGuard.UnsafeTargetException.class);
    }

    @Test
    void aSymbolicLinkOnTheWayIsRefusedWhereverItPoints() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Path dest = Files.createDirectories(tmp.resolve("dest/msg01"));
        Files.createSymbolicLink(dest.resolve("escape"), outside);
        Files.createSymbolicLink(dest.resolve("inside"), dest);
        Files.createSymbolicLink(dest.resolve("file-link"), tmp.resolve("outside/f"));
        ExtractionGuard guard = ExtractionGuard.forDestination(tmp.resolve("dest"));

        assertThatThrownBy(() -> guard.target("msg01", "escape", "rec01")).isInstanceOf(ExtractionGuard.UnsafeTargetException.class)
                .hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> guard.target("msg01", "inside", "rec01")).isInstanceOf(ExtractionGuard.UnsafeTargetException.class);
        assertThatThrownBy(() -> guard.target("msg01", "file-link")).isInstanceOf(ExtractionGuard.UnsafeTargetException.class);
        assertThat(guard.target("msg01", "rec01")).isEqualTo(guard.destination().resolve("msg01/rec01"));
    }

    @Test
    void aDestinationReachedThroughALinkIsTakenAsItsRealPath() throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);

        ExtractionGuard guard = ExtractionGuard.forDestination(link);

        assertThat(guard.destination()).isEqualTo(real.toRealPath());
        assertThat(guard.target("a")).isEqualTo(real.toRealPath().resolve("a"));
    }

    @Test
    void aDestinationThatIsAFileIsRefused() throws IOException {
        Path file = Files.writeString(tmp.resolve("f"), "x");

        assertThatThrownBy(() -> ExtractionGuard.forDestination(file)).hasMessageContaining("not a directory");
    }
}
