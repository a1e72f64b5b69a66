package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.FileSystem;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerPathParseTest {
    @TempDir
    Path tmp;

    /** What parsing means: join with '/', then the non-empty segments between slashes. */
    private static List<String> expectedNames(String joined) {
        List<String> out = new ArrayList<>();
        for (String p : joined.split("/")) {
            if (!p.isEmpty()) {
                out.add(p);
            }
        }
        return out;
    }

    /** The parsed names (the empty path's one empty name of Path.iterator() is a view on top). */
    private static List<String> names(Path p) {
        return List.of(((ContainerPath) p).names());
    }

    @Test
    void splitsAnyMixOfSlashesDotsAndNamesLikeTheSlashSeparatedSegments() throws Exception {
        try (FileSystem fs = ContainerFileSystems.create(tmp.resolve("p.lime"), "lime")) {
            Random random = new Random(7);
            char[] alphabet = {'a', 'b', '/', '/', '.', 'é'};
            for (int i = 0; i < 5_000; i++) {
                StringBuilder sb = new StringBuilder();
                for (int k = random.nextInt(12); k > 0; k--) {
                    sb.append(alphabet[random.nextInt(alphabet.length)]);
                }
                String s = sb.toString();
                Path p = fs.getPath(s);
                assertThat(p.isAbsolute()).as("absolute: '%s'", s).isEqualTo(s.startsWith("/"));
                assertThat(names(p)).as("names of '%s'", s).isEqualTo(expectedNames(s));
                String more = "x/" + s;
                assertThat(names(fs.getPath(s, "", more))).as("names of '%s' + '%s'", s, more)
                        .isEqualTo(expectedNames(s.isEmpty() ? more : s + "/" + more));
            }
            assertThat(fs.getPath("/").getNameCount()).isZero();
            assertThat(names(fs.getPath(""))).isEmpty();
            assertThatThrownBy(() -> fs.getPath("/msg01/a\0b")).isInstanceOf(InvalidPathException.class);
        }
    }
}
