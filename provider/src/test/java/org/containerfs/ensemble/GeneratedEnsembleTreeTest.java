package org.containerfs.ensemble;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's door over a generated ensemble of 1,000 containers of all five formats (issue 26's
 * tests): each container's subtree equals its single open, and a walk of everything with a cache of 16
 * never has more than 16 open and sees the same.
 */
class GeneratedEnsembleTreeTest {
    static final int CONTAINERS = 1000;

    @TempDir
    static Path temp;
    static GeneratedEnsemble.Layout layout;
    /** The whole tree as a walk should see it, from single opens of each container and the source's plain files. */
    static Map<String, String> expected;

    @BeforeAll
    static void generate() throws IOException {
        layout = GeneratedEnsemble.make(temp.resolve("ensemble"), CONTAINERS);
        expected = GeneratedEnsemble.expectedTree(layout);
    }

    @Test
    void theEnsembleHasEveryFormatAndADamagedContainer() throws IOException {
        assertThat(layout.containers()).hasSize(CONTAINERS);
        for (String ext : GeneratedEnsemble.EXTENSIONS) {
            assertThat(layout.containers()).filteredOn(c -> c.endsWith("." + ext)).hasSizeGreaterThan(150);
        }
        // the damaged one opens (the format reports the cut record) and its last record cannot be read whole
        Map<String, String> damaged = Ensembles.singleOpen(layout.root().resolve(layout.damaged()));
        assertThat(damaged.values()).anyMatch(v -> v.endsWith("unreadable"));
        try (FileSystem fs = ContainerFileSystems.open(layout.root().resolve(layout.damaged()))) {
            assertThat(String.valueOf(Files.getAttribute(fs.getPath("/"), "lime:damage"))).isNotBlank();
        }
    }

