package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.containerfs.fuse.FuseTestSupport.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SIONlib multi-file set (the corpus has none: SIONlib writes them only under MPI) mounted by its
 * first file: one tree of every task of every member in global order, read with the shell tools;
 * a set with a missing member does not mount and says which member is missing.
 */
class SionSetThroughMountTest {
    private static final int BLOCK = 512;

    @TempDir
    Path dir;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    /**
     * One member of a set, SION file-format version 5, little-endian, one chunk per task (layout of
     * sion.md: header, 1024-byte prefix, global ranks, chunk sizes, max chunks and the variable
     * header's offset, the data in blocks, then per task its chunk count and chunk sizes, then the
     * global task mapping as (file, local rank) pairs, which only the first member holds).
     */
    static byte[] member(String prefix, int nfiles, int fileNumber, long[] globalRanks, byte[][] tasks, int[] mapping) {
        int n = tasks.length;
        long[] capacity = new long[n];
        long[] capStart = new long[n];
        long skip = 0;
        for (int t = 0; t < n; t++) {
            capacity[t] = Math.max(BLOCK, (tasks[t].length + BLOCK - 1) / BLOCK * BLOCK);
            capStart[t] = skip;
            skip += capacity[t];
        }
        long startOfData = (1088 + 16L * n + BLOCK - 1) / BLOCK * BLOCK;
        long startOfVarheader = startOfData + skip;
        int mappingPairs = mapping == null ? 0 : mapping.length / 2;
        ByteBuffer b = ByteBuffer.allocate((int) (startOfVarheader + 16L * n + 4 + 8L * mappingPairs))
                .order(ByteOrder.LITTLE_ENDIAN);
        b.put("sion".getBytes(StandardCharsets.US_ASCII)).put(new byte[4]);
        b.putInt(1007).putInt(6).putInt(5).putInt(BLOCK).putInt(n).putInt(nfiles);
        b.putInt(fileNumber).putLong(50L << 32).putLong(0);
        b.put(Arrays.copyOf(prefix.getBytes(StandardCharsets.UTF_8), 1024));
        for (long r : globalRanks) {
            b.putLong(r);
        }
        for (long c : capacity) {
            b.putLong(c);
        }
        b.putInt(1).putLong(startOfVarheader);
        for (int t = 0; t < n; t++) {
            b.put((int) (startOfData + capStart[t]), tasks[t]);
        }
        b.position((int) startOfVarheader);
        for (int t = 0; t < n; t++) {
            b.putLong(1);
        }
        for (int t = 0; t < n; t++) {
            b.putLong(tasks[t].length);
        }
        b.putInt(mappingPairs);
        if (mapping != null) {
            for (int v : mapping) {
                b.putInt(v);
            }
        }
        return b.array();
    }

    private static byte[] random(int size, int seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void setMountedByItsFirstFileShowsEveryTaskOfEveryMember() throws Exception {
        byte[][] task = {random(700, 0), random(1, 1), random(1500, 2), random(0, 3), random(513, 4)};
        // global order: file0/0, file1/0, file0/1, file1/1, file1/2
        Files.write(dir.resolve("set.sion"), member("set.sion", 2, 0, new long[] {0, 2},
                new byte[][] {task[0], task[2]}, new int[] {0, 0, 1, 0, 0, 1, 1, 1, 1, 2}));
        Files.write(dir.resolve("set.sion.000001"), member("set.sion", 2, 1, new long[] {1, 3, 4},
                new byte[][] {task[1], task[3], task[4]}, null));
        String[] members = {"set.sion", "set.sion.000001", "set.sion", "set.sion.000001", "set.sion.000001"};
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(dir.resolve("set.sion"), mp, false)) {
            assertThat(sh("find", mp.toString(), "-type", "f").ok().lines()).containsExactlyInAnyOrder(
                    mp + "/task000000", mp + "/task000001", mp + "/task000002", mp + "/task000003", mp + "/task000004");
            List<String> cmd = new ArrayList<>(List.of("stat", "-c", "%s"));
            List<String> sha = new ArrayList<>(List.of("sha256sum"));
            List<String> sizes = new ArrayList<>();
            List<String> sums = new ArrayList<>();
            for (int g = 0; g < task.length; g++) {
                String p = mp + String.format("/task%06d", g);
                cmd.add(p);
                sha.add(p);
                sizes.add(String.valueOf(task[g].length));
                sums.add(FuseTestSupport.sha256(task[g]) + "  " + p);
            }
            assertThat(FuseTestSupport.run(Duration.ofSeconds(30), cmd).ok().lines()).containsExactlyElementsOf(sizes);
            assertThat(FuseTestSupport.run(Duration.ofSeconds(30), sha).ok().lines()).containsExactlyElementsOf(sums);
            Path copy = dir.resolve("copy");
            sh("cp", "-r", mp.toString(), copy.toString()).ok();
            for (int g = 0; g < task.length; g++) {
                assertThat(Files.readAllBytes(copy.resolve(String.format("task%06d", g)))).isEqualTo(task[g]);
                Result attr = sh("getfattr", "--only-values", "-n", "user.sion.physicalFile",
                        mp + String.format("/task%06d", g)).ok();
                assertThat(attr.out()).isEqualTo(members[g]);
            }
            assertThat(sh("getfattr", "--only-values", "-n", "user.sion.globalRank", mp + "/task000004").ok().out())
                    .isEqualTo("4");
            assertThat(sh("getfattr", "--only-values", "-n", "user.sion.files", mp.toString()).ok().out()).isEqualTo("2");
            // the store is the first file (what the container path names)
            assertThat(sh("stat", "-f", "-c", "%b", mp.toString()).ok().out().trim())
                    .isEqualTo(String.valueOf((Files.size(dir.resolve("set.sion")) + 4095) / 4096));
        }
    }

    @Test
    void setWithAMissingMemberDoesNotMountAndNamesTheMember() throws Exception {
        Files.write(dir.resolve("set.sion"), member("set.sion", 2, 0, new long[] {0}, new byte[][] {random(10, 5)},
                new int[] {0, 0, 1, 0}));
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        Result r = FuseTestSupport.mountCommand(Duration.ofSeconds(30), mp, dir.resolve("set.sion").toString(), mp.toString());
        assertThat(r.exit()).as("exit; stderr %s", r.stderr()).isEqualTo(1);
        assertThat(r.stderr()).startsWith("containerfs mount: cannot open " + dir.resolve("set.sion") + ": ")
                .contains("set.sion.000001");
        assertThat(FuseSession.isMounted(mp)).isFalse();
    }
}
