package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.ensemble.GeneratedEnsemble;
import org.containerfs.fuse.FuseTestSupport.MountProcess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code containerfs mount DIR MNT}: a directory of containers mounted read-only as one tree (issue 26),
 * through both engines. Every container's directory in the mount shows what its single open shows (paths,
 * sizes, SHA-256); a container added appears on the next ls, one appended to shows its new units; --rw is
 * refused.
 */
class EnsembleMountTest {
    /** Mounts are slow to walk: fewer than the library's 1,000. */
    static final int CONTAINERS = 100;

    @TempDir
    static Path temp;
    static GeneratedEnsemble.Layout layout;
    static Map<String, String> expected;

    @BeforeAll
    static void generate() throws IOException {
        FuseTestSupport.requireFuse();
        layout = GeneratedEnsemble.make(temp.resolve("ensemble"), CONTAINERS);
        expected = GeneratedEnsemble.expectedTree(layout);
    }

    @ParameterizedTest
    @ValueSource(strings = {"highlevel", "lowlevel"})
    void everyContainerThroughTheMountEqualsItsSingleOpen(String engine) throws Exception {
        Path mp = Files.createDirectories(temp.resolve("mnt-" + engine));
        try (MountProcess m = MountProcess.start(layout.root(), mp, "--engine=" + engine,
                "--env=cacheContainers=16")) {
            assertThat(m.output()).contains("(ensemble, read-only)");
            assertThat(GeneratedEnsemble.snapshot(mp)).isEqualTo(expected);
            // the damaged container's cut record: an error through the mount, as its single open's read fails
            assertThat(expected.values()).filteredOn(v -> v.endsWith(" unreadable")).hasSize(1);
            assertThat(sh("ls", mp.resolve("run2").toString()).ok().lines()).contains("notes.txt", "deeper");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"highlevel", "lowlevel"})
    void growthShowsThroughTheMount(String engine, @TempDir Path dir) throws Exception {
        GeneratedEnsemble.Layout small = GeneratedEnsemble.make(dir.resolve("small"), 20);
        Path mp = Files.createDirectories(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(small.root(), mp, "--engine=" + engine)) {
            Path live = mp.resolve("live");
            Path grow = mp.resolve(small.growing());
            assertThat(sh("ls", live.toString()).ok().lines()).containsExactly("grow.lime");
            assertThat(sh("ls", grow.toString()).ok().lines()).containsExactly("msg01", "msg02");
            // a container added to the directory appears on the next listing
            GeneratedEnsemble.write(small.root().resolve("live/added.g3"), "g3", 42);
            awaitListed(live, "added.g3");
            assertThat(GeneratedEnsemble.snapshot(live.resolve("added.g3")))
                    .isEqualTo(GeneratedEnsemble.singleOpen(small.root().resolve("live/added.g3")));
            // a container appended to while mounted (and open in the tree) shows its new unit
            try (FileSystem writer = ContainerFileSystems.open(small.root().resolve(small.growing()),
                    Map.of("accessMode", "readWrite"))) {
                GeneratedEnsemble.appendLimeMessage(writer, 3, 7);
            }
            awaitListed(grow, "msg03");
            assertThat(GeneratedEnsemble.snapshot(grow))
                    .isEqualTo(GeneratedEnsemble.singleOpen(small.root().resolve(small.growing())));
        }
    }

