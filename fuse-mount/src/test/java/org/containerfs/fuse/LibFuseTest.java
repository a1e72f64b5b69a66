package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The libfuse3 probe: found by soname, or a message that says what to install. */
class LibFuseTest {

    @Test
    void aMissingLibraryNamesThePackageToInstall(@TempDir Path empty) {
        assertThatThrownBy(() -> LibFuse.locate("libfuse3-absent.so.3", List.of(empty.toString()), null))
                .isInstanceOf(FuseUnavailableException.class)
                .hasMessageContaining("libfuse3-absent.so.3")
                .hasMessageContaining("apt-get install fuse3")
                .hasMessageContaining(LibFuse.ENV_OVERRIDE);
    }

    @Test
    void theOverrideMustBeAFile(@TempDir Path dir) {
        assertThatThrownBy(() -> LibFuse.locate(LibFuse.SONAME, List.of(), dir.resolve("nope.so").toString()))
                .isInstanceOf(FuseUnavailableException.class)
                .hasMessageContaining("is not a file");
    }

    @Test
    void aLibraryInASearchedDirectoryIsFound(@TempDir Path dir) throws Exception {
        Path fake = Files.createFile(dir.resolve("libfuse3-test.so.3"));
        assertThat(LibFuse.locate("libfuse3-test.so.3", List.of(dir.toString()), null)).isEqualTo(fake);
    }

    @Test
    void onThisMachineTheRealLibraryIsFoundWhenFuseIsUsable() throws Exception {
        FuseTestSupport.requireFuse();
        Path lib = LibFuse.locate();
        assertThat(lib.getFileName().toString()).startsWith("libfuse3.so.3");
        assertThat(Files.isRegularFile(lib)).isTrue();
    }

    /** max_threads is offered exactly when the library is libfuse 3.12 or later (fusermount3 ships with it). */
    @Test
    void theWorkerLimitIsOfferedOnlyToALibfuseThatTakesIt(@TempDir Path dir) throws Exception {
        FuseTestSupport.requireFuse();
        Process p = new ProcessBuilder(LibFuse.fusermount().toString(), "-V").redirectErrorStream(true).start();
        String version = new String(p.getInputStream().readAllBytes()).replaceAll("(?s).*version:?\\s*", "").trim();
        p.waitFor();
        String[] parts = version.split("\\.");
        boolean atLeast312 = Integer.parseInt(parts[0]) > 3 || Integer.parseInt(parts[0]) == 3 && Integer.parseInt(parts[1]) >= 12;
        assertThat(LibFuse.takesMaxThreads(LibFuse.locate())).as("libfuse " + version).isEqualTo(atLeast312);
        assertThat(LibFuse.takesMaxThreads(Files.createFile(dir.resolve("not-a-library.so")))).isFalse();
    }

    @Test
    void oneWorkerPerTwoCoresUnlessTheUserSaysOtherwise() {
        String perCore = "max_threads=" + Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        MountSettings defaults = MountSettings.defaults("x");
        assertThat(String.join(",", defaults.fuseArguments(true))).contains(perCore);
        assertThat(String.join(",", defaults.fuseArguments(false))).doesNotContain("max_threads");
        String chosen = String.join(",", defaults.withExtraOptions(List.of("max_threads=7")).fuseArguments(true));
        assertThat(chosen).contains("max_threads=7");
        assertThat(chosen.split("max_threads=", -1)).hasSize(2); // the user's, not also ours
    }
}
