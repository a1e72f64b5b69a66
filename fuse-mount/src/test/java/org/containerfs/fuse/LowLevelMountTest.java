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
