package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.containerfs.core.RecordingFileSystem.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Containers on a file system that records every call (as an object store sees requests): opening
 * costs one stat, one open and one read before the format's own reads; a write that the store cannot
 * support is refused before any mutating call.
 */
class StorePathTest {
    private static byte[] corpus(String format, String file) throws IOException {
        return Files.readAllBytes(InputCorpusTest.corpusDir(format).resolve(file));
    }

    @Test
    void theFirstProviderAskedKnowsFormatAndSizeFromOneStatAndOneRead() throws IOException {
        try (RecordingFileSystem store = new RecordingFileSystem(Kind.LOCAL_LIKE)) {
            Path gsd = store.file("/traj.gsd", corpus("gsd", "hoomd_trajectory.gsd"));
            ContainerFileSystemProvider first = ContainerFileSystems.providers().get(0);
            assertThat(first.getScheme()).isNotEqualTo("gsd");
            try (FileSystem fs = first.newFileSystem(gsd, Map.of("blockCache", true))) {
                assertThat(fs.provider().getScheme()).isEqualTo("gsd");
                assertThat(store.calls.count("stat ")).as("%s", store.calls).isEqualTo(1);
                assertThat(store.calls.count("open-read ")).as("%s", store.calls).isEqualTo(1);
                // the head read fetched the first block, which holds this file's index: one request in all
                assertThat(store.calls.count("read ")).as("%s", store.calls).isEqualTo(1);
                String local;
                // the same container without the block cache: same tree, attributes and bytes
                try (FileSystem direct = ContainerFileSystems.provider("gsd").newFileSystem(gsd,
                        Map.of("blockCache", false))) {
                    local = InputCorpusTest.describe(direct, gsd.toString());
                }
                assertThat(InputCorpusTest.describe(fs, gsd.toString())).isEqualTo(local);
            }
            assertThat(store.calls.mutating()).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"NO_FILE_CHANNEL", "NO_LOCKS"})
    void aWritableOpenIsRefusedBeforeAnyMutatingCall(Kind kind) throws IOException {
        try (RecordingFileSystem store = new RecordingFileSystem(kind)) {
            Path lime = store.file("/conf.lime", corpus("lime", "s01_single_record.lime"));
            assertThatThrownBy(() -> ContainerFileSystems.provider("lime")
                    .newFileSystem(lime, Map.of("accessMode", "readWrite")))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("/conf.lime")
                    .hasMessageContaining("opening the container for writing was refused before anything was changed")
                    .hasMessageContaining(kind == Kind.NO_FILE_CHANNEL ? "gives no FileChannel" : "refused a file lock")
                    .hasMessageContaining("copy it to a local disk");
            assertThat(store.calls.mutating()).isEmpty();
            assertThat(Files.readAllBytes(lime)).isEqualTo(corpus("lime", "s01_single_record.lime"));
            // reading stays possible
            try (FileSystem fs = ContainerFileSystems.provider("lime").newFileSystem(lime, Map.of())) {
                assertThat(Files.exists(fs.getPath("/msg01"))).isTrue();
            }
            assertThat(store.calls.mutating()).isEmpty();
        }
    }

    @Test
    void creatingWhereThereIsNoFileChannelIsRefusedAndCreatesNothing() throws IOException {
        try (RecordingFileSystem store = new RecordingFileSystem(Kind.NO_FILE_CHANNEL)) {
            Path target = store.getPath("/new.lime");
            assertThatThrownBy(() -> ContainerFileSystems.create(target, "lime"))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("creating a container was refused before anything was changed");
            assertThat(store.calls.mutating()).isEmpty();
            assertThat(Files.exists(target)).isFalse();
        }
    }

    @Test
    void aStoreWithFileChannelsAndLocksIsWritable() throws IOException {
        try (RecordingFileSystem store = new RecordingFileSystem(Kind.LOCAL_LIKE)) {
            Path lime = store.file("/conf.lime", corpus("lime", "s01_single_record.lime"));
            try (FileSystem fs = ContainerFileSystems.provider("lime").newFileSystem(lime, Map.of("accessMode", "readWrite"))) {
                Files.createDirectory(fs.getPath("/msg02"));
                Files.write(fs.getPath("/msg02/rec01.xlf-info"), new byte[] {1, 2, 3});
            }
            assertThat(store.calls.mutating()).isNotEmpty();
        }
    }

    @Test
    void aContainerIsNotRegisteredUnderItsStoreUri() throws IOException {
        try (RecordingFileSystem store = new RecordingFileSystem(Kind.LOCAL_LIKE)) {
            Path lime = store.file("/conf.lime", corpus("lime", "s01_single_record.lime"));
            try (FileSystem fs = ContainerFileSystems.provider("lime").newFileSystem(lime, Map.of("blockCache", true))) {
                assertThat(fs.getPath("/msg01").toUri()).isEqualTo(URI.create("lime:recording:///conf.lime!/msg01"));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"NO_FILE_CHANNEL", "NO_LOCKS"})
    void aG3IndexIsNeverWrittenBesideAContainerInAStore(Kind kind, @TempDir Path local) throws IOException {
        try (RecordingFileSystem store = new RecordingFileSystem(kind)) {
            Path gz = store.file("/obs.g3.gz", corpus("g3", "simple-types.g3.gz"));
            assertThatThrownBy(() -> ContainerFileSystems.provider("g3").newFileSystem(gz, Map.of("gzipIndex", true)))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("/obs.g3.gz")
                    .hasMessageContaining("nothing was written");
            assertThat(store.calls.mutating()).isEmpty();
            // a gzipIndexDir is a local directory then, not a folder of the store
            try (FileSystem fs = ContainerFileSystems.provider("g3").newFileSystem(gz,
                    Map.of("gzipIndexDir", local.toString()))) {
                assertThat(Files.list(fs.getPath("/")).count()).isPositive();
            }
            assertThat(local.resolve("obs.g3.gz.zidx")).isRegularFile();
            assertThat(store.calls.mutating()).isEmpty();
        }
    }
}
