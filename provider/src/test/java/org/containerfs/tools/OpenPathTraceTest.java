package org.containerfs.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The open path's figure, reproducible: {@code mvn -B -o -q -pl provider test -Dtest=OpenPathTraceTest} prints, per
 * kind of open, the files it passes and its returns to files already left (see {@link OpenPathTrace}), and checks
 * that the open is the line of layers README.md describes: each layer first entered in its order, the door, the
 * pipeline, the format layer and the registry entered by one call each.
 */
class OpenPathTraceTest {

    @Test
    void aPathOpenOfALimeFileIsALine() throws Exception {
        OpenPathTrace.Trace trace = OpenPathTrace.trace("lime");
        System.out.println(trace.summary());
        assertLine(trace, List.of("core/PathOpener.java", "core/OpenPipeline.java", "storage/PathInput.java",
                "core/FormatDetection.java", "lime/LimeFormat.java", "core/FormatOpen.java", "core/IndexCache.java",
                "core/ContainerFileSystem.java", "core/FileSystemRegistry.java"));
        assertThat(trace.callsByFile()).containsAllEntriesOf(Map.of("core/PathOpener.java", 1,
                "core/OpenPipeline.java", 1, "storage/PathInput.java", 1, "core/FormatDetection.java", 1,
                "core/FormatOpen.java", 1, "core/ContainerFileSystem.java", 1, "core/FileSystemRegistry.java", 1));
    }

    @Test
    void aPathOpenOfAGzipFileDetectsTwiceAroundTheDecompression() throws Exception {
        OpenPathTrace.Trace trace = OpenPathTrace.trace("gz");
        System.out.println(trace.summary());
        // the restart points' entry of the index cache is looked up by the decompression layer, before the format's
        assertLine(trace, List.of("core/PathOpener.java", "core/OpenPipeline.java", "storage/PathInput.java",
                "core/FormatDetection.java", "core/Decompression.java", "core/FormatOpen.java",
                "core/ContainerFileSystem.java", "core/FileSystemRegistry.java"));
        // detection of the bytes as they are (is it G3's .g3.gz?), then of the decompressed head; the decompression
        // layer for that head, then for the view the format reads
        assertThat(trace.callsByFile()).containsAllEntriesOf(Map.of("core/PathOpener.java", 1,
                "core/OpenPipeline.java", 1, "core/FormatDetection.java", 2, "core/Decompression.java", 2,
                "core/FormatOpen.java", 1, "core/FileSystemRegistry.java", 1));
    }

    @Test
    void anInputOpenIsTheSameLineBehindTheBlockCache() throws Exception {
        OpenPathTrace.Trace trace = OpenPathTrace.trace("input");
        System.out.println(trace.summary());
        // a remote input first asks the index cache whether an entry of its exact identity names the format (then no
        // head is read: the warm open of an S3 tree's container); here there is none, and detection reads the head
        assertLine(trace, List.of("core/ContainerFileSystems.java", "core/OpenPipeline.java",
                "core/BlockCachedInput.java", "core/IndexCache.java", "core/FormatDetection.java", "core/FormatOpen.java",
                "core/ContainerFileSystem.java"));
        assertThat(trace.callsByFile()).containsAllEntriesOf(Map.of("core/OpenPipeline.java", 1,
                "core/FormatDetection.java", 1, "core/FormatOpen.java", 1, "core/ContainerFileSystem.java", 1));
        assertThat(trace.files()).doesNotContain("core/FileSystemRegistry.java", "core/PathOpener.java");
    }

    /** {@code layers}, and no other of them, in the order the open first entered them. */
    private static void assertLine(OpenPathTrace.Trace trace, List<String> layers) {
        List<String> firstVisits = trace.files().stream().filter(layers::contains).toList();
        assertThat(firstVisits).as("the layers in the order the open first entered them").isEqualTo(layers);
    }
}
