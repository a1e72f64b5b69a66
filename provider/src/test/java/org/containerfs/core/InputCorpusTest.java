package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.storage.PathInput;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every corpus file of every format opened through a {@link org.containerfs.storage.ContainerInput}
 * (a local file posing as a remote object) shows the same tree, attributes and bytes as the same file
 * opened by its Path. The per-format corpus tests hold the Path open to the reference tools' manifests,
 * so this holds the input open to them too, without a second copy of their expectations.
 */
class InputCorpusTest {
    static final List<String> FORMATS = List.of("lime", "gsd", "scda", "sion", "g3");

    static Path corpusDir(String format) {
        try {
            return Path.of(InputCorpusTest.class.getResource("/corpus/" + format).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every container of a format's corpus (all files but the manifests and READMEs). */
    static List<Path> corpusFiles(String format) throws IOException {
        try (Stream<Path> files = Files.list(corpusDir(format))) {
            return files.filter(p -> !p.getFileName().toString().endsWith(".tsv")
                    && !p.getFileName().toString().endsWith(".md")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusFileThroughAnInput() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (String format : FORMATS) {
            List<Path> files = corpusFiles(format);
            assertThat(files).as("corpus of %s", format).isNotEmpty();
            for (Path file : files) {
                tests.add(DynamicTest.dynamicTest(format + "/" + file.getFileName(), () -> compare(format, file)));
            }
        }
        return tests.stream();
    }

    private static void compare(String format, Path file) throws Exception {
        Map<String, Object> forced = Map.of("format", format);
        String byPath;
        try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(file, forced)) {
            byPath = describe(fs, file.toString());
        } catch (IOException pathFailure) {
            // a container the format refuses by path is refused through an input, with the same exception
            CountingInput input = CountingInput.of(file);
            assertThatThrownBy(() -> ContainerFileSystems.open(input, forced).close())
                    .isInstanceOf(pathFailure.getClass())
                    .hasMessageContaining(input.uri().toString());
            assertThat(input.isClosed()).as("a failed open closes the input").isTrue();
            return;
        }
        CountingInput input = CountingInput.of(file);
        try (FileSystem fs = ContainerFileSystems.open(input, forced)) {
            assertThat(fs.provider().getScheme()).isEqualTo(format);
            assertThat(fs.isReadOnly()).isTrue();
            assertThat(describe(fs, input.uri().toString())).isEqualTo(byPath);
        }
        assertThat(input.isClosed()).as("closing the file system closes the input").isTrue();
        if (Files.size(file) > 0) {
            assertThat(input.counters().reads.get()).as("reads went through the input").isPositive();
        }

        // detection: with no format given, an input is claimed by the format that claims the path
        String detectedByPath = null;
        Exception pathRefusal = null;
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            detectedByPath = fs.provider().getScheme();
        } catch (IOException | RuntimeException notDetected) {
            // empty or damaged beyond recognition: the input must not be claimed either, with the same answer
            pathRefusal = notDetected;
        }
        CountingInput again = CountingInput.of(file);
        if (detectedByPath == null) {
            assertThatThrownBy(() -> ContainerFileSystems.open(again, Map.of()).close())
                    .isInstanceOf(pathRefusal instanceof java.nio.file.ProviderNotFoundException
                            ? java.nio.file.ProviderNotFoundException.class : IOException.class);
        } else {
            try (FileSystem fs = ContainerFileSystems.open(again, Map.of())) {
                assertThat(fs.provider().getScheme()).isEqualTo(detectedByPath);
            }
        }
    }

    /**
     * The whole tree as text: every path with its basic and format attributes and its bytes' digest
     * (or the exception reading them throws). The container's name is replaced by a placeholder, since
     * damage messages name it (by path or by URI).
     */
    static String describe(FileSystem fs, String containerName) throws IOException {
        StringBuilder sb = new StringBuilder();
        String view = fs.provider().getScheme();
        List<Path> all;
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            all = walk.toList();
        }
        for (Path p : all) {
            sb.append(p).append('\n');
            sb.append("  basic ").append(normalise(Files.readAttributes(p, "basic:*"))).append('\n');
            sb.append("  ").append(view).append(' ').append(normalise(Files.readAttributes(p, view + ":*"))).append('\n');
            if (Files.isRegularFile(p)) {
                String content;
                try {
                    content = TestContainers.sha256(Files.readAllBytes(p));
                } catch (IOException e) {
                    content = e.getClass().getName();
                }
                sb.append("  bytes ").append(content).append('\n');
            }
        }
        return sb.toString().replace(containerName, "<container>");
    }

    private static Map<String, String> normalise(Map<String, Object> attributes) {
        Map<String, String> out = new LinkedHashMap<>();
        attributes.forEach((k, v) -> out.put(k, v != null && v.getClass().isArray()
                ? java.util.Arrays.deepToString(new Object[] {v}) : String.valueOf(v)));
        return out;
    }

    @Test
    void aPathInputIsLocalAndIdentifiedByUriSizeAndModificationTime() throws IOException {
        Path file = corpusFiles("lime").get(0);
        try (PathInput input = PathInput.of(file)) {
            assertThat(input.remote()).isFalse();
            assertThat(input.identity().uri()).isEqualTo(file.toUri());
            assertThat(input.identity().size()).isEqualTo(Files.size(file));
            assertThat(input.identity().version())
                    .isEqualTo(Long.toString(Files.getLastModifiedTime(file).toMillis()));
            try (FileSystem fs = ContainerFileSystems.open(input, Map.of("format", "lime"))) {
                Path root = fs.getPath("/");
                assertThat(root.toUri().toString()).isEqualTo("lime:" + file.toUri() + "!/");
                assertThat(((ContainerFileSystem) fs).containerPath()).isNull();
                assertThat(((ContainerFileSystem) fs).containerUri()).isEqualTo(file.toUri());
            }
        }
    }

    @Test
    void anInputOpenRefusesWritingBeforeReadingAnything() throws IOException {
        CountingInput input = CountingInput.of(corpusFiles("lime").get(0));
        assertThatThrownBy(() -> ContainerFileSystems.open(input, Map.of("accessMode", "readWrite")))
                .isInstanceOf(java.nio.file.AccessDeniedException.class)
                .hasMessageContaining("s3://bucket/")
                .hasMessageContaining("read-only")
                .hasMessageContaining("copy it to a local file");
        assertThat(input.counters().reads.get()).isZero();
        assertThat(input.isClosed()).isTrue();
    }

    @Test
    void pathsOfAnInputFileSystemHaveTheInputsUri() throws IOException {
        CountingInput input = CountingInput.of(corpusDir("lime").resolve("s01_single_record.lime"));
        try (FileSystem fs = ContainerFileSystems.open(input, Map.of())) {
            Path first;
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                first = walk.filter(Files::isRegularFile).findFirst().orElseThrow();
            }
            assertThat(first.toUri().toString()).startsWith("lime:s3://bucket/s01_single_record.lime!/msg01/");
            assertThat(fs.getFileStores().iterator().next().name()).isEqualTo("s01_single_record.lime");
        }
    }
}
