package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.core.CountingInput;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A live reader checks the container for growth before listing a directory that appends may still
 * fill, and skips the check for one its format declares complete ({@code Node.mayGainChildren}): a
 * LIME message before the last, a GSD or G3 frame before the last. The checks are counted as size
 * calls on the input, so a format that stops declaring (or a core that stops asking) fails here.
 */
class CompleteDirectoryListingTest {
    @TempDir
    Path tmp;

    enum Layout {
        LIME("lime", "/msg01", "/msg03") {
            @Override
            void append(FileSystem fs, int unit) throws IOException {
                Path message = Files.createDirectory(fs.getPath(String.format("/msg%02d", unit + 1)));
                Files.writeString(message.resolve("rec01.unit"), "unit " + unit);
            }
        },
        GSD("gsd", "/0/unit", "/2") {
            @Override
            void append(FileSystem fs, int unit) throws IOException {
                AppendableFormat.GSD.append(fs, unit, 64);
            }
        },
        G3("g3", "/000000.Scan", "/000002.Scan") {
            @Override
            void append(FileSystem fs, int unit) throws IOException {
                AppendableFormat.G3.append(fs, unit, 64);
            }
        };

        final String format;
        final String complete;
        final String last;

        Layout(String format, String complete, String last) {
            this.format = format;
            this.complete = complete;
            this.last = last;
        }

        abstract void append(FileSystem fs, int unit) throws IOException;
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void listingACompleteDirectoryAsksNothingOfTheContainer(Layout layout) throws Exception {
        Path file = tmp.resolve("three." + layout.format);
        try (FileSystem fs = ContainerFileSystems.create(file, layout.format)) {
            for (int unit = 0; unit < 3; unit++) {
                layout.append(fs, unit);
            }
        }
        CountingInput input = CountingInput.of(file);
        try (FileSystem fs = ContainerFileSystems.open(input, Map.of("refresh", true))) {
            List<String> firstListing = list(fs.getPath(layout.complete));
            assertThat(firstListing).isNotEmpty();
            input.counters().reset();
            for (int i = 0; i < 5; i++) {
                assertThat(list(fs.getPath(layout.complete))).isEqualTo(firstListing);
            }
            assertThat(input.counters().sizeCalls.get()).as("growth checks for %s", layout.complete).isZero();

            list(fs.getPath(layout.last));
            assertThat(input.counters().sizeCalls.get()).as("growth checks for the last unit %s", layout.last)
                    .isPositive();
            input.counters().reset();
            list(fs.getPath("/"));
            assertThat(input.counters().sizeCalls.get()).as("growth checks for the root").isPositive();
        }
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(Path::toString).toList();
        }
    }
}
