package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code containerfs ls} of a directory: its containers as directories of one tree (docs/ensemble.md). */
class LsTreeTest {
    @TempDir
    Path dir;

    @Test
    void aDirectoryIsListedAsOneTreeWithItsContainersAsDirectories() throws IOException {
        Files.createDirectories(dir.resolve("run1"));
        Files.copy(Corpus.lime("s08_ildg_scidac_gauge.lime"), dir.resolve("run1/conf.1000.lime"));
        Files.writeString(dir.resolve("notes.txt"), "notes\n");

        assertThat(Cli.run("ls", dir).lines()).containsExactlyInAnyOrder("notes.txt", "run1/");
        assertThat(Cli.run("ls", dir, "/run1").lines()).containsExactly("conf.1000.lime/");
        Cli.Result r = Cli.run("ls", "-R", dir);
        assertThat(r.status()).isZero();
        // the container's subtree is what ls -R of the container alone shows, below its directory
        assertThat(r.lines()).containsSubsequence("/run1/", "/run1/conf.1000.lime/");
        for (String line : Cli.run("ls", "-R", dir.resolve("run1/conf.1000.lime")).lines()) {
            assertThat(r.lines()).contains("/run1/conf.1000.lime" + line);
        }
        assertThat(r.lines()).contains("/notes.txt");
    }
}
