package org.containerfs.fuse.lowlevel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.containerfs.fuse.LibFuse;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class LowLevelLibraryTest {
    /** The libfuse3 of this machine; the test is skipped where there is none. */
    private static Path installedLibfuse() {
        try {
            return LibFuse.locate();
        } catch (org.containerfs.fuse.FuseUnavailableException e) {
            return Assumptions.abort("no libfuse3 here: " + e.getMessage());
        }
    }

    @Test
    void theInstalledLibfuseIsBoundWithItsVersion() throws Exception {
        Path libfuse = installedLibfuse();
        LowLevelLibrary lib = LowLevelLibrary.load(libfuse);
        assertThat(lib.version()).isGreaterThanOrEqualTo(LowLevelLibrary.MINIMUM_VERSION);
        assertThat(lib.packageVersion()).startsWith("3.");
    }

    @Test
    void theLibraryIsBoundOncePerProcessAndItsWarmUpCallsNothingButTheVersion() throws Throwable {
        Path libfuse = installedLibfuse();
        LowLevelLibrary lib = LowLevelLibrary.load(libfuse);
        assertThat(LowLevelLibrary.load(libfuse)).isSameAs(lib);
        lib.warmUpCalls(); // every call shape through fuse_version: returns (a wrong shape would fail or crash)
        LowLevelSession.warmUp(lib); // the upcall stubs made and freed
        assertThat(lib.replyStatfs.handle()).isSameAs(lib.replyStatfs.handle()); // bound at the first use, then kept
    }

    @Test
    void aLibraryWithoutTheLowLevelApiIsRefusedByName() {
        Path notFuse = Path.of("/lib/x86_64-linux-gnu/libz.so.1");
        Assumptions.assumeTrue(Files.isRegularFile(notFuse), "no libz at " + notFuse);
        assertThatThrownBy(() -> LowLevelLibrary.load(notFuse)).isInstanceOf(LowLevelUnavailableException.class)
                .hasMessageContaining("has no fuse_version");
        // a refusal is not kept as the answer: asked again, the library is bound (and refused) again
        assertThatThrownBy(() -> LowLevelLibrary.load(notFuse)).isInstanceOf(LowLevelUnavailableException.class)
                .hasMessageContaining("has no fuse_version");
    }
}
