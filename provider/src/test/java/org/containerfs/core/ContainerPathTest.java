package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.ProviderMismatchException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Path semantics as a table, in the manner of jimfs's PathTester: each row states what a parsed
 * string must be (absolute or not, its names, its string form) and {@link #check} derives every
 * accessor's expected answer from that.
 */
class ContainerPathTest {
    private static FileSystem fs;
    private static FileSystem other;

    @BeforeAll
    static void open() throws IOException {
        fs = TestContainers.openReadOnly(TestContainers.corpus("s02_lime_writer_test1.lime"));
        other = TestContainers.openReadOnly(TestContainers.corpus("s01_single_record.lime"));
    }

    @AfterAll
    static void close() throws IOException {
        fs.close();
        other.close();
    }

    /** One row: input string(s) and what the path must be. */
    record Spec(String first, String[] more, boolean absolute, List<String> names, String string) {
        @Override
        public String toString() {
            return "'" + first + "'" + (more.length == 0 ? "" : " + " + Arrays.toString(more)) + " -> '" + string + "'";
        }
    }

    private static Spec spec(String input, boolean absolute, String string, String... names) {
        return new Spec(input, new String[0], absolute, List.of(names), string);
    }

    private static Spec joined(String[] parts, boolean absolute, String string, String... names) {
        return new Spec(parts[0], Arrays.copyOfRange(parts, 1, parts.length), absolute, List.of(names), string);
    }

    static Stream<Spec> parsing() {
        return Stream.of(
                spec("", false, "", ""),
                spec("/", true, "/"),
                spec("//", true, "/"),
                spec("///", true, "/"),
                spec("a", false, "a", "a"),
                spec("a/", false, "a", "a"),
                spec("a//b///", false, "a/b", "a", "b"),
                spec("/a", true, "/a", "a"),
                spec("///a//b/", true, "/a/b", "a", "b"),
                spec("msg01/rec01.lime-test-text1", false, "msg01/rec01.lime-test-text1", "msg01", "rec01.lime-test-text1"),
                // parsing never normalizes
                spec("/a/./b/../c", true, "/a/./b/../c", "a", ".", "b", "..", "c"),
                spec(".", false, ".", "."),
                spec("..", false, "..", ".."),
                spec("/..", true, "/..", ".."),
                // '\' is an ordinary character, only '/' separates
                spec("a\\b", false, "a\\b", "a\\b"),
                spec("/a b/ü€/%25/x!y/#?", true, "/a b/ü€/%25/x!y/#?", "a b", "ü€", "%25", "x!y", "#?"),
                joined(new String[] {"a", "b", "c"}, false, "a/b/c", "a", "b", "c"),
                joined(new String[] {"/", "a"}, true, "/a", "a"),
                joined(new String[] {"", "a"}, false, "a", "a"),
                joined(new String[] {"a", "", "b"}, false, "a/b", "a", "b"),
                joined(new String[] {"", ""}, false, "", ""),
                joined(new String[] {"a/", "/b/"}, false, "a/b", "a", "b"),
                joined(new String[] {"", "/a"}, true, "/a", "a"));
    }

    @ParameterizedTest
    @MethodSource("parsing")
    void parsedPathHasTheExpectedShape(Spec spec) {
        Path path = fs.getPath(spec.first(), spec.more());
        check(path, spec.absolute(), spec.names(), spec.string());
    }

    /** Every accessor of {@code path}, from its expected absoluteness, names and string. */
    private static void check(Path path, boolean absolute, List<String> names, String string) {
        assertThat(path.toString()).isEqualTo(string);
        assertThat(path.isAbsolute()).isEqualTo(absolute);
        assertThat(path.getFileSystem()).isSameAs(fs);
        assertThat(path.getRoot()).isEqualTo(absolute ? fs.getPath("/") : null);
        assertThat(path.getNameCount()).isEqualTo(names.size());

        List<String> iterated = new ArrayList<>();
        for (Path name : path) {
            assertThat(name.isAbsolute()).isFalse();
            assertThat(name.getNameCount()).isEqualTo(1);
            iterated.add(name.toString());
        }
        assertThat(iterated).isEqualTo(names);
        for (int i = 0; i < names.size(); i++) {
            assertThat(path.getName(i)).isEqualTo(fs.getPath(names.get(i)));
            for (int j = i + 1; j <= names.size(); j++) {
                Path sub = path.subpath(i, j);
                assertThat(sub.isAbsolute()).isFalse();
                assertThat(sub.toString()).isEqualTo(String.join("/", names.subList(i, j)));
            }
        }
        assertThatThrownBy(() -> path.getName(names.size())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> path.getName(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> path.subpath(0, names.size() + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> path.subpath(1, 1)).isInstanceOf(IllegalArgumentException.class);

        if (names.isEmpty()) {
            assertThat(path.getFileName()).isNull();
            assertThat(path.getParent()).isNull();
        } else {
            assertThat(path.getFileName()).isEqualTo(fs.getPath(names.get(names.size() - 1)));
            Path parent = path.getParent();
            if (names.size() == 1) {
                assertThat(parent).isEqualTo(absolute ? fs.getPath("/") : null);
            } else {
                assertThat(parent.isAbsolute()).isEqualTo(absolute);
                assertThat(parent.toString()).isEqualTo((absolute ? "/" : "")
                        + String.join("/", names.subList(0, names.size() - 1)));
                assertThat(path.startsWith(parent)).isTrue();
            }
            assertThat(path.endsWith(path.getFileName())).isTrue();
        }
        // the string form parses back to an equal path
        Path reparsed = fs.getPath(string);
        assertThat(reparsed).isEqualTo(path).hasSameHashCodeAs(path);
        assertThat(reparsed.compareTo(path)).isZero();
        assertThat(path.startsWith(path)).isTrue();
        assertThat(path.endsWith(path)).isTrue();
        assertThat(path.startsWith(string)).isTrue();
        assertThat(path.endsWith(string)).isTrue();
    }

    /**
     * A directory stream makes its entries from the directory's path and one more name, and a file name
     * from that name alone, without the names array a parsed path has: every accessor must still answer
     * as for the parsed string, at every depth, for absolute and relative listings.
     */
    @ParameterizedTest
    @CsvSource({"/", "''", "/msg01", "msg01", "/msg01/.."})
    void pathsAListingMakesAnswerAsTheirParsedStrings(String directory) throws IOException {
        Path start = fs.getPath(directory);
        List<Path> walked;
        try (Stream<Path> all = Files.walk(start)) {
            walked = all.toList();
        }
        assertThat(walked).hasSizeGreaterThan(2);
        for (Path listed : walked) {
            String string = listed.toString();
            Path parsed = fs.getPath(string);
            List<String> names = new ArrayList<>();
            parsed.forEach(n -> names.add(n.toString()));
            if (listed == start) {
                continue; // a parsed path, checked above
            }
            check(listed, parsed.isAbsolute(), names, string);
            check(listed.getFileName(), false, List.of(names.get(names.size() - 1)), names.get(names.size() - 1));
            assertThat(listed.getParent()).isEqualTo(parsed.getParent());
            assertThat(listed.normalize()).isEqualTo(parsed.normalize());
            assertThat(listed.toAbsolutePath()).isEqualTo(parsed.toAbsolutePath());
            assertThat(Files.isSameFile(listed, parsed)).isTrue();
        }
    }

    @Test
    void theEmptyPathHasOneEmptyNameAsOnTheDefaultFileSystem() {
        Path empty = fs.getPath("");
        Path onDisk = Path.of("");
        assertThat(empty.getNameCount()).isEqualTo(onDisk.getNameCount()).isEqualTo(1);
        assertThat(empty.getFileName()).isEqualTo(empty);
        assertThat(empty.getName(0)).isEqualTo(empty);
        assertThat(empty.subpath(0, 1)).isEqualTo(empty);
        assertThat(empty.toAbsolutePath()).isEqualTo(fs.getPath("/"));
        assertThat(empty.normalize()).isEqualTo(empty);
        assertThat(empty.resolve("a")).isEqualTo(fs.getPath("a"));
        assertThat(fs.getPath("a").resolve(empty)).isEqualTo(fs.getPath("a"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', emptyValue = "", value = {
        "/a/./b/../c | /a/c",
        "/a/b/c | /a/b/c",
        "/.. | /",
        "/../../a | /a",
        "/a/b/../../.. | /",
        "/./. | /",
        "../a | ../a",
        "../../a/b/.. | ../../a",
        "a/../.. | ..",
        "a/.. | ''",
        "./a/. | a",
        ". | ''",
        "a/b/../../.. | ..",
        "a/./../b | b",
        ".. | ..",
        "a/../../b/../c | ../c",
    })
    void normalizeRemovesDotsAndNeverClimbsAboveTheRoot(String input, String expected) {
        Path normalized = fs.getPath(input).normalize();
        assertThat(normalized.toString()).isEqualTo(expected);
        assertThat(normalized.isAbsolute()).isEqualTo(input.startsWith("/"));
        assertThat(normalized.normalize()).isEqualTo(normalized);
    }

    @ParameterizedTest(name = "{0} resolve {1} -> {2}")
    @CsvSource(delimiter = '|', emptyValue = "", value = {
        "/a | b | /a/b",
        "/a | /b | /b",
        "a | '' | a",
        "'' | a | a",
        "/ | a/b | /a/b",
        "a/b | ../c | a/b/../c",
        "/a/b | c/d/ | /a/b/c/d",
        "'' | '' | ''",
        "/ | / | /",
    })
    void resolveAppendsRelativePathsAndReturnsAbsoluteOnes(String base, String other, String expected) {
        assertThat(fs.getPath(base).resolve(other).toString()).isEqualTo(expected);
        assertThat(fs.getPath(base).resolve(fs.getPath(other)).toString()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} resolveSibling {1} -> {2}")
    @CsvSource(delimiter = '|', emptyValue = "", value = {
        "/a/b | c | /a/c",
        "/a | c | /c",
        "a/b | c | a/c",
        "a | c | c",
        "/ | c | c",
        "/a/b | /x | /x",
        "/a/b | '' | /a",
    })
    void resolveSiblingResolvesAgainstTheParent(String base, String other, String expected) {
        assertThat(fs.getPath(base).resolveSibling(other).toString()).isEqualTo(expected);
        assertThat(fs.getPath(base).resolveSibling(fs.getPath(other)).toString()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} relativize {1} -> {2}")
    @CsvSource(delimiter = '|', emptyValue = "", value = {
        "/a/b | /a/b/c/d | c/d",
        "/a/b | /a/x | ../x",
        "/a/b | /a/b | ''",
        "/ | /a | a",
        "/a | / | ..",
        "/a/b/c | /x/y | ../../../x/y",
        "a/b | c | ../../c",
        "'' | a | a",
        "a | '' | ..",
        "/a/./b | /a/c | ../c",
        "../a | ../b | ../b",
        "msg01 | msg01/rec01.x | rec01.x",
    })
    void relativizeGivesThePathFromOneToTheOther(String from, String to, String expected) {
        Path p = fs.getPath(from);
        Path q = fs.getPath(to);
        Path r = p.relativize(q);
        assertThat(r.toString()).isEqualTo(expected);
        assertThat(r.isAbsolute()).isFalse();
        // the Path contract: resolving the result against p leads to q (up to normalization)
        assertThat(p.resolve(r).normalize()).isEqualTo(q.normalize());
    }

    static Stream<Arguments> roundTrips() {
        List<String> bases = List.of("/", "/a", "/a/b/c", "", "a", "a/b", "../x", "msg01");
        List<String> relatives = List.of("", "x", "x/y", "a/b", "rec01.ildg-format", "y z/ü");
        List<Arguments> out = new ArrayList<>();
        for (String p : bases) {
            for (String q : relatives) {
                out.add(Arguments.of(p, q));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} and {1}")
    @MethodSource("roundTrips")
    void relativizeUndoesResolve(String p, String q) {
        Path base = fs.getPath(p);
        Path rel = fs.getPath(q);
        assertThat(base.relativize(base.resolve(rel))).isEqualTo(rel);
    }

    @Test
    void relativizeRefusesWhatCannotBeComputed() {
        assertThatThrownBy(() -> fs.getPath("/a").relativize(fs.getPath("a")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absolute");
        assertThatThrownBy(() -> fs.getPath("a").relativize(fs.getPath("/a")))
                .isInstanceOf(IllegalArgumentException.class);
        // from ".." back down needs the name of the directory it left: unknown
        assertThatThrownBy(() -> fs.getPath("..").relativize(fs.getPath("a")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("..");
    }

    @ParameterizedTest(name = "{0} startsWith {1}: {2}")
    @CsvSource(delimiter = '|', emptyValue = "", value = {
        "/a/b | /a | true",
        "/a/b | / | true",
        "/a/b | /a/b | true",
        "/a/b | /a/b/ | true",
        "/a/b | a | false",
        "a/b | a | true",
        "a/b | /a | false",
        "/a/bc | /a/b | false",
        "a/b/c | a/b/c/d | false",
        "a | '' | false",
        "'' | '' | true",
        "/ | / | true",
        "/ | '' | false",
        "a | / | false",
        "/a/../b | /a | true",
    })
    void startsWithComparesWholeNames(String path, String prefix, boolean expected) {
        assertThat(fs.getPath(path).startsWith(prefix)).isEqualTo(expected);
        assertThat(fs.getPath(path).startsWith(fs.getPath(prefix))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} endsWith {1}: {2}")
    @CsvSource(delimiter = '|', emptyValue = "", value = {
        "/a/b | b | true",
        "/a/b | a/b | true",
        "/a/b | /a/b | true",
        "/a/b | /b | false",
        "/a/b | ab | false",
        "bc | c | false",
        "a/b | a/b | true",
        "a/b | /a/b | false",
        "/a/b | '' | false",
        "'' | '' | true",
        "/ | / | true",
        "/ | '' | false",
        "a/b/ | b | true",
    })
    void endsWithComparesWholeNames(String path, String suffix, boolean expected) {
        assertThat(fs.getPath(path).endsWith(suffix)).isEqualTo(expected);
        assertThat(fs.getPath(path).endsWith(fs.getPath(suffix))).isEqualTo(expected);
    }

    @Test
    void pathsOfOtherFileSystemsNeverMatchAndAreRefused() {
        Path local = Path.of("a");
        Path ours = fs.getPath("a");
        Path theirs = other.getPath("a");
        assertThat(ours.startsWith(local)).isFalse();
        assertThat(ours.endsWith(local)).isFalse();
        assertThat(ours.startsWith(theirs)).isFalse();
        assertThat(ours).isNotEqualTo(theirs).isNotEqualTo(local);
        assertThatThrownBy(() -> ours.resolve(local)).isInstanceOf(ProviderMismatchException.class);
        assertThatThrownBy(() -> ours.resolveSibling(local)).isInstanceOf(ProviderMismatchException.class);
        assertThatThrownBy(() -> ours.relativize(local)).isInstanceOf(ProviderMismatchException.class);
        assertThatThrownBy(() -> ours.resolve(theirs)).isInstanceOf(ProviderMismatchException.class);
        assertThatThrownBy(() -> fs.provider().readAttributes(local, "*"))
                .isInstanceOf(ProviderMismatchException.class);
        assertThatThrownBy(() -> fs.provider().checkAccess(local)).isInstanceOf(ProviderMismatchException.class);
        assertThatThrownBy(() -> fs.provider().newByteChannel(local, java.util.Set.of()))
                .isInstanceOf(ProviderMismatchException.class);
        assertThatThrownBy(() -> ours.compareTo(local)).isInstanceOf(ClassCastException.class);
    }

    @Test
    void equalsHashCodeAndCompareToAgreeWithTheStringForm() {
        assertThat(fs.getPath("a//b/")).isEqualTo(fs.getPath("a", "b")).hasSameHashCodeAs(fs.getPath("a/b"));
        assertThat(fs.getPath("/a")).isNotEqualTo(fs.getPath("a"));
        assertThat(fs.getPath("/a/.")).isNotEqualTo(fs.getPath("/a"));
        assertThat(fs.getPath("A")).isNotEqualTo(fs.getPath("a"));
        List<Path> sorted = new ArrayList<>();
        for (String s : new String[] {"/msg02", "msg01", "/msg01/rec02.x", "/msg01", "/", "/msg01/rec01.x", ""}) {
            sorted.add(fs.getPath(s));
        }
        Collections.sort(sorted);
        assertThat(sorted).extracting(Path::toString)
                .containsExactly("", "/", "/msg01", "/msg01/rec01.x", "/msg01/rec02.x", "/msg02", "msg01");
        assertThat(fs.getPath("/b").compareTo(fs.getPath("/a"))).isPositive();
        assertThat(fs.getPath("/a").compareTo(fs.getPath("/b"))).isNegative();
    }

    @Test
    void nulIsRejectedInEveryPart() {
        assertThatThrownBy(() -> fs.getPath("a\0b")).isInstanceOf(InvalidPathException.class)
                .hasMessageContaining("NUL");
        assertThatThrownBy(() -> fs.getPath("/a", "b\0")).isInstanceOf(InvalidPathException.class);
    }

    @Test
    void toAbsolutePathAndToRealPath() throws IOException {
        assertThat(fs.getPath("a/b").toAbsolutePath()).isEqualTo(fs.getPath("/a/b"));
        assertThat(fs.getPath("/a").toAbsolutePath()).isEqualTo(fs.getPath("/a"));
        assertThat(fs.getPath("msg01/../msg02/./rec01.lime-test-text1").toRealPath())
                .isEqualTo(fs.getPath("/msg02/rec01.lime-test-text1"));
        assertThat(fs.getPath("").toRealPath()).isEqualTo(fs.getPath("/"));
        assertThatThrownBy(() -> fs.getPath("msg09").toRealPath()).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("msg09");
        assertThatThrownBy(() -> fs.getPath("/msg01/rec01.lime-test-text1").toFile())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toUriIsAbsoluteNormalizedAndLeadsBackToThePath() {
        for (String s : new String[] {"/", "/msg01", "/msg01/rec01.lime-test-text1", "msg02/../msg03",
                "/a b/c%d/ü€/x!y/#?&=+;,@", "/%25/%/100%", "/日本語/ελληνικά", "/x!/y"}) {
            Path path = fs.getPath(s);
            URI uri = path.toUri();
            assertThat(uri.getScheme()).isEqualTo("lime");
            assertThat(uri.toString()).startsWith("lime:file:").contains("!/");
            assertThat(Paths.get(uri)).as(s).isEqualTo(path.toAbsolutePath().normalize());
            assertThat(fs.provider().getPath(uri)).isEqualTo(path.toAbsolutePath().normalize());
            assertThat(URI.create(uri.toString())).isEqualTo(uri);
        }
    }

    @Test
    void toUriOfAContainerWithAwkwardCharactersInItsOwnPathLeadsBack(@TempDir Path dir) throws IOException {
        for (String name : new String[] {"run!/conf 1%.lime", "ü€ 日本/x!y.lime", "a#b/c?d.lime", "!/!.lime"}) {
            Path container = TestContainers.copyCorpus("s01_single_record.lime", dir.resolve(name));
            try (FileSystem lime = TestContainers.openReadOnly(container)) {
                Path record = lime.getPath("/msg01/rec01.lime-test-text");
                URI uri = record.toUri();
                assertThat(Paths.get(uri)).as(name).isEqualTo(record);
                assertThat(Files.readString(Paths.get(uri))).isEqualTo(Files.readString(record));
                URI rootUri = lime.getPath("/").toUri();
                assertThat(lime.provider().getFileSystem(rootUri)).isSameAs(lime);
            }
        }
    }

    @Test
    void watchServicesAreNotOffered() {
        assertThatThrownBy(() -> fs.getPath("/msg01").register(null, new java.nio.file.WatchEvent.Kind<?>[0]))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("WatchService");
        assertThatThrownBy(() -> fs.newWatchService()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> fs.getUserPrincipalLookupService()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(fs.getSeparator()).isEqualTo("/");
        assertThat(fs.getRootDirectories()).containsExactly(fs.getPath("/"));
    }

    /** A file system opened by path claims no URI (as zipfs's); one opened by a URI claims it until closed. */
    @Test
    void openingTheSameUriTwiceWhileOpenIsRefused() throws IOException {
        URI uri = fs.getPath("/").toUri();
        try (FileSystem byUri = fs.provider().newFileSystem(uri, Map.of())) {
            assertThat(byUri).isNotSameAs(fs);
            assertThatThrownBy(() -> fs.provider().newFileSystem(uri, Map.of()))
                    .isInstanceOf(java.nio.file.FileSystemAlreadyExistsException.class);
        }
        assertThat(fs.provider().getFileSystem(uri)).isSameAs(fs);
    }
}
