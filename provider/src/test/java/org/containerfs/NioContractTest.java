package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The java.nio.file contract where the JDK's providers and jimfs agree (issue 18, item 4), run against
 * every format. A new format joins by adding one {@link Sample}: a corpus container and how to append
 * one record to a new container.
 */
class NioContractTest {

    /** What the contract needs of a format. */
    record Sample(String format, String corpusFile, RecordWriter writer) {
        @Override
        public String toString() {
            return format;
        }
    }

    interface RecordWriter {
        /** Appends one record to a new, writable container and returns its path. */
        Path write(FileSystem fs) throws IOException;
    }

    private static RecordWriter appendable(AppendableFormat f) {
        return fs -> {
            f.append(fs, 0, 100);
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                return walk.filter(Files::isRegularFile).findFirst().orElseThrow();
            }
        };
    }

    static List<Sample> samples() {
        return List.of(
                new Sample("lime", "s02_lime_writer_test1.lime", appendable(AppendableFormat.LIME)),
                new Sample("gsd", "hoomd_trajectory.gsd", appendable(AppendableFormat.GSD)),
                new Sample("scda", "all_types.scda", appendable(AppendableFormat.SCDA)),
                new Sample("sion", "tasks4_varsizes_bs512.sion", fs -> {
                    Path task = fs.getPath("/task000000");
                    Files.write(task, new byte[] {1, 2, 3});
                    return task;
                }),
                new Sample("g3", "simple-types.g3", appendable(AppendableFormat.G3)));
    }

    @TempDir
    Path dir;

    private static Path corpus(String format, String file) {
        try {
            return Path.of(NioContractTest.class.getResource("/corpus/" + format + "/" + file).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path copy(Sample s, String name) throws IOException {
        return Files.copy(corpus(s.format(), s.corpusFile()), dir.resolve(name));
    }

    private static Path firstRecord(FileSystem fs) throws IOException {
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            return walk.filter(Files::isRegularFile).findFirst().orElseThrow();
        }
    }

    private static FileSystem readOnly(Sample s, Path file) throws IOException {
        return FileSystems.newFileSystem(URI.create(s.format() + ":" + file.toUri()), Map.of());
    }

    /** A new container of the format on a name with no extension (cl2qcd's conf.00200), writable. */
    private FileSystem created(Sample s) throws IOException {
        return FileSystems.newFileSystem(URI.create(s.format() + ":" + dir.resolve("conf.00200").toUri()),
                Map.of("create", true));
    }

    @ParameterizedTest
    @MethodSource("samples")
    void theUriSchemeNamesTheFormatWhateverTheFileName(Sample s) throws IOException {
        try (FileSystem fs = created(s)) {
            assertThat(fs.provider().getScheme()).isEqualTo(s.format());
            s.writer().write(fs);
        }
        try (FileSystem fs = FileSystems.newFileSystem(URI.create(s.format() + ":" + dir.resolve("conf.00200").toUri()),
                Map.of())) {
            assertThat(fs.provider().getScheme()).isEqualTo(s.format());
            assertThat(Files.size(firstRecord(fs))).isPositive();
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void aFileOfAnotherFormatUnderThisSchemeIsAnIoExceptionNamingTheFormat(Sample s) throws IOException {
        List<Sample> all = samples();
        int at = all.stream().map(Sample::format).toList().indexOf(s.format());
        Sample other = all.get((at + 1) % all.size());
        Path file = copy(other, "other-" + other.corpusFile());
        assertThatThrownBy(() -> FileSystems.newFileSystem(URI.create(s.format() + ":" + file.toUri()), Map.of()))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(ProviderNotFoundException.class)
                .hasMessageContaining(s.format());
    }

    @ParameterizedTest
    @MethodSource("samples")
    void settingAttributesOfOtherViewsOrReadOnlyOnesIsNotAccessDenied(Sample s) throws IOException {
        try (FileSystem fs = readOnly(s, copy(s, "c"))) {
            Path p = firstRecord(fs);
            assertThatThrownBy(() -> Files.setAttribute(p, "posix:permissions", PosixFilePermissions.fromString("rw-r--r--")))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> Files.setAttribute(p, "basic:nosuch", 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Files.setAttribute(p, "basic:size", 1L)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void anInputStreamForWritingIsUnsupported(Sample s) throws IOException {
        try (FileSystem fs = readOnly(s, copy(s, "c"))) {
            Path p = firstRecord(fs);
            assertThatThrownBy(() -> Files.newInputStream(p, StandardOpenOption.WRITE))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> Files.newInputStream(p, StandardOpenOption.APPEND))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void copyingOrMovingAFileOntoItselfDoesNothing(Sample s) throws IOException {
        Path file = copy(s, "c");
        byte[] before = Files.readAllBytes(file);
        try (FileSystem fs = readOnly(s, file)) {
            Path p = firstRecord(fs);
            byte[] content = Files.readAllBytes(p);
            assertThatCode(() -> Files.copy(p, p)).doesNotThrowAnyException();
            assertThatCode(() -> Files.move(p, p)).doesNotThrowAnyException();
            assertThat(Files.readAllBytes(p)).isEqualTo(content);
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @ParameterizedTest
    @MethodSource("samples")
    void exceptionsNameTheWholePath(Sample s) throws IOException {
        try (FileSystem fs = created(s)) {
            Path record = s.writer().write(fs);
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/zz")))
                    .isInstanceOfSatisfying(FileSystemException.class, e -> assertThat(e.getFile()).isEqualTo("/zz"));
            Path under = record.resolve("c");
            assertThatThrownBy(() -> Files.createDirectory(under))
                    .isInstanceOf(FileSystemException.class)
                    .isNotInstanceOf(java.nio.file.AccessDeniedException.class)
                    .hasMessageContaining("not a directory")
                    .isInstanceOfSatisfying(FileSystemException.class,
                            e -> assertThat(e.getFile()).isEqualTo(under.toString()));
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void invalidOpenOptionsAreIllegalAndUnsupportedOnesUnsupported(Sample s) throws IOException {
        try (FileSystem fs = created(s)) {
            Path record = s.writer().write(fs);
            Path fresh = record.resolveSibling(record.getFileName().toString().replace("1", "2"));
            long records = countFiles(fs);
            assertThatThrownBy(() -> Files.newByteChannel(fresh, EnumSet.of(StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.TRUNCATE_EXISTING)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Files.newByteChannel(fresh, EnumSet.of(StandardOpenOption.READ,
                    StandardOpenOption.APPEND))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Files.newByteChannel(fresh, EnumSet.of(StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.CREATE))).isInstanceOf(UnsupportedOperationException.class);
            assertThat(countFiles(fs)).as("nothing was committed").isEqualTo(records);
        }
        try (FileSystem fs = readOnly(s, copy(s, "c"))) {
            assertThatThrownBy(() -> Files.newByteChannel(fs.getPath("/x"), EnumSet.of(StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.TRUNCATE_EXISTING)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static long countFiles(FileSystem fs) throws IOException {
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            return walk.filter(Files::isRegularFile).count();
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void aFileSystemOpenedByPathDoesNotBlockAnOpenByUri(Sample s) throws IOException {
        Path file = copy(s, "c." + s.format());
        URI uri = URI.create(s.format() + ":" + file.toUri());
        try (FileSystem byPath = FileSystems.newFileSystem(file, Map.of());
                FileSystem byUri = FileSystems.newFileSystem(uri, Map.of())) {
            assertThat(byUri).isNotSameAs(byPath);
            // the rule: Path.of(uri) leads to the file system opened by that URI while it is open,
            // else to one opened by path; a second open by the same URI is refused
            assertThat(FileSystems.getFileSystem(uri)).isSameAs(byUri);
            assertThatThrownBy(() -> FileSystems.newFileSystem(uri, Map.of()))
                    .isInstanceOf(java.nio.file.FileSystemAlreadyExistsException.class);
            byUri.close();
            assertThat(FileSystems.getFileSystem(uri)).isSameAs(byPath);
        }
    }
}
