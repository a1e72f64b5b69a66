package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.cryptomator.jfuse.api.FuseOperations.Operation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The requests an {@code ls -lR} costs, counted by the mount itself ({@link NioFuseOperations#requestCounts()}):
 * a bounded number per directory and none per file, the first time and again. A regression of readdirplus
 * (a LOOKUP, i.e. a getattr, per file), of the ENOTSUP answer for security/ACL attributes (getxattr per
 * file) or of one listing per directory (several readdir pages) fails here.
 */
class RequestCountTest {
    private static final int MESSAGES = 40;
    private static final int RECORDS_PER_MESSAGE = 10;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    @Test
    void lsMinusLrCostsAFewRequestsPerDirectoryAndNonePerFile(@TempDir Path dir) throws Exception {
        Path container = dir.resolve("many.lime");
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
        int directories = MESSAGES + 1;
        int files = MESSAGES * RECORDS_PER_MESSAGE;
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(MountCommand.Engine.highlevel, container, mp, false)) {
            NioFuseOperations ops = m.highLevel().operations();
            FuseTestSupport.sh("ls", m.mountPoint.toString()).ok(); // the mount answers; its root is known
            for (String round : new String[] {"first", "again"}) {
                Map<Operation, Long> before = settled(ops);
                String listing = FuseTestSupport.sh("ls", "-lR", m.mountPoint.toString()).ok().out();
                assertThat(listing.lines().filter(l -> l.startsWith("-r")).count()).isEqualTo(files);
                Map<Operation, Long> served = RequestCounts.minus(settled(ops), before);
                assertThat(served.getOrDefault(Operation.GET_ATTR, 0L)).as("%s: getattr (LOOKUP) per file? %s", round, served)
                        .isLessThanOrEqualTo(2);
                assertThat(served.getOrDefault(Operation.GET_XATTR, 0L)).as("%s: getxattr per file? %s", round, served)
                        .isLessThanOrEqualTo(4);
                assertThat(served.getOrDefault(Operation.OPEN_DIR, 0L)).as("%s: %s", round, served).isEqualTo(directories);
                assertThat(served.getOrDefault(Operation.RELEASE_DIR, 0L)).as("%s: %s", round, served).isEqualTo(directories);
                // one page with every entry, then the empty page that ends the listing
                assertThat(served.getOrDefault(Operation.READ_DIR, 0L)).as("%s: %s", round, served)
                        .isLessThanOrEqualTo(2L * directories);
                long total = served.values().stream().mapToLong(Long::longValue).sum();
                assertThat(total).as("%s: %s", round, served).isLessThanOrEqualTo(4L * directories + 6);
            }
        }
    }

    private static Map<Operation, Long> settled(NioFuseOperations ops) throws InterruptedException {
        return RequestCounts.settled(ops::requestCounts, Operation.OPEN_DIR, Operation.RELEASE_DIR);
    }
}
