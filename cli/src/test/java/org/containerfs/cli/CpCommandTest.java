package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.containerfs.spi.Names;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CpCommandTest {
    private static final String GAUGE = "s08_ildg_scidac_gauge.lime";

    @TempDir
    Path tmp;

    static Stream<String> corpusFiles() {
        return Corpus.files().stream();
    }

    @ParameterizedTest
    @MethodSource("corpusFiles")
    void recursiveCopyOfTheRootReproducesEveryReadableRecord(String file) throws IOException {
        Path dest = tmp.resolve("out");
        Cli.Result r = Cli.run("cp", "-r", Corpus.lime(file), "/", dest);

        List<Corpus.Row> rows = Corpus.rows(file);
        for (Corpus.Row row : rows) {
            Path extracted = dest.resolve(row.path().substring(1));
            if (row.readable()) {
                assertThat(extracted).as(row.toString()).isRegularFile();
                assertThat(Corpus.sha256(extracted)).as(row.toString()).isEqualTo(row.sha256());
            } else {
                assertThat(extracted).as("a record that cannot be read whole is not left behind short").doesNotExist();
            }
        }
        try (Stream<Path> all = Files.walk(dest)) {
            assertThat(all.filter(Files::isRegularFile).count()).isEqualTo(rows.stream().filter(Corpus.Row::readable).count());
        }
        boolean allReadable = rows.stream().allMatch(Corpus.Row::readable);
        assertThat(r.status()).isEqualTo(allReadable ? 0 : 1);
        if (allReadable) {
            assertThat(r.stderr()).isEmpty();
        } else {
            assertThat(r.stderr()).contains("(not extracted)").doesNotContain("\tat ");
        }
    }

    @Test
    void aDirectoryLandsUnderItsOwnName() {
        Cli.Result r = Cli.run("cp", "-r", Corpus.lime(GAUGE), "/msg02", tmp);

        assertThat(r.status()).isZero();
        for (Corpus.Row row : Corpus.rows(GAUGE)) {
            Path p = tmp.resolve(row.path().substring(1));
            if (row.message() == 2) {
                assertThat(Corpus.sha256(p)).isEqualTo(row.sha256());
            } else {
                assertThat(p).doesNotExist();
            }
        }
        assertThat(tmp.resolve("msg01")).doesNotExist();
    }

    @Test
    void aFileLandsDirectlyInTheDestinationAndOverwritesAnOldCopy() throws IOException {
        Corpus.Row row = Corpus.rows(GAUGE).get(3);
        Files.writeString(tmp.resolve("rec02.scidac-record-xml"), "an older, longer file than the record ".repeat(10));

        Cli.Result r = Cli.run("cp", "-v", Corpus.lime(GAUGE), row.path(), tmp);

        assertThat(r.status()).isZero();
        assertThat(r.stdout()).isEqualTo(tmp.toRealPath().resolve("rec02.scidac-record-xml") + "\n");
        assertThat(Corpus.sha256(tmp.resolve("rec02.scidac-record-xml"))).isEqualTo(row.sha256());
    }

    @Test
    void aDirectoryWithoutRecursiveIsRefused() {
        Cli.Result r = Cli.run("cp", Corpus.lime(GAUGE), "/msg01", tmp);

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).isEqualTo("containerfs cp: /msg01: is a directory (use cp -r)\n");
        assertThat(tmp).isEmptyDirectory();
    }

    @Test
    void aDestinationGivenWithDotDotIsNormalizedAndNothingLandsBesideIt() throws IOException {
        Files.createDirectories(tmp.resolve("a/inner"));
        Path dest = tmp.resolve("a/inner/../../b");

        Cli.Result r = Cli.run("cp", "-r", Corpus.lime(GAUGE), "/", dest);

        assertThat(r.status()).isZero();
        try (Stream<Path> all = Files.walk(tmp)) {
            assertThat(all.filter(Files::isRegularFile))
                    .hasSize(Corpus.rows(GAUGE).size())
                    .allSatisfy(p -> assertThat(p).startsWith(tmp.resolve("b")));
        }
        assertThat(tmp.resolve("a/inner")).isEmptyDirectory();
    }

    @Test
    void anAbsoluteOrDotDotContainerPathStaysInsideTheDestination() throws IOException {
        Path dest = tmp.resolve("dest");
        Cli.Result absolute = Cli.run("cp", "-r", Corpus.lime(GAUGE), "/msg01", dest);
        Cli.Result climbing = Cli.run("cp", "-r", Corpus.lime(GAUGE), "/../../msg01/../msg02", dest);
        Cli.Result file = Cli.run("cp", Corpus.lime(GAUGE), "../../../msg01/rec02.scidac-file-xml", dest);

        assertThat(absolute.status()).isZero();
        assertThat(climbing.status()).isZero();
        assertThat(file.status()).isZero();
        try (Stream<Path> all = Files.walk(tmp)) {
            assertThat(all.filter(Files::isRegularFile).map(p -> tmp.relativize(p).toString())).containsExactlyInAnyOrder(
                    "dest/msg01/rec01.scidac-private-file-xml", "dest/msg01/rec02.scidac-file-xml",
                    "dest/msg02/rec01.scidac-private-record-xml", "dest/msg02/rec02.scidac-record-xml",
                    "dest/msg02/rec03.ildg-format", "dest/msg02/rec04.ildg-binary-data",
                    "dest/msg02/rec05.scidac-checksum", "dest/msg02/rec06.ildg-data-lfn",
                    "dest/rec02.scidac-file-xml");
        }
    }

    @Test
    void aSymbolicLinkedDirectoryInTheDestinationIsNotFollowed() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Path dest = Files.createDirectories(tmp.resolve("dest"));
        Files.createSymbolicLink(dest.resolve("msg01"), outside);

        Cli.Result r = Cli.run("cp", "-r", Corpus.lime(GAUGE), "/", dest);

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).contains("msg01").contains("symbolic link");
        assertThat(outside).isEmptyDirectory();
        assertThat(dest.resolve("msg02/rec04.ildg-binary-data")).as("the rest is still extracted").isRegularFile();
    }

    @Test
    void aSymbolicLinkInPlaceOfAFileIsNotWrittenThrough() throws IOException {
        Path victim = Files.writeString(tmp.resolve("victim.txt"), "must stay");
        Path dest = Files.createDirectories(tmp.resolve("dest/msg01"));
        Files.createSymbolicLink(dest.resolve("rec02.scidac-file-xml"), victim);

        Cli.Result r = Cli.run("cp", "-r", Corpus.lime(GAUGE), "/msg01", tmp.resolve("dest"));

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).contains("rec02.scidac-file-xml").contains("symbolic link");
        assertThat(Files.readString(victim)).isEqualTo("must stay");
        assertThat(dest.resolve("rec01.scidac-private-file-xml")).isRegularFile();
    }

    @Test
    void aDestinationThatIsAFileIsRefused() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain"), "x");

        Cli.Result r = Cli.run("cp", "-r", Corpus.lime(GAUGE), "/", file);

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).contains("the destination is not a directory");
        assertThat(Files.readString(file)).isEqualTo("x");
    }

    @Test
    void recordTypesThatLookLikePathsAreExtractedUnderTheirEncodedNames() throws IOException {
        // LIME types are raw bytes: written here through the provider, they must all land inside the destination
        Path container = tmp.resolve("hostile.lime");
        List<String> types = List.of("..", "../../../escaped", "/etc/passwd", "a\\..\\b", "%2E%2E", "x\ny");
        try (FileSystem fs = FileSystems.newFileSystem(URI.create("lime:" + container.toUri()), Map.of("create", true))) {
            Files.createDirectory(fs.getPath("/msg01"));
            for (int i = 0; i < types.size(); i++) {
                String name = Names.prefixed(String.format("rec%02d", i + 1), types.get(i).getBytes(StandardCharsets.UTF_8));
                Files.writeString(fs.getPath("/msg01", name), "payload " + i, StandardOpenOption.CREATE_NEW);
            }
        }
        Path dest = tmp.resolve("dest");

        Cli.Result r = Cli.run("cp", "-r", container, "/", dest);

        assertThat(r.status()).as(r.stderr()).isZero();
        try (Stream<Path> all = Files.walk(tmp)) {
            assertThat(all.filter(Files::isRegularFile).filter(p -> !p.equals(container)).map(p -> dest.relativize(p).toString()))
                    .containsExactlyInAnyOrder("msg01/rec01...", "msg01/rec02...%2F..%2F..%2Fescaped",
                            "msg01/rec03.%2Fetc%2Fpasswd", "msg01/rec04.a%5C..%5Cb", "msg01/rec05.%252E%252E",
                            "msg01/rec06.x%0Ay");
        }
        assertThat(Files.readString(dest.resolve("msg01/rec02...%2F..%2F..%2Fescaped"))).isEqualTo("payload 1");
    }

    /**
     * corpus/names: G3 keys and GSD chunk names spelling {@code ..}, {@code .}, {@code /}, absolute
     * paths, NUL and newlines, LIME types whose names are over 255 bytes encoded: everything lands
     * under the names the provider lists, inside the destination; its parent (with a sentinel directory
     * beside the destination) is unchanged.
     */
    @ParameterizedTest
    @ValueSource(strings = {"keys.g3", "chunks.gsd", "types.lime"})
    void namesThatSpellPathsOrExceedNameMaxAreExtractedUnderTheListedNames(String name) throws IOException {
        Path container = Corpus.limeDirectory().resolveSibling("names").resolve(name);
        Map<String, String> expected = new TreeMap<>();
        try (FileSystem fs = FileSystems.newFileSystem(container); Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(p)) {
                    expected.put(p.toString().substring(1), Corpus.sha256(Files.readAllBytes(p)));
                }
            }
        }
        Path parent = Files.createDirectory(tmp.resolve("fresh"));
        Path sentinel = Files.createDirectory(parent.resolve("sentinel"));
        Files.writeString(sentinel.resolve("keep"), "keep");
        Path dest = parent.resolve("dest");

        Cli.Result r = Cli.run("cp", "-r", container, "/", dest);

        assertThat(r.status()).as(r.stderr()).isZero();
        Map<String, String> extracted = new TreeMap<>();
        try (Stream<Path> all = Files.walk(parent)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (Files.isRegularFile(p) && !p.startsWith(sentinel)) {
                    assertThat(p).startsWith(dest);
                    extracted.put(dest.relativize(p).toString(), Corpus.sha256(p));
                }
            }
        }
        assertThat(extracted).isEqualTo(expected);
        try (Stream<Path> list = Files.list(parent)) {
            assertThat(list.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("sentinel", "dest");
        }
        assertThat(Files.readString(sentinel.resolve("keep"))).isEqualTo("keep");
    }
}
