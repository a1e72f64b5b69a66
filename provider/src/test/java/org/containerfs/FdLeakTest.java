package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * 10,000 open/close cycles of each format's container (every tenth one leaving a content channel open
 * for close() to close, every hundredth one a writable open of a copy) leave no file descriptor behind,
 * counted in /proc/self/fd.
 */
class FdLeakTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "gsd, gsd/sparse_chunks_and_gaps.gsd, true",
        "scda, scda/blocks.scda, true",
        "g3, g3/test-le.g3, true",
        "g3, g3/simple-types.g3.gz, false",
        "sion, sion/tasks4_varsizes_bs512.sion, false",
    })
    void tenThousandOpenCloseCyclesLeakNoFileDescriptors(String format, String corpusFile, boolean writable) throws Exception {
        Path file = Paths.get(System.getProperty("containerfs.corpus", "src/test/resources/corpus"), corpusFile);
        Path copy = tmp.resolve(file.getFileName());
        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
        String leaf;
        try (FileSystem fs = ContainerFileSystems.open(file); Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            leaf = walk.filter(Files::isRegularFile).findFirst().orElseThrow().toString();
        }
        for (int i = 0; i < 200; i++) { // warm up class loading and lazily opened JDK descriptors
            cycle(format, file, copy, leaf, writable, i);
        }
        long before = openDescriptors();
        for (int i = 0; i < 10_000; i++) {
            cycle(format, file, copy, leaf, writable, i);
        }
        assertThat(openDescriptors()).as(corpusFile).isLessThanOrEqualTo(before + 2);
    }

    private static void cycle(String format, Path file, Path copy, String leaf, boolean writable, int i) throws Exception {
        if (writable && i % 100 == 0) {
            try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(copy, Map.of("accessMode", "readWrite"))) {
                Files.newByteChannel(fs.getPath(leaf)); // left open: close() must close it
            }
            return;
        }
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            if (i % 10 == 0) {
                Files.newByteChannel(fs.getPath(leaf)); // left open: close() must close it
            } else {
                Files.size(fs.getPath(leaf));
            }
        }
    }

    private static long openDescriptors() throws Exception {
        try (Stream<Path> fds = Files.list(Paths.get("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
