package org.containerfs.ensemble;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EnsembleFileSystem#listingStamp}: what lets a mount keep the kernel's cached listing of a directory a
 * container shows without reopening the container. It is read without opening any container, stays while the
 * container's file stays, moves when the file grows, and is absent where no cheap value exists.
 */
class TreeListingStampTest {
    @TempDir
    Path temp;

    @Test
    void aContainersDirectoriesAreStampedByItsFileWithoutOpeningIt() throws IOException {
        GeneratedEnsemble.Layout layout = GeneratedEnsemble.make(temp.resolve("e"), 12);
        try (EnsembleFileSystem tree = (EnsembleFileSystem) ContainerFileSystems.openTree(layout.root(),
                Map.of("cacheContainers", 1))) {
            Path grow = tree.getPath("/" + layout.growing());
            Path msg = grow.resolve("msg01");
            walk(grow); // listed once, as the mount's first ls -lR does
            walk(tree.getPath("/run2")); // and evicted (a bound of 1) by the walk of other containers
            assertThat(tree.containersOpen()).isEqualTo(1);
            long opened = tree.containersOpened();

            OptionalLong own = tree.listingStamp(grow);
            OptionalLong inside = tree.listingStamp(msg);
            assertThat(own).isPresent();
            assertThat(inside).isEqualTo(own);
            assertThat(tree.listingStamp(grow)).isEqualTo(own);
            assertThat(tree.containersOpened()).as("stamps open no container").isEqualTo(opened);

            try (FileSystem writer = ContainerFileSystems.open(layout.root().resolve(layout.growing()),
                    Map.of("accessMode", "readWrite"))) {
                GeneratedEnsemble.appendLimeMessage(writer, 3, 7);
            }
            assertThat(tree.listingStamp(grow)).as("after growth").isPresent().isNotEqualTo(own);
            assertThat(tree.listingStamp(msg)).isEqualTo(tree.listingStamp(grow));
            assertThat(tree.containersOpened()).isEqualTo(opened);
        }
    }

    @Test
    void noStampWhereListingIsCheapOrTheContainerSpansFiles() throws IOException {
        GeneratedEnsemble.Layout layout = GeneratedEnsemble.make(temp.resolve("e"), 12);
        Files.writeString(layout.root().resolve("run3/notes.lime"), "plain text, named like a LIME file\n");
        try (EnsembleFileSystem tree = (EnsembleFileSystem) ContainerFileSystems.openTree(layout.root(), Map.of())) {
            assertThat(tree.listingStamp(tree.getPath("/"))).isEmpty();
            assertThat(tree.listingStamp(tree.getPath("/run0"))).as("a directory of the source").isEmpty();
            // a SIONlib set: its later files make its listing too
            assertThat(tree.listingStamp(tree.getPath("/run1/deeper/spikes.sion"))).isEmpty();
            Path fake = tree.getPath("/run3/notes.lime");
            try {
                Files.list(fake).close();
            } catch (java.nio.file.NotDirectoryException plain) {
                // found to be the plain file it is
            }
            assertThat(tree.listingStamp(fake)).as("a plain file after all").isEmpty();
        }
    }

    private static void walk(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.forEach(p -> {
                try {
                    Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
    }
}
