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

    @Test
    void lsDashLShowsTheFormatsAttributesInsideEachContainerAsItsSingleOpen() throws IOException {
        Files.createDirectories(dir.resolve("run1"));
        Files.copy(Corpus.lime("s08_ildg_scidac_gauge.lime"), dir.resolve("run1/conf.1000.lime"));
        Files.copy(Corpus.limeDirectory().resolveSibling("gsd").resolve("hoomd_trajectory.gsd"), dir.resolve("run1/traj.gsd"));
        Files.writeString(dir.resolve("notes.txt"), "notes\n");

        Cli.Result tree = Cli.run("ls", "-l", "-R", dir);
        assertThat(tree.status()).as(tree.stderr()).isZero();
        int withAttributes = 0;
        for (String container : new String[] {"/run1/conf.1000.lime", "/run1/traj.gsd"}) {
            Cli.Result single = Cli.run("ls", "-l", "-R", dir.resolve(container.substring(1)));
            assertThat(single.status()).as(single.stderr()).isZero();
            for (String line : single.lines()) {
                // "- 1234  /msg02/rec04.ildg-binary-data  type=... ": the same line, the path below the container's
                String inTree = line.replaceFirst("  /", "  " + java.util.regex.Matcher.quoteReplacement(container) + "/");
                assertThat(tree.lines()).contains(inTree);
                if (inTree.length() > inTree.lastIndexOf('/') + 1 && line.matches(".*  /\\S+  .+")) {
                    withAttributes++;
                }
            }
        }
        assertThat(withAttributes).as("lines of the single opens with format attributes").isPositive();
        // outside the containers, and the containers' own directories (stat'ed, not opened): no format attributes
        assertThat(tree.lines()).anySatisfy(l -> assertThat(l).matches("d +\\d+  /run1/conf\\.1000\\.lime/"));
        assertThat(tree.lines()).anySatisfy(l -> assertThat(l).matches("- +6  /notes\\.txt"));
    }
}
