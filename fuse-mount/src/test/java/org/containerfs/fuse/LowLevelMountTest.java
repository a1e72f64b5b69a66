package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.containerfs.fuse.FuseTestSupport.MountProcess;
import org.containerfs.fuse.FuseTestSupport.Result;
import org.containerfs.fuse.MountCommand.Engine;
import org.containerfs.fuse.lowlevel.LowLevelSession.Op;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The low-level engine as the kernel drives it: requests per {@code ls -lR} (READDIRPLUS, no LOOKUP per
 * file, the second walk served from the kernel's caches), the inode table freed by the kernel's
 * FORGETs, SIGTERM and Ctrl-C unmounting the command's mount, and writes through --rw kept in the container.
 */
class LowLevelMountTest {
    private static final int MESSAGES = 30;
    private static final int RECORDS_PER_MESSAGE = 40;

    @TempDir
    static Path dir;
    static Path container;

    @BeforeAll
    static void container() throws Exception {
        FuseTestSupport.requireFuse();
        container = dir.resolve("many.lime");
        try (FileSystem fs = ParallelReadersTest.lime().newFileSystem(container, Map.of("create", "true"))) {
            for (int m = 1; m <= MESSAGES; m++) {
                Path message = Files.createDirectory(fs.getPath(String.format("/msg%02d", m)));
                for (int r = 1; r <= RECORDS_PER_MESSAGE; r++) {
                    try (OutputStream out = Files.newOutputStream(message.resolve(String.format("rec%02d.bin", r)))) {
                        out.write(ByteBuffer.allocate(16).putInt(m).putInt(r).array());
                    }
                }
            }
        }
    }

    @Test
    void lsMinusLrNeedsNoLookupPerFileAndTheSecondWalkNoListing() throws Exception {
        int directories = MESSAGES + 1;
        int files = MESSAGES * RECORDS_PER_MESSAGE;
        Path mp = Files.createDirectory(dir.resolve("requests"));
        try (InProcessMount m = InProcessMount.mount(Engine.lowlevel, container, mp, false)) {
            FuseTestSupport.sh("stat", m.mountPoint.toString()).ok();
            Map<Op, Long> before = settled(m.lowLevel());
            assertThat(lsMinusLr(m)).isEqualTo(files);
            Map<Op, Long> first = RequestCounts.minus(settled(m.lowLevel()), before);
            assertThat(first.getOrDefault(Op.LOOKUP, 0L)).as("LOOKUP per file? %s", first).isLessThanOrEqualTo(2);
            assertThat(first.getOrDefault(Op.GETATTR, 0L)).as("GETATTR per file? %s", first).isLessThanOrEqualTo(2);
            assertThat(first.getOrDefault(Op.READDIRPLUS, 0L)).as("%s", first).isBetween((long) directories,
                    2L * directories);
            assertThat(first.getOrDefault(Op.GETXATTR, 0L)).as("%s", first).isLessThanOrEqualTo(4);
            assertThat(m.lowLevel().operations().knownInodes()).as("every listed entry is known to the kernel")
                    .isGreaterThanOrEqualTo(files + directories);

            Map<Op, Long> beforeAgain = settled(m.lowLevel());
            assertThat(lsMinusLr(m)).isEqualTo(files);
            Map<Op, Long> again = RequestCounts.minus(settled(m.lowLevel()), beforeAgain);
            assertThat(again.getOrDefault(Op.READDIRPLUS, 0L) + again.getOrDefault(Op.READDIR, 0L))
                    .as("listings served from the kernel's cache: %s", again).isZero();
            // the kernel's no-opendir mode: directories are opened and released without a request
            assertThat(again.getOrDefault(Op.OPENDIR, 0L) + again.getOrDefault(Op.RELEASEDIR, 0L))
                    .as("second walk: %s", again).isZero();
            long total = again.values().stream().mapToLong(Long::longValue).sum();
            assertThat(total).as("second walk, at most one request per directory: %s", again)
                    .isLessThanOrEqualTo(directories);
            assertThat(first.getOrDefault(Op.OPENDIR, 0L)).as("one OPENDIR, answered ENOSYS: %s", first)
                    .isLessThanOrEqualTo(1);
            assertThat(first.getOrDefault(Op.RELEASEDIR, 0L)).as("%s", first).isZero();
            assertThat(m.lowLevel().operations().noOpendir()).isTrue();
        }
    }

    /**
     * The READDIRPLUS records the engine writes itself, checked through the kernel: a directory of 2,500 records
     * (about 440 KB of records, so many replies continuing at the offsets the records carry) is listed by the
     * kernel in the container's order, every name once, each entry's d_ino equal to its st_ino and all distinct,
     * and the attributes the kernel took from the records alone (no LOOKUP, no GETATTR) equal to the provider's:
     * size, blocks, modification and access times to the nanosecond, mode, one link, owner; and reading records
     * through the node ids of those records gives their bytes.
     */
    @Test
    void aBigDirectorysRecordsReachTheKernelIntactAcrossManyReplies() throws Exception {
        int records = 2500;
        Path big = dir.resolve("big-directory.lime");
        try (FileSystem fs = ParallelReadersTest.lime().newFileSystem(big, Map.of("create", "true"))) {
            Path message = Files.createDirectory(fs.getPath("/msg01"));
            for (int r = 1; r <= records; r++) {
                byte[] bytes = new byte[r % 7 == 0 ? 0 : 1 + r % 1000];
                java.util.Arrays.fill(bytes, (byte) r);
                Files.write(message.resolve(bigName(r)), bytes);
            }
        }
        Path mp = Files.createDirectory(dir.resolve("big-directory"));
        try (InProcessMount m = InProcessMount.mount(Engine.lowlevel, big, mp, false)) {
            List<String> expected = new java.util.ArrayList<>();
            try (java.nio.file.DirectoryStream<Path> children = Files.newDirectoryStream(m.fs.getPath("/msg01"))) {
                for (Path child : children) {
                    java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(child,
                            java.nio.file.attribute.BasicFileAttributes.class);
                    java.time.Instant t = a.lastModifiedTime().toInstant();
                    long nanos = t.getEpochSecond() * 1_000_000_000L + t.getNano();
                    expected.add(child.getFileName() + " " + a.size() + " " + (a.size() + 511) / 512 + " " + nanos
                            + " " + nanos + " 100444 1");
                }
            }
            assertThat(expected).hasSize(records);
            FuseTestSupport.sh("ls", m.mountPoint.toString()).ok(); // msg01 known to the kernel: no LOOKUP of it below
            Map<Op, Long> before = settled(m.lowLevel());
            // os.scandir: names and d_ino in the order of the kernel's getdents; stat of each after the whole listing
            String script = """
                    import os, sys
                    d = sys.argv[1]
                    entries = [(e.name, e.inode()) for e in os.scandir(d)]
                    for name, dino in entries:
                        s = os.lstat(os.path.join(d, name))
                        print(name, s.st_size, s.st_blocks, s.st_mtime_ns, s.st_atime_ns, '%o' % s.st_mode, s.st_nlink,
                              s.st_uid == os.getuid() and s.st_gid == os.getgid(), s.st_blksize, dino, s.st_ino)
                    """;
            List<String> lines = FuseTestSupport.sh("python3", "-c", script, m.path("/msg01").toString()).ok().lines();
            Map<Op, Long> requests = RequestCounts.minus(settled(m.lowLevel()), before);
            assertThat(requests.getOrDefault(Op.READDIRPLUS, 0L)).as("one listing in many replies: %s", requests)
                    .isGreaterThanOrEqualTo(4);
            assertThat(requests.getOrDefault(Op.LOOKUP, 0L) + requests.getOrDefault(Op.GETATTR, 0L))
                    .as("every attribute from the READDIRPLUS records: %s", requests).isZero();
            List<String> shown = new java.util.ArrayList<>();
            java.util.Set<String> inodes = new java.util.HashSet<>();
            for (String line : lines) {
                String[] f = line.split(" ");
                assertThat(f).as(line).hasSize(11);
                assertThat(f[7]).as("owner of %s", line).isEqualTo("True");
                assertThat(f[8]).as("blksize of %s", line).isEqualTo("4096");
                assertThat(f[9]).as("d_ino and st_ino of %s", line).isEqualTo(f[10]);
                inodes.add(f[10]);
                shown.add(String.join(" ", java.util.Arrays.copyOf(f, 7)));
            }
            assertThat(shown).as("names in the container's order, once each, with their attributes")
                    .containsExactlyElementsOf(expected);
            assertThat(inodes).as("distinct inode numbers").hasSize(records);
            for (int r : new int[] {1, 7, 1234, records}) {
                String name = "/msg01/" + bigName(r);
                byte[] want = Files.readAllBytes(m.fs.getPath(name));
                assertThat(FuseTestSupport.sh("cat", m.path(name).toString()).ok().stdout()).as(name).isEqualTo(want);
            }
        }
    }

    /** Names of 5 to 46 bytes (every padding of a record), one without a type. */
    private static String bigName(int r) {
        return r % 40 == 0 ? String.format("rec%02d", r) : String.format("rec%02d.%s", r, "t".repeat(r % 40));
    }

    @Test
    void forgottenInodesAreFreed() throws Exception {
        Path mp = Files.createDirectory(dir.resolve("forget"));
        try (InProcessMount m = InProcessMount.mount(Engine.lowlevel, container, mp, false)) {
            assertThat(lsMinusLr(m)).isEqualTo(MESSAGES * RECORDS_PER_MESSAGE);
            int known = m.lowLevel().operations().knownInodes();
            assertThat(known).isGreaterThan(MESSAGES * RECORDS_PER_MESSAGE);
            Result drop = FuseTestSupport.sh("sh", "-c", "sync; echo 2 > /proc/sys/vm/drop_caches");
            Assumptions.assumeTrue(drop.exit() == 0, "dropping the kernel's caches needs root: " + drop.stderr());
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (m.lowLevel().operations().knownInodes() > MESSAGES && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(m.lowLevel().operations().knownInodes()).as("inodes after the kernel dropped its caches (%d before)",
                    known).isLessThanOrEqualTo(MESSAGES);
            assertThat(m.lowLevel().requestCounts().getOrDefault(Op.FORGET, 0L)
                    + m.lowLevel().requestCounts().getOrDefault(Op.FORGET_MULTI, 0L)).isPositive();
            // forgotten names are looked up afresh (a new inode number or a reused one with a new generation)
            assertThat(FuseTestSupport.sh("cat", m.path("/msg02/rec03.bin").toString()).ok().stdout())
                    .isEqualTo(ByteBuffer.allocate(16).putInt(2).putInt(3).array());
        }
    }

    /**
     * A live container that grows: the growth watcher lists the root again and finds another listing, so the
     * kernel is told to drop the directory's cached listing and attributes (notify_inval_inode): stat of the
     * directory through the mount then agrees with the provider's, within the 3600 s attribute timeout.
     */
    @Test
    void growthInvalidatesTheDirectorysCachedAttributes() throws Exception {
        Path live = Files.copy(container, dir.resolve("live.lime"));
        Path mp = Files.createDirectory(dir.resolve("growth"));
        try (InProcessMount m = InProcessMount.mount(Engine.lowlevel, live, mp, false)) {
            String before = FuseTestSupport.sh("stat", "-c", "%s %Y %h", m.mountPoint.toString()).ok().out();
            assertThat(FuseTestSupport.sh("ls", m.mountPoint.toString()).ok().lines()).hasSize(MESSAGES);
            Thread.sleep(1100); // a modification time one second later, should the directory's change
            try (FileSystem writer = ParallelReadersTest.lime().newFileSystem(live, Map.of("accessMode", "readWrite"))) {
                Path message = Files.createDirectory(writer.getPath(String.format("/msg%02d", MESSAGES + 1)));
                Files.write(message.resolve("rec01.bin"), new byte[16]);
            }
            FuseTestSupport.awaitListed(m.mountPoint, String.format("msg%02d", MESSAGES + 1));
            java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(m.fs.getPath("/"),
                    java.nio.file.attribute.BasicFileAttributes.class);
            String wanted = a.size() + " " + a.lastModifiedTime().toInstant().getEpochSecond();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            String after = FuseTestSupport.sh("stat", "-c", "%s %Y", m.mountPoint.toString()).ok().out().strip();
            while (!after.equals(wanted) && System.nanoTime() < deadline) {
                Thread.sleep(50); // the notification is sent from a thread of its own
                after = FuseTestSupport.sh("stat", "-c", "%s %Y", m.mountPoint.toString()).ok().out().strip();
            }
            assertThat(after).as("stat of the grown root (before: %s)", before).isEqualTo(wanted);
        }
    }

    /**
     * Growth that a request notices first (the lookup of a new name refreshes the container) still reaches the
     * root's listing that the kernel caches: the growth watcher goes by the container's count of changes, not
     * by what its own refresh found (which is nothing, the lookup having refreshed already).
     */
    @Test
    void growthNoticedByALookupFirstStillReachesTheCachedListing() throws Exception {
        Path live = Files.copy(container, dir.resolve("looked-up.lime"));
        Path mp = Files.createDirectory(dir.resolve("looked-up"));
        try (InProcessMount m = InProcessMount.mount(Engine.lowlevel, live, mp, false)) {
            assertThat(FuseTestSupport.sh("ls", m.mountPoint.toString()).ok().lines()).hasSize(MESSAGES);
            String name = String.format("msg%02d", MESSAGES + 1);
            try (FileSystem writer = ParallelReadersTest.lime().newFileSystem(live, Map.of("accessMode", "readWrite"))) {
                Files.write(Files.createDirectory(writer.getPath("/" + name)).resolve("rec01.bin"), new byte[16]);
            }
            // at once, most likely before the watcher's next check: the lookup (a miss) refreshes the container
            assertThat(FuseTestSupport.sh("stat", m.path("/" + name).toString()).exit()).isZero();
            assertThat(FuseTestSupport.awaitListed(m.mountPoint, name)).isLessThan(Duration.ofSeconds(1));
            assertThat(FuseTestSupport.sh("ls", m.mountPoint.toString()).ok().lines()).hasSize(MESSAGES + 1);
        }
    }

    @Test
    void sigtermUnmountsTheCommandsMount() throws Exception {
        Path mp = Files.createDirectory(dir.resolve("sigterm"));
        try (MountProcess p = MountProcess.start(container, mp, "--engine=lowlevel", "-v")) {
            assertThat(FuseTestSupport.sh("ls", mp.resolve("msg01").toString()).ok().lines()).hasSize(RECORDS_PER_MESSAGE);
            p.process.toHandle().destroy(); // SIGTERM (Process.destroy would also close our end of its output)
            assertThat(p.awaitExit(Duration.ofSeconds(30))).as("exit code; log:%n%s", p.output()).isZero();
            FuseTestSupport.awaitUnmounted(mp, Duration.ofSeconds(5));
            assertThat(p.output()).contains("low-level engine").contains("SIGTERM received: unmounting").contains("unmounted " + mp);
        }
    }

    @Test
    void unmountedFromOutsideTheCommandEnds() throws Exception {
        Path mp = Files.createDirectory(dir.resolve("external"));
        try (MountProcess p = MountProcess.start(container, mp, "--engine=lowlevel")) {
            assertThat(Fusermount.unmount(mp, false).ok()).isTrue();
            assertThat(p.awaitExit(Duration.ofSeconds(30))).as("exit code; log:%n%s", p.output()).isZero();
        }
    }

    /**
     * Writes through {@code --rw --engine=lowlevel} reach the container: files copied in (one of many write
     * requests, one empty, one through a shell redirect) are read back after the unmount through NIO with
     * the same SHA-256, and nothing else was added. Fails if a write request were answered without its bytes
     * being kept, or a file's commit were lost.
     */
    @Test
    void filesCopiedIntoAWritableMountAreInTheContainerAfterUnmounting() throws Exception {
        Path work = Files.createDirectory(dir.resolve("rw"));
        Path copy = Files.copy(container, work.resolve("rw.lime"));
        Path mp = Files.createDirectory(work.resolve("mnt"));
        byte[] big = new byte[3 * 1024 * 1024 + 17]; // 1 MiB write requests at most: several, the last one short
        new java.util.Random(11).nextBytes(big);
        Path bigFile = Files.write(work.resolve("big.bin"), big);
        Path small = Files.writeString(work.resolve("small.txt"), "through the low-level engine\n");
        String next = String.format("/msg%02d", MESSAGES + 1);
        try (MountProcess m = MountProcess.start(copy, mp, "--rw", "--engine=lowlevel", "-v")) {
            FuseTestSupport.sh("mkdir", mp + next).ok();
            FuseTestSupport.sh("cp", bigFile.toString(), mp + next + "/rec01.big").ok();
            // the size the kernel shows right after the close is the committed unit's
            assertThat(FuseTestSupport.sh("stat", "-c", "%s %A", mp + next + "/rec01.big").ok().out().trim())
                    .isEqualTo(big.length + " -r--r--r--");
            FuseTestSupport.sh("sh", "-c", "cat \"$1\" > \"$2\"", "sh", small.toString(), mp + next + "/rec02.small")
                    .ok();
            FuseTestSupport.sh("touch", mp + next + "/rec03.empty").ok();
            assertThat(FuseTestSupport.sh("sha256sum", mp + next + "/rec01.big").ok().out())
                    .startsWith(FuseTestSupport.sha256(big));
            assertThat(FuseTestSupport.sh("ls", mp + next).ok().lines())
                    .containsExactly("rec01.big", "rec02.small", "rec03.empty");
            assertThat(Fusermount.unmount(mp, false).ok()).isTrue();
            assertThat(m.awaitExit(Duration.ofSeconds(30))).as("exit code; log:%n%s", m.output()).isZero();
            assertThat(m.output()).contains("low-level engine").contains("committed " + next + "/rec01.big ("
                    + big.length + " bytes)").doesNotContain("NOT committed");
        }
        try (FileSystem fs = MountCommand.openContainer(copy, false, null, false)) {
            try (java.util.stream.Stream<Path> s = Files.list(fs.getPath(next))) {
                assertThat(s.map(p -> p.getFileName().toString()).sorted().toList())
                        .containsExactly("rec01.big", "rec02.small", "rec03.empty");
            }
            assertThat(FuseTestSupport.sha256(Files.readAllBytes(fs.getPath(next, "rec01.big"))))
                    .isEqualTo(FuseTestSupport.sha256(big));
            assertThat(FuseTestSupport.sha256(Files.readAllBytes(fs.getPath(next, "rec02.small"))))
                    .isEqualTo(FuseTestSupport.sha256(small));
            assertThat(Files.size(fs.getPath(next, "rec03.empty"))).isZero();
            try (java.util.stream.Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s.count()).isEqualTo(MESSAGES + 1);
            }
        }
    }

    @Test
    void highLevelOptionsBecomeTimeoutsAndThreadsNotSessionOptions() {
        MountSettings s = MountSettings.defaults("/data/a,b.lime").withExtraOptions(
                List.of("allow_other", "attr_timeout=1", "kernel_cache", "max_threads=3", "nonempty"));
        assertThat(LowLevelMount.sessionArguments(s)).containsExactly("-o",
                "ro,default_permissions,auto_unmount,fsname=/data/a\\,b.lime,subtype=containerfs,allow_other");
    }

    private static long lsMinusLr(InProcessMount m) {
        return FuseTestSupport.sh("ls", "-lR", m.mountPoint.toString()).ok().lines().stream()
                .filter(l -> l.startsWith("-r")).count();
    }

    private static Map<Op, Long> settled(LowLevelMount mount) throws InterruptedException {
        return RequestCounts.settled(mount::requestCounts, Op.OPENDIR, Op.RELEASEDIR);
    }
}