    /**
     * A tree has no cheap change count for the kernel's no-opendir mode, so every {@code ls} opens each directory;
     * a directory a container shows is kept from one stat of the container's file (its listing stamp), so a second
     * {@code ls -lR} shows the same and reopens none of the containers the bound of 4 evicted but the SIONlib ones
     * (a set spans files: no stamp); after a container grew, the next shows its new unit.
     */
    @Test
    void aSecondWalkOfTheLowLevelMountReopensNoContainerButSionSets(@TempDir Path dir) throws Exception {
        GeneratedEnsemble.Layout small = GeneratedEnsemble.make(dir.resolve("small"), 30);
        long sion = small.containers().stream().filter(c -> c.endsWith(".sion")).count();
        Path mp = Files.createDirectories(dir.resolve("mnt"));
        var tree = (org.containerfs.ensemble.EnsembleFileSystem) ContainerFileSystems.openTree(small.root(),
                Map.of("cacheContainers", 4));
        try (InProcessMount m = InProcessMount.mountFileSystem(MountCommand.Engine.lowlevel, tree, mp)) {
            String first = sh("ls", "-lR", mp.toString()).ok().out();
            long opened = tree.containersOpened();
            assertThat(opened).as("the first walk opens every container").isGreaterThanOrEqualTo(small.containers().size());
            assertThat(tree.containersOpen()).isLessThanOrEqualTo(4);
            assertThat(sh("ls", "-lR", mp.toString()).ok().out()).isEqualTo(first);
            assertThat(tree.containersOpened() - opened).as("containers reopened by the second walk (%d SIONlib)", sion)
                    .isLessThanOrEqualTo(sion);

            try (FileSystem writer = ContainerFileSystems.open(small.root().resolve(small.growing()),
                    Map.of("accessMode", "readWrite"))) {
                GeneratedEnsemble.appendLimeMessage(writer, 3, 7);
            }
            assertThat(sh("ls", mp.resolve(small.growing()).toString()).ok().lines())
                    .containsExactly("msg01", "msg02", "msg03");
            assertThat(sh("ls", "-lR", mp.toString()).ok().out()).contains("msg03");
        }
    }

    /** The high-level engine forgets the entry with fuse_invalidate_path, the low-level one with notify_inval_entry. */
    @ParameterizedTest
    @ValueSource(strings = {"highlevel", "lowlevel"})
    void aFileNamedLikeAContainerThatIsNoneBecomesThePlainFileItIs(String engine, @TempDir Path dir) throws Exception {
        GeneratedEnsemble.Layout small = GeneratedEnsemble.make(dir.resolve("small"), 10);
        Files.writeString(small.root().resolve("live/notes.lime"), "plain text, named like a LIME file\n");
        Path mp = Files.createDirectories(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(small.root(), mp, "--engine=" + engine)) {
            Path fake = mp.resolve("live/notes.lime");
            // listed from its name as a container's directory; its first listing finds no format's magic bytes
            assertThat(Files.isDirectory(fake)).isTrue();
            assertThat(sh("ls", fake.toString()).exit()).isNotZero();
            // from then on the plain file it is, once the kernel forgot the directory it had cached
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            FuseTestSupport.Result cat = sh("cat", fake.toString());
            while (cat.exit() != 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
                cat = sh("cat", fake.toString());
            }
            assertThat(cat.ok().out()).isEqualTo("plain text, named like a LIME file\n");
            assertThat(Files.isRegularFile(fake)).isTrue();
        }
    }

    @Test
    void aDirectoryIsNeverMountedWritable(@TempDir Path dir) throws Exception {
        Path mp = Files.createDirectories(dir.resolve("mnt"));
        FuseTestSupport.Result rw = FuseTestSupport.mountCommand(Duration.ofSeconds(30), mp,
                layout.root().toString(), mp.toString(), "--rw");
        assertThat(rw.exit()).isEqualTo(1);
        assertThat(rw.stderr()).contains("is a directory").contains("read-only").contains("--rw");
        assertThat(FuseSession.isMounted(mp)).isFalse();
        FuseTestSupport.Result format = FuseTestSupport.mountCommand(Duration.ofSeconds(30), mp,
                layout.root().toString(), mp.toString(), "--format=lime");
        assertThat(format.exit()).isEqualTo(2);
        assertThat(format.stderr()).contains("--format does not apply to a directory");
    }

    /** Polls ls until it lists {@code name} (the kernel caches no listing and no negative lookup). */
    private static void awaitListed(Path dir, String name) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> last = List.of();
        while (System.nanoTime() < deadline) {
            FuseTestSupport.Result ls = sh("ls", dir.toString());
            last = ls.lines();
            if (ls.exit() == 0 && last.contains(name)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(name + " never appeared in ls " + dir + "; last: " + last);
    }
}
