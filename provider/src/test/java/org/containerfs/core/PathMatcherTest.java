package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.PathMatcher;
import java.util.regex.PatternSyntaxException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Glob syntax as {@link java.nio.file.FileSystem#getPathMatcher} defines it. Every row is also
 * checked against the default file system's matcher, so the two agree wherever the JDK is the reference.
 */
class PathMatcherTest {
    private static FileSystem fs;

    @BeforeAll
    static void open() throws IOException {
        fs = TestContainers.openReadOnly(TestContainers.corpus("s01_single_record.lime"));
    }

    @AfterAll
    static void close() throws IOException {
        fs.close();
    }

    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        "*.lime | a.lime | true",
        "*.lime | .lime | true",
        "*.lime | dir/a.lime | false",
        "**.lime | dir/a.lime | true",
        "**/*.lime | dir/sub/a.lime | true",
        "*/*.lime | dir/sub/a.lime | false",
        "/msg0?/* | /msg01/rec01.x | true",
        "/msg0?/* | /msg10/rec01.x | false",
        "? | a | true",
        "? | ab | false",
        "? | / | false",
        "a?c | a/c | false",
        "[abc] | b | true",
        "[abc] | d | false",
        "[a-c]x | bx | true",
        "[a-c]x | dx | false",
        "[!abc] | d | true",
        "[!abc] | a | false",
        "[!abc] | / | false",
        "[!a-c]* | dog | true",
        "[*?] | * | true",
        "[*?] | a | false",
        "[a^] | ^ | true",
        "[-a] | - | true",
        "[a&b] | & | true",
        "{foo,bar}.txt | bar.txt | true",
        "{foo,bar}.txt | baz.txt | false",
        "{foo,} | '' | true",
        "{*.x,y} | a.x | true",
        "{a,b}/* | b/c | true",
        "\\* | * | true",
        "\\* | a | false",
        "a\\{b | a{b | true",
        "a\\\\b | a\\b | true",
        "a.b | a.b | true",
        "a.b | axb | false",
        "a+b(c)$^ | a+b(c)$^ | true",
        "rec01.%2E | rec01.%2E | true",
        "ü* | über | true",
        "*.LIME | a.lime | false",
    })
    void globMatchesAsTheJdkDoes(String glob, String path, boolean expected) {
        PathMatcher matcher = fs.getPathMatcher("glob:" + glob);
        assertThat(matcher.matches(fs.getPath(path))).isEqualTo(expected);
        assertThat(FileSystems.getDefault().getPathMatcher("glob:" + glob).matches(java.nio.file.Path.of(path)))
                .as("the default file system agrees").isEqualTo(expected);
    }

    @Test
    void regexSyntaxAndCaseOfTheSyntaxName() {
        assertThat(fs.getPathMatcher("regex:msg\\d+/rec.*").matches(fs.getPath("msg01/rec02.x"))).isTrue();
        assertThat(fs.getPathMatcher("REGEX:m.*").matches(fs.getPath("x"))).isFalse();
        assertThat(fs.getPathMatcher("GLOB:*.x").matches(fs.getPath("a.x"))).isTrue();
    }

    @Test
    void badPatternsAreRejected() {
        for (String bad : new String[] {"glob:[abc", "glob:{a,{b}}", "glob:{a,b", "glob:a\\", "regex:("}) {
            assertThatThrownBy(() -> fs.getPathMatcher(bad)).as(bad).isInstanceOf(PatternSyntaxException.class);
        }
        assertThatThrownBy(() -> fs.getPathMatcher("foo:*")).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("foo");
        assertThatThrownBy(() -> fs.getPathMatcher("no-syntax")).isInstanceOf(IllegalArgumentException.class);
    }
}
