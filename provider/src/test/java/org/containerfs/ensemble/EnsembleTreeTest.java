package org.containerfs.ensemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The tree over a generated ensemble: what it shows, what it opens, and its cache bound. */
class EnsembleTreeTest {
    @TempDir
    static Path temp;
    static Path local;
    static FileSystem jimfs;
    static Path hosted;

    @BeforeAll
    static void makeEnsembles() throws IOException {
        local = Ensembles.make(temp.resolve("ensemble"));
        jimfs = Jimfs.newFileSystem(Configuration.unix());
        hosted = Ensembles.make(jimfs.getPath("/data/ensemble"));
    }

    @AfterAll
    static void closeJimfs() throws IOException {
        jimfs.close();
    }

    static Path source(String where) {
        return where.equals("jimfs") ? hosted : local;
    }

    /** The source files the test takes for containers, shown containers only (no later file of a SIONlib set). */
    static List<Path> containerFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile)
                    .filter(f -> Ensembles.containerName(f.getFileName().toString()))
                    .sorted().toList();
        }
    }

    static Path inTree(FileSystem tree, Path root, Path sourceFile) {
        return tree.getPath("/" + root.relativize(sourceFile).toString());
    }

    /** The first regular file under {@code dir}, found by walking it. */
    static Path firstFile(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).findFirst().orElse(null);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "jimfs"})
    void everyContainerShowsWhatItsSingleOpenShows(String where) throws IOException {
        Path root = source(where);
        List<Path> containers = containerFiles(root);
        assertThat(containers).hasSizeGreaterThan(150);
        int notContainers = 0;
        try (FileSystem tree = ContainerFileSystems.openTree(root, Map.of())) {
            for (Path file : containers) {
                Map<String, String> expected = Ensembles.singleOpen(file);
                Map<String, String> shown = Ensembles.snapshot(inTree(tree, root, file));
                if (expected.size() == 1 && !expected.get("").equals("failed") && !expected.get("").equals("dir")) {
                    // not a container after all: shown as a directory until its inside is first used
                    // (listing it fails, NotDirectoryException), then as the plain file it is
                    notContainers++;
                    assertThat(shown).as(file.toString()).isEqualTo(Map.of("", "failed"));
                    assertThat(Ensembles.snapshot(inTree(tree, root, file))).as(file.toString()).isEqualTo(expected);
                } else {
                    assertThat(shown).as(file.toString()).isEqualTo(expected);
                }
            }
        }
        assertThat(notContainers).as("files named like containers that are not (not-really.lime at least)")
                .isGreaterThanOrEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "jimfs"})
    void plainFilesAndDirectoriesPassThrough(String where) throws IOException {
        Path root = source(where);
        try (FileSystem tree = ContainerFileSystems.openTree(root, Map.of())) {
            assertThat(Ensembles.text(tree.getPath("/README.txt"))).isEqualTo("an ensemble\n");
            assertThat(Ensembles.text(tree.getPath("/run1/notes.txt"))).isEqualTo("run 1\n");
            // a LIME configuration without an extension is not taken for a container by default
            Path conf = tree.getPath("/run0/lime/cl2qcd_conf.00200");
            assertThat(Files.isRegularFile(conf)).isTrue();
            assertThat(Ensembles.sha256(conf)).isEqualTo(Ensembles.sha256(root.resolve("run0/lime/cl2qcd_conf.00200")));
            assertThat(Files.size(tree.getPath("/run2/g3"))).isEqualTo(Files.size(root.resolve("run2/g3")));
            assertThat(Files.isDirectory(tree.getPath("/run2/g3"))).isTrue();
        }
    }

    @Test
    void containerNamesAddsNamesTakenForContainers() throws IOException {
        try (FileSystem tree = ContainerFileSystems.openTree(local, Map.of("containerNames", ".*conf\\.[0-9]+"))) {
            Path conf = tree.getPath("/run0/lime/cl2qcd_conf.00200");
            assertThat(Ensembles.snapshot(conf)).isEqualTo(Ensembles.singleOpen(local.resolve("run0/lime/cl2qcd_conf.00200")));
            assertThat(Files.isDirectory(conf)).isTrue();
        }
        assertThatThrownBy(() -> ContainerFileSystems.openTree(local, Map.of("containerNames", "(")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "jimfs"})
    void listingADirectoryOfContainersOpensNone(String where) throws IOException {
        Path root = source(where);
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(root, Map.of())) {
            List<String> names = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(tree.getPath("/run0/lime"))) {
                for (Path p : ds) {
                    names.add(p.getFileName().toString());
                    Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class); // ls -l
                }
            }
            try (Stream<Path> s = Files.list(root.resolve("run0/lime"))) {
                assertThat(names).containsExactlyInAnyOrderElementsOf(s.map(p -> p.getFileName().toString()).toList());
            }
            assertThat(Files.isDirectory(tree.getPath("/run0/lime/s01_single_record.lime"))).isTrue();
            assertThat(Files.isDirectory(tree.getPath("/not-really.lime"))).as("not probed yet").isTrue();
            assertThat(tree.containersOpened()).isZero();
            assertThat(tree.containersOpen()).isZero();
            // the first use of an inside opens exactly that container
            assertThat(firstFile(tree.getPath("/run0/lime/s01_single_record.lime"))).hasToString(
                    "/run0/lime/s01_single_record.lime/msg01/rec01.lime-test-text"); // the record a single open lists
            assertThat(tree.containersOpened()).isEqualTo(1);
        }
    }

    /**
     * Every file of the tree (its path below the top: its entry, or "failed" where it could not be visited), and in
     * {@code most[0]} the most {@code gauge} said after any file.
     */
    private static Map<String, String> walkFiles(EnsembleFileSystem tree, java.util.function.LongSupplier gauge,
            long[] most) throws IOException {
        Map<String, String> files = new TreeMap<>();
        Files.walkFileTree(tree.getPath("/"), new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a)
                    throws IOException {
                files.put(tree.getPath("/").relativize(file).toString(), Ensembles.fileEntry(file, a));
                most[0] = Math.max(most[0], gauge.getAsLong());
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
                files.put(tree.getPath("/").relativize(file).toString(), "failed");
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        return files;
    }

    @Test
    void walkWithABoundOf16NeverHoldsMoreAndShowsTheSame() throws IOException {
        Map<String, String> unbounded;
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of())) {
            unbounded = Ensembles.snapshot(tree.getPath("/"));
            assertThat(tree.peakContainersOpen()).isGreaterThan(16); // else the bound below proves nothing
        }
        int containers = containerFiles(local).size();
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of("cacheContainers", 16))) {
            long[] mostOpen = {0};
            Map<String, String> bounded = walkFiles(tree, tree::containersOpen, mostOpen);
            Map<String, String> unboundedFiles = new TreeMap<>(unbounded);
            unboundedFiles.values().removeIf(v -> v.equals("dir"));
            assertThat(bounded).isEqualTo(unboundedFiles);
            assertThat(mostOpen[0]).isLessThanOrEqualTo(16).isPositive();
            assertThat(tree.peakContainersOpen()).isLessThanOrEqualTo(16);
            assertThat(tree.containersOpened()).isGreaterThanOrEqualTo(containers - 10); // opened, evicted, not kept
            // evicted containers reopen on use, with the same content
            Path first = tree.getPath("/run0/lime/s02_lime_writer_test1.lime");
            assertThat(Ensembles.snapshot(first)).isEqualTo(Ensembles.singleOpen(local.resolve("run0/lime/s02_lime_writer_test1.lime")));
            assertThat(tree.containersOpen()).isLessThanOrEqualTo(16);
        }
    }

    @Test
    void walkWithAByteBoundHoldsNoMoreIndexMemoryThanItAndOneInUse() throws IOException {
        // the largest estimate of any single container: the one in use may exceed the bound by that much
        long largest = 0;
        long smallest = Long.MAX_VALUE;
        for (Path f : containerFiles(local)) {
            try (FileSystem one = ContainerFileSystems.open(f, Map.of())) {
                long estimate = ((org.containerfs.core.ContainerFileSystem) one).indexMemoryBytes();
                largest = Math.max(largest, estimate);
                smallest = Math.min(smallest, estimate);
            } catch (IOException | RuntimeException notOpenable) {
                // damaged corpus files: the tree opens none of them either
            }
        }
        long bound = 4 * largest; // a few of the largest: far fewer than all, more than one
        Map<String, String> unbounded;
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of())) {
            unbounded = Ensembles.snapshot(tree.getPath("/"));
            assertThat(tree.peakContainersOpenBytes()).isGreaterThan(bound + largest); // else the bound proves nothing
        }
        long limit = bound + largest;
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of("cacheBytes", bound))) {
            long[] most = {0};
            Map<String, String> bounded = walkFiles(tree, tree::containersOpenBytes, most);
            Map<String, String> unboundedFiles = new TreeMap<>(unbounded);
            unboundedFiles.values().removeIf(v -> v.equals("dir"));
            assertThat(bounded).isEqualTo(unboundedFiles);
            assertThat(most[0]).isPositive().isLessThanOrEqualTo(limit);
            assertThat(tree.peakContainersOpenBytes()).isLessThanOrEqualTo(limit);
            assertThat(tree.containerCacheBytes()).isEqualTo(bound);
            assertThat(smallest).isPositive();
        }
    }

    @Test
    void threadsWalkingTogetherSeeTheSameWithinTheBound() throws Exception {
        Map<String, String> expected;
        try (FileSystem tree = ContainerFileSystems.openTree(local, Map.of())) {
            expected = Ensembles.snapshot(tree.getPath("/run0"));
        }
        int threads = 4;
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of("cacheContainers", 4))) {
            var pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
            try {
                List<java.util.concurrent.Future<Map<String, String>>> walks = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    walks.add(pool.submit(() -> Ensembles.snapshot(tree.getPath("/run0"))));
                }
                for (var walk : walks) {
                    assertThat(walk.get()).isEqualTo(expected);
                }
            } finally {
                pool.shutdownNow();
            }
            // each walker holds at most one container at a time besides the four kept
            assertThat(tree.peakContainersOpen()).isLessThanOrEqualTo(4 + threads);
            assertThat(tree.containersOpen()).isLessThanOrEqualTo(4);
        }
    }

    @Test
    void aChannelInUseKeepsItsContainerOpenPastTheBound() throws IOException {
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of("cacheContainers", 1))) {
            Path record = tree.getPath("/samples/ildg.lime/msg02/rec04.ildg-binary-data");
            byte[] expected = Files.readAllBytes(record);
            try (var ch = Files.newByteChannel(record)) {
                Ensembles.snapshot(tree.getPath("/run1/gsd/types_all.gsd"));
                Ensembles.snapshot(tree.getPath("/run1/scda/arrays.scda"));
                // each of those was closed when its walk ended; the one the channel holds was not
                assertThat(tree.containersOpen()).isEqualTo(1);
                assertThat(tree.peakContainersOpen()).isEqualTo(2);
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(expected.length);
                while (buf.hasRemaining() && ch.read(buf) >= 0) {
                    // all of it, through the channel opened before the other containers
                }
                assertThat(buf.array()).isEqualTo(expected);
            }
            assertThat(tree.containersOpened()).isEqualTo(3);
            Ensembles.snapshot(tree.getPath("/run1/g3/test-le.g3"));
            assertThat(tree.containersOpen()).isEqualTo(1); // no longer held: evicted for the next one
            assertThat(Files.readAllBytes(record)).isEqualTo(expected); // reopened
            assertThat(tree.containersOpened()).isEqualTo(5);
        }
    }

    @Test
    void pathsListedInsideAContainerStayValidAfterItsEvictionAndEqualParsedOnes() throws IOException {
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of("cacheContainers", 1))) {
            Path msg = tree.getPath("/samples/ildg.lime/msg02");
            List<Path> listed = new ArrayList<>();
            Map<Path, java.nio.file.attribute.BasicFileAttributes> whileOpen = new TreeMap<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(msg)) {
                for (Path p : ds) {
                    listed.add(p);
                    whileOpen.put(p, Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class));
                }
            }
            assertThat(listed).isNotEmpty();
            long opened = tree.containersOpened();
            Ensembles.snapshot(tree.getPath("/run1/gsd/types_all.gsd")); // evicts the LIME container
            assertThat(tree.containersOpen()).isEqualTo(1);
            for (Path p : listed) {
                Path parsed = tree.getPath(p.toString());
                assertThat(p).isEqualTo(parsed).hasSameHashCodeAs(parsed);
                var again = Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class);
                var byName = Files.readAttributes(parsed, java.nio.file.attribute.BasicFileAttributes.class);
                assertThat(again.size()).isEqualTo(byName.size()).isEqualTo(whileOpen.get(p).size());
                assertThat(again.isDirectory()).isEqualTo(byName.isDirectory()).isEqualTo(whileOpen.get(p).isDirectory());
                assertThat(Files.readAllBytes(p)).isEqualTo(Files.readAllBytes(parsed));
            }
            // the LIME container was opened once again for all of them (evicted only by the GSD walk)
            assertThat(tree.containersOpened()).isEqualTo(opened + 2);
        }
    }

    @Test
    void aSionSetAppearsOnceAsItsFirstFile() throws IOException {
        try (FileSystem tree = ContainerFileSystems.openTree(local, Map.of())) {
            try (Stream<Path> s = Files.list(tree.getPath("/samples"))) {
                assertThat(s.map(p -> p.getFileName().toString()).toList())
                        .contains("spikes.sion").doesNotContain("spikes.sion.000001");
            }
            assertThat(Files.exists(tree.getPath("/samples/spikes.sion.000001"))).isFalse();
            assertThatThrownBy(() -> Files.newByteChannel(tree.getPath("/samples/spikes.sion.000001")))
                    .isInstanceOf(NoSuchFileException.class);
            assertThat(Ensembles.snapshot(tree.getPath("/samples/spikes.sion")))
                    .isEqualTo(Ensembles.singleOpen(local.resolve("samples/spikes.sion")))
                    .hasSizeGreaterThan(2);
        }
    }

    @Test
    void aFileNamedLikeAContainerThatIsNotOneBecomesAPlainFile() throws IOException {
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of())) {
            Path fake = tree.getPath("/not-really.lime");
            assertThat(Files.isDirectory(fake)).isTrue();
            assertThatThrownBy(() -> Files.list(fake)).isInstanceOf(NotDirectoryException.class);
            assertThat(Files.isRegularFile(fake)).isTrue();
            assertThat(Ensembles.text(fake)).isEqualTo("plain text, named like a LIME file\n");
            assertThat(tree.containersOpen()).isZero();
        }
    }

    @Test
    void aContainerThatFailsToOpenStaysADirectoryWhoseListingSaysWhy() throws IOException {
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of())) {
            Path cut = tree.getPath("/cut-header.gsd");
            assertThatThrownBy(() -> Files.list(cut)).isInstanceOf(IOException.class)
                    .isNotInstanceOf(NotDirectoryException.class).hasMessageContaining("cut-header.gsd");
            assertThat(Files.isDirectory(cut)).isTrue();
            assertThat(tree.containersOpen()).isZero();
            try (Stream<Path> s = Files.list(tree.getPath("/"))) {
                assertThat(s.map(Path::toString)).contains("/cut-header.gsd", "/README.txt", "/run0");
            }
        }
    }

    @Test
    void aContainerAddedToTheDirectoryAppearsOnTheNextListing(@TempDir Path dir) throws IOException {
        Ensembles.copy(Ensembles.corpus().resolve("lime/s03_multi_msg_pack.lime"), dir.resolve("a.lime"));
        try (FileSystem tree = ContainerFileSystems.openTree(dir, Map.of())) {
            try (Stream<Path> s = Files.list(tree.getPath("/"))) {
                assertThat(s.map(Path::toString)).containsExactly("/a.lime");
            }
            Ensembles.copy(Ensembles.corpus().resolve("g3/simple-types.g3"), dir.resolve("b.g3"));
            try (Stream<Path> s = Files.list(tree.getPath("/"))) {
                assertThat(s.map(Path::toString)).containsExactlyInAnyOrder("/a.lime", "/b.g3");
            }
            assertThat(Ensembles.snapshot(tree.getPath("/b.g3"))).isEqualTo(Ensembles.singleOpen(dir.resolve("b.g3")));
        }
    }

    @Test
    void closingTheTreeClosesItsContainersAndChannels() throws IOException {
        EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of());
        var inside = Files.newByteChannel(tree.getPath("/samples/ildg.lime/msg02/rec03.ildg-format"));
        var plain = Files.newByteChannel(tree.getPath("/README.txt"));
        Ensembles.snapshot(tree.getPath("/samples/trajectory.gsd"));
        assertThat(tree.containersOpen()).isEqualTo(2);
        tree.close();
        assertThat(inside.isOpen()).isFalse();
        assertThat(plain.isOpen()).isFalse();
        assertThat(tree.containersOpen()).isZero();
        assertThat(tree.isOpen()).isFalse();
        assertThatThrownBy(() -> Files.exists(tree.getPath("/README.txt"))).isInstanceOf(ClosedFileSystemException.class);
        tree.close(); // again: nothing
    }
}