    @Test
    void everyContainersSubtreeEqualsItsSingleOpen() throws IOException {
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(layout.root(), Map.of())) {
            for (String c : layout.containers()) {
                Map<String, String> shown = Ensembles.snapshot(tree.getPath("/" + c));
                assertThat(shown).as(c).isEqualTo(Ensembles.singleOpen(layout.root().resolve(c)));
            }
            assertThat(tree.containersOpened()).isEqualTo(CONTAINERS);
        }
    }

    @Test
    void aWalkOfAllWithACacheOf16NeverHasMoreThan16OpenAndSeesTheSame() throws IOException {
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(layout.root(), Map.of("cacheContainers", "16"))) {
            assertThat(tree.containerCacheCapacity()).isEqualTo(16);
            Map<String, String> walked = Ensembles.snapshot(tree.getPath("/"));
            assertThat(walked).isEqualTo(expected);
            assertThat(tree.peakContainersOpen()).isLessThanOrEqualTo(16);
            assertThat(tree.containersOpen()).isLessThanOrEqualTo(16);
            // every container was opened, so the bound was reached and containers were closed to keep it
            assertThat(tree.containersOpened()).isGreaterThanOrEqualTo(CONTAINERS);
            assertThat(tree.peakContainersOpen()).isEqualTo(16);
            // a second walk reopens what was closed, and sees the same again
            assertThat(Ensembles.snapshot(tree.getPath("/"))).isEqualTo(expected);
            assertThat(tree.peakContainersOpen()).isLessThanOrEqualTo(16);
        }
    }

    @Test
    void listingADirectoryOfContainersOpensNoneAndTellsContainersFromDirectories() throws IOException {
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(layout.root(), Map.of())) {
            int containers = 0;
            try (Stream<Path> s = Files.list(tree.getPath("/run3"))) {
                for (Path p : s.toList()) {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    boolean container = tree.isContainerDirectory(p);
                    assertThat(container).as(p.toString()).isEqualTo(!p.toString().endsWith("/notes.txt")
                            && !p.toString().endsWith("/deeper"));
                    assertThat(a.isDirectory()).as(p.toString()).isEqualTo(!p.toString().endsWith("/notes.txt"));
                    containers += container ? 1 : 0;
                }
            }
            assertThat(containers).isGreaterThan(40);
            assertThat(tree.isContainerDirectory(tree.getPath("/run3/deeper"))).isFalse();
            // a SIONlib set is one container, shown as its first file; the later file is part of it
            assertThat(names(tree.getPath("/run1/deeper"))).contains("spikes.sion").doesNotContain("spikes.sion.000001");
            assertThat(tree.isContainerDirectory(tree.getPath("/run1/deeper/spikes.sion"))).isTrue();
            assertThat(Files.exists(tree.getPath("/run1/deeper/spikes.sion.000001"))).isFalse();
            assertThat(tree.containersOpened()).isZero();
            String lime = layout.containers().stream().filter(c -> c.startsWith("run3/") && c.endsWith(".lime"))
                    .findFirst().orElseThrow();
            assertThat(tree.isContainerDirectory(tree.getPath("/" + lime + "/msg01"))).isFalse();
            assertThat(tree.containerFormat(tree.getPath("/" + lime))).isEqualTo("lime");
            assertThat(tree.containerFormat(tree.getPath("/" + lime + "/msg01"))).isEqualTo("lime");
            assertThat(tree.containersOpened()).isEqualTo(1);
        }
    }

    @Test
    void gzippedContainersOfEveryFormatAreContainersOfTheTreeAsTheirPlainSelves(@TempDir Path dir) throws IOException {
        // one container of each format (and the SIONlib set's first file alone would lose its member: skip sion
        // sets of two files, a generated sion is one file), gzipped beside nothing else
        Path gz = Files.createDirectories(dir.resolve("gz"));
        Map<String, String> plainOf = new java.util.TreeMap<>();
        for (String ext : GeneratedEnsemble.EXTENSIONS) {
            String c = layout.containers().stream()
                    .filter(n -> n.endsWith("." + ext) && !n.equals(layout.damaged()) && !n.equals(layout.growing()))
                    .filter(n -> !Files.exists(layout.root().resolve(n + ".000001")))
                    .findFirst().orElseThrow();
            Path source = layout.root().resolve(c);
            String name = source.getFileName() + ".gz";
            try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz.resolve(name)))) {
                Files.copy(source, out);
            }
            plainOf.put(name, c);
        }
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(gz, Map.of())) {
            // the listing takes each .gz for a container (a directory) from its name, opening none
            for (String name : plainOf.keySet()) {
                assertThat(tree.isContainerDirectory(tree.getPath("/" + name))).as(name).isTrue();
            }
            assertThat(tree.containersOpened()).isZero();
            for (Map.Entry<String, String> e : plainOf.entrySet()) {
                Map<String, String> shown = Ensembles.snapshot(tree.getPath("/" + e.getKey()));
                assertThat(shown).as(e.getKey()).isEqualTo(Ensembles.singleOpen(gz.resolve(e.getKey())))
                        .isEqualTo(Ensembles.singleOpen(layout.root().resolve(e.getValue())));
            }
            assertThat(tree.containersOpened()).isEqualTo(plainOf.size());
        }
    }

    @Test
    void growthShowsOnTheNextListingWithTheCacheFull(@TempDir Path dir) throws IOException {
        GeneratedEnsemble.Layout small = GeneratedEnsemble.make(dir.resolve("small"), 30);
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(small.root(), Map.of("cacheContainers", "2"))) {
            Path grow = tree.getPath("/" + small.growing());
            assertThat(names(grow)).containsExactly("msg01", "msg02");
            // a container added to a directory appears on the next listing
            assertThat(names(tree.getPath("/live"))).containsExactly("grow.lime");
            GeneratedEnsemble.write(small.root().resolve("live/new.gsd"), "gsd", 99);
            assertThat(names(tree.getPath("/live"))).containsExactly("grow.lime", "new.gsd");
            assertThat(Ensembles.snapshot(tree.getPath("/live/new.gsd")))
                    .isEqualTo(Ensembles.singleOpen(small.root().resolve("live/new.gsd")));
            // appended while open in the tree, and again after the cache closed it: its new units show
            try (FileSystem writer = ContainerFileSystems.open(small.root().resolve(small.growing()),
                    Map.of("accessMode", "readWrite"))) {
                GeneratedEnsemble.appendLimeMessage(writer, 3, 7);
            }
            assertThat(names(grow)).containsExactly("msg01", "msg02", "msg03");
            Ensembles.snapshot(tree.getPath("/run1")); // opens more than 2: grow.lime is closed
            try (FileSystem writer = ContainerFileSystems.open(small.root().resolve(small.growing()),
                    Map.of("accessMode", "readWrite"))) {
                GeneratedEnsemble.appendLimeMessage(writer, 4, 7);
            }
            assertThat(names(grow)).containsExactly("msg01", "msg02", "msg03", "msg04");
            assertThat(Ensembles.snapshot(grow)).isEqualTo(Ensembles.singleOpen(small.root().resolve(small.growing())));
            assertThat(tree.peakContainersOpen()).isLessThanOrEqualTo(2);
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
