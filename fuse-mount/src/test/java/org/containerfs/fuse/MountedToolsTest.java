package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.containerfs.fuse.CorpusFormat.Expected;
import org.containerfs.fuse.FuseTestSupport.MountProcess;
import org.containerfs.fuse.FuseTestSupport.Result;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The programs users run on a mount, where they once went wrong (issue 18 item 5): {@code du} and
 * GNU {@code tar --sparse} (st_blocks), a write that fails, {@code rsync -a} into a --rw mount,
 * a GSD chunk's type and width given with {@code setfattr}, chmod/setfattr errno, mounting over a
 * non-empty directory; and the FUSE requests an {@code ls -lR} costs.
 */
class MountedToolsTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    private Path copyOf(CorpusFormat format, String name) throws Exception {
        return Files.copy(format.corpusFile(name), dir.resolve(name));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void blocksAreTheBytesAndTarSparseRoundTripsEveryRecord(Engine engine) throws Exception {
        CorpusFormat.Lime lime = new CorpusFormat.Lime();
        Path container = lime.containers().stream().filter(p -> p.getFileName().toString().startsWith("s13_"))
                .findFirst().orElseThrow();
        Map<String, Expected> rows = lime.expected(container);
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        Path archive = dir.resolve("sparse.tar");
        Path out = Files.createDirectory(dir.resolve("out"));
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, false)) {
            for (Expected e : rows.values()) {
                String blocks = sh("stat", "-c", "%b %B", m.path(e.path()).toString()).ok().out().trim();
                assertThat(blocks).as("st_blocks of %s (%d bytes)", e.path(), e.size())
                        .isEqualTo((e.size() + 511) / 512 + " 512");
            }
            long total = rows.values().stream().mapToLong(Expected::size).sum();
            long du = Long.parseLong(sh("du", "-s", "-B1", "--apparent-size", mp.toString()).ok().out().split("\\s")[0]);
            long duBlocks = Long.parseLong(sh("du", "-s", "-B512", mp.toString()).ok().out().split("\\s")[0]);
            assertThat(du).isGreaterThanOrEqualTo(total);
            assertThat(duBlocks).as("du in blocks").isGreaterThanOrEqualTo(total / 512);
            sh("tar", "--sparse", "-cf", archive.toString(), "-C", mp.toString(), ".").ok();
        }
        sh("tar", "-xf", archive.toString(), "-C", out.toString()).ok();
        for (Expected e : rows.values()) {
            if (e.sha256() != null) {
                assertThat(FuseTestSupport.sha256(out.resolve(e.path().substring(1)))).as("%s out of tar -S", e.path())
                        .isEqualTo(e.sha256());
            }
        }
    }

    /** One format's way to add a unit through the mount. */
    record NewUnit(CorpusFormat format, String corpusFile, List<String> mkdirs, String failed, String rsynced,
            String blobFromMount) {
        @Override
        public String toString() {
            return format.name();
        }
    }

    static List<NewUnit> formats() {
        return List.of(
                new NewUnit(new CorpusFormat.Lime(), "s02_", List.of("/msg04"), "/msg04/rec01.partial",
                        "/msg04/rec01.rsynced", null),
                new NewUnit(new CorpusFormat.Scda(), "all_types.scda", List.of(), "/NEXT.B.partial", "/NEXT.B.rsynced",
                        null),
                new NewUnit(new CorpusFormat.G3(), "simple-types.g3", List.of("/000004.Scan"), "/000004.Scan/partial",
                        "/000004.Scan/rsynced", "FIRSTKEY"),
                new NewUnit(new CorpusFormat.Gsd(), "hoomd_trajectory.gsd", List.of("/12"), "/12/partial",
                        "/12/rsynced", null));
    }

    /**
     * A file whose write failed (an out-of-order pwrite: EIO) is not committed, and close says so;
     * {@code rsync -a} writes {@code .position.kZKy3M} and renames it: the unit appears under its final
     * name only. The same in every writable format.
     */
    /** Every writable format, through each engine. */
    static Stream<org.junit.jupiter.params.provider.Arguments> formatsByEngine() {
        return java.util.Arrays.stream(Engine.values()).flatMap(e -> formats().stream()
                .map(u -> org.junit.jupiter.params.provider.Arguments.of(e, u)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("formatsByEngine")
    void aFailedWriteCommitsNothingAndRsyncCommitsUnderTheFinalName(Engine engine, NewUnit u) throws Exception {
        Path original = u.format().containers().stream()
                .filter(p -> p.getFileName().toString().startsWith(u.corpusFile())).findFirst().orElseThrow();
        Path container = Files.copy(original, dir.resolve(original.getFileName()));
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        Path source = dir.resolve("source.bin");
        String failed = u.failed();
        String rsynced = u.rsynced();
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
            if (failed.contains("NEXT")) { // scda: sections are numbered
                int count = sh("ls", mp.toString()).ok().lines().size();
                failed = failed.replace("NEXT", String.format("%04d", count));
                rsynced = rsynced.replace("NEXT", String.format("%04d", count));
            }
            byte[] payload = new byte[3000];
            new Random(5).nextBytes(payload);
            if (u.blobFromMount() != null) { // G3 keys are serialized values: take a real one
                String frame = sh("ls", mp.toString()).ok().lines().get(3);
                String key = sh("ls", mp + "/" + frame).ok().lines().get(0);
                payload = Files.readAllBytes(m.path("/" + frame + "/" + key));
            }
            Files.write(source, payload);
            for (String d : u.mkdirs()) {
                sh("mkdir", m.path(d).toString()).ok();
            }
            Result py = FuseTestSupport.run(Duration.ofSeconds(30), List.of("/usr/bin/python3", "-c", """
                    import os, sys
                    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT)
                    os.write(fd, b'x' * 100)
                    try:
                        os.pwrite(fd, b'y', 5000)
                        print('pwrite ok')
                    except OSError as e:
                        print('pwrite', e.errno)
                    try:
                        os.close(fd)
                        print('close ok')
                    except OSError as e:
                        print('close', e.errno)
                    """, m.path(failed).toString())).ok();
            assertThat(py.lines()).containsExactly("pwrite 5", "close 5");
            assertThat(Files.exists(m.path(failed))).as("%s after its failed write", failed).isFalse();

            sh("rsync", "-a", source.toString(), m.path(rsynced).toString()).ok();
            assertThat(Files.readAllBytes(m.path(rsynced))).isEqualTo(payload);
            assertThat(m.log()).contains("NOT committed (an out-of-order write");
        }
        try (FileSystem fs = MountCommand.openContainer(container, false, null, false);
                Stream<Path> all = Files.walk(fs.getPath("/"))) {
            List<String> names = all.map(p -> p.toString()).toList();
            assertThat(names).contains(rsynced).doesNotContain(failed)
                    .noneMatch(n -> n.substring(n.lastIndexOf('/') + 1).startsWith("."));
            assertThat(Files.readAllBytes(fs.getPath(rsynced))).isEqualTo(Files.readAllBytes(source));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void aGsdChunkTakesTypeAndWidthFromSetfattrAndGsdHoomdReadsItAsFloat32(Engine engine) throws Exception {
        Path container = copyOf(new CorpusFormat.Gsd(), "hoomd_trajectory.gsd");
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        Path positions = dir.resolve("position.bin");
        Path n = dir.resolve("n.bin");
        FuseTestSupport.run(Duration.ofSeconds(30), List.of("/usr/bin/python3", "-c", """
                import sys, numpy
                numpy.arange(64 * 3, dtype=numpy.float32).tofile(sys.argv[1])
                numpy.array([64], dtype=numpy.uint32).tofile(sys.argv[2])
                """, positions.toString(), n.toString())).ok();
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
            sh("mkdir", mp + "/12").ok();
            sh("mkdir", mp + "/12/particles").ok();
            String chunk = mp + "/12/particles/position";
            sh("touch", chunk).ok();
            sh("setfattr", "-n", "user.gsd.type", "-v", "float32", chunk).ok();
            sh("setfattr", "-n", "user.gsd.M", "-v", "3", chunk).ok();
            assertThat(sh("getfattr", "--only-values", "-n", "user.gsd.type", chunk).ok().out()).isEqualTo("float32");
            sh("cp", positions.toString(), chunk).ok();
            sh("touch", mp + "/12/particles/N").ok();
            sh("setfattr", "-n", "user.gsd.type", "-v", "uint32", mp + "/12/particles/N").ok();
            sh("cp", n.toString(), mp + "/12/particles/N").ok();
            // a committed chunk never changes
            Result late = sh("setfattr", "-n", "user.gsd.type", "-v", "uint8", chunk);
            assertThat(late.exit()).isNotZero();
            assertThat(late.stderr()).contains("Permission denied");
        }
        List<String> out = FuseTestSupport.run(Duration.ofSeconds(60), List.of("/usr/bin/python3", "-c", """
                import sys, gsd.hoomd
                with gsd.hoomd.open(sys.argv[1], 'rb') as t:
                    f = t[12]
                    p = f.particles.position
                    print(len(t), f.particles.N, p.dtype, p.shape, p[1].tolist())
                """, container.toString())).ok().lines();
        assertThat(out).containsExactly("13 64 float32 (64, 3) [3.0, 4.0, 5.0]");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void chmodAndSetfattrOfCommittedEntriesAreEaccesAndLsStopsAskingSecurityXattrs(Engine engine) throws Exception {
        Path container = Files.copy(new CorpusFormat.Lime().containers().get(0), dir.resolve("c.lime"));
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
            Path first;
            try (Stream<Path> s = Files.walk(mp)) {
                first = s.filter(Files::isRegularFile).findFirst().orElseThrow();
            }
            for (Result r : List.of(sh("chmod", "600", first.toString()), sh("chmod", "700", mp + "/msg01"),
                    sh("setfattr", "-n", "user.lime.type", "-v", "x", first.toString()))) {
                assertThat(r.exit()).isNotZero();
                assertThat(r.stderr()).contains("Permission denied");
            }
            Result selinux = sh("getfattr", "-n", "security.selinux", first.toString());
            assertThat(selinux.stderr()).contains("Operation not supported");
            Result acl = sh("getfattr", "-n", "system.posix_acl_access", first.toString());
            assertThat(acl.stderr()).contains("Operation not supported");
            assertThat(sh("getfattr", "-d", first.toString()).ok().out()).contains("user.lime.");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aNonEmptyMountPointIsRefusedUnlessNonemptyIsGiven(Engine engine) throws Exception {
        Path container = new CorpusFormat.Lime().containers().get(0);
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        Files.writeString(mp.resolve("keep.txt"), "mine");
        Result refused = FuseTestSupport.mountCommand(Duration.ofSeconds(60), mp, container.toString(), mp.toString(),
                "--engine=" + engine);
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.stderr()).contains("is not empty").contains("-o nonempty");
        assertThat(FuseSession.isMounted(mp)).isFalse();
        try (MountProcess m = MountProcess.start(container, mp, "-o", "nonempty", "--engine=" + engine)) {
            assertThat(sh("ls", mp.toString()).ok().lines()).doesNotContain("keep.txt").contains("msg01");
            m.process.toHandle().destroy();
            assertThat(m.awaitExit(Duration.ofSeconds(20))).isZero();
        }
        assertThat(Files.readString(mp.resolve("keep.txt"))).isEqualTo("mine");
    }

    /**
     * {@code -o max_read} mounts (libfuse 3.14 refused it with EPROTO unless init sets the same value),
     * and as root the mount's read-ahead window is 1 MiB.
     */
    @Test
    void maxReadIsAcceptedAndRootGetsAOneMibReadAheadWindow() throws Exception {
        CorpusFormat.Lime lime = new CorpusFormat.Lime();
        Path container = lime.containers().stream().filter(p -> p.getFileName().toString().startsWith("s13_"))
                .findFirst().orElseThrow();
        Expected big = lime.expected(container).values().stream().filter(e -> e.sha256() != null)
                .max(java.util.Comparator.comparingLong(Expected::size)).orElseThrow();
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(container, mp, "-o", "max_read=1048576")) {
            assertThat(FuseTestSupport.sha256(Path.of(mp + big.path()))).isEqualTo(big.sha256());
            if (MountSettings.currentUid() == 0) {
                String device = FuseSession.deviceOf(mp);
                assertThat(Files.readString(Path.of("/sys/class/bdi", device, "read_ahead_kb")).trim()).isEqualTo("1024");
            }
        }
    }

    /**
     * FUSE requests of one {@code ls -lR} (libfuse's -d log): names come with their attributes
     * (readdirplus, no LOOKUP per file) and {@code ls} stops asking security/ACL attributes after the
     * first ENOTSUP: about four requests per directory, whatever the number of files.
     */
    @Test
    void lsMinusLrCostsNoRequestPerFile() throws Exception {
        CorpusFormat.Lime lime = new CorpusFormat.Lime();
        Path container = lime.containers().stream().filter(p -> p.getFileName().toString().startsWith("s13_"))
                .findFirst().orElseThrow();
        int files = lime.expected(container).size();
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (MountProcess m = MountProcess.start(container, mp, "--fuse-debug")) {
            Thread.sleep(300);
            int before = requests(m.output()).values().stream().mapToInt(Integer::intValue).sum();
            Map<String, Integer> startCounts = requests(m.output());
            sh("ls", "-lR", mp.toString()).ok();
            Thread.sleep(300);
            Map<String, Integer> counts = requests(m.output());
            int dirs = (int) sh("find", mp.toString(), "-type", "d").ok().lines().size();
            int total = counts.values().stream().mapToInt(Integer::intValue).sum() - before;
            int lookups = counts.getOrDefault("LOOKUP", 0) - startCounts.getOrDefault("LOOKUP", 0);
            int xattrs = counts.getOrDefault("GETXATTR", 0) - startCounts.getOrDefault("GETXATTR", 0);
            assertThat(files).isGreaterThan(dirs);
            assertThat(lookups).as("LOOKUPs for %d files in %d directories: %s", files, dirs, counts).isLessThanOrEqualTo(1);
            assertThat(xattrs).as("GETXATTRs: %s", counts).isLessThanOrEqualTo(4);
            assertThat(total).as("requests: %s", counts).isLessThanOrEqualTo(4 * dirs + 8);
        }
    }

    private static final Pattern OPCODE = Pattern.compile("(?m)^unique: \\d+, opcode: ([A-Z_]+)");

    private static Map<String, Integer> requests(String debugLog) {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        Matcher m = OPCODE.matcher(debugLog);
        while (m.find()) {
            counts.merge(m.group(1), 1, Integer::sum);
        }
        return counts;
    }
}
