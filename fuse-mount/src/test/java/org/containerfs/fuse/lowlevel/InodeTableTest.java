package org.containerfs.fuse.lowlevel;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class InodeTableTest {
    @Test
    void aNameKeepsItsInodeUntilEveryLookupIsForgotten() {
        InodeTable t = new InodeTable();
        InodeTable.Node dir = t.lookup(t.root(), "msg01");
        InodeTable.Node file = t.lookup(dir, "rec01");
        assertThat(t.lookup(dir, "rec01")).isEqualTo(file);
        assertThat(file.path()).isEqualTo("/msg01/rec01");
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.forget(file.ino(), 1)).isFalse();
        assertThat(t.get(file.ino())).isEqualTo(file);
        assertThat(t.forget(file.ino(), 1)).isTrue();
        assertThat(t.get(file.ino())).isNull();
        assertThat(t.peek(dir.ino(), "rec01")).isNull();
        assertThat(t.size()).isEqualTo(2);
    }

    /** A freed number serves another name with a higher generation, and the old handle no longer names anything. */
    @Test
    void aFreedNumberServesAnotherNameWithAHigherGenerationAndTheOldHandleSaysSo() {
        InodeTable t = new InodeTable();
        InodeTable.Node a = t.lookup(t.root(), "a");
        t.forget(a.ino(), 1);
        InodeTable.Node b = t.lookup(t.root(), "b");
        assertThat(b.ino()).isEqualTo(a.ino());
        assertThat(b.generation()).isGreaterThan(a.generation());
        assertThat(b.path()).isEqualTo("/b");
        assertThat(b).isNotEqualTo(a);
        org.assertj.core.api.Assertions.assertThatThrownBy(a::path)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("inode " + a.ino());
        InodeTable.Node c = t.lookup(t.root(), "c");
        assertThat(c.ino()).isNotEqualTo(b.ino());
    }

    @Test
    void theRootIsNeverForgotten() {
        InodeTable t = new InodeTable();
        assertThat(t.forget(InodeTable.ROOT, 5)).isFalse();
        assertThat(t.get(InodeTable.ROOT).path()).isEqualTo("/");
        assertThat(t.forget(12345, 1)).as("an unknown inode").isFalse();
    }

    @Test
    void aRenamedNameKeepsItsInodeUnderTheNewPathAndAnUnlinkedNameLeadsToNoInode() {
        InodeTable t = new InodeTable();
        InodeTable.Node dir = t.lookup(t.root(), "msg01");
        InodeTable.Node temp = t.lookup(dir, ".rec01.x.kZKy3M");
        t.rename(dir.ino(), ".rec01.x.kZKy3M", dir.ino(), "rec01.x");
        assertThat(temp.path()).isEqualTo("/msg01/rec01.x");
        assertThat(t.peek(dir.ino(), ".rec01.x.kZKy3M")).isNull();
        assertThat(t.peek(dir.ino(), "rec01.x")).isEqualTo(temp);
        assertThat(t.find("/msg01/rec01.x")).isEqualTo(temp);
        assertThat(t.find("/")).isEqualTo(t.root());

        t.unlink(dir.ino(), "rec01.x");
        assertThat(t.find("/msg01/rec01.x")).isNull();
        assertThat(t.get(temp.ino())).as("alive until the kernel forgets it").isEqualTo(temp);
        InodeTable.Node again = t.lookup(dir, "rec01.x");
        assertThat(again.ino()).as("a new file of the same name: a new inode").isNotEqualTo(temp.ino());
        assertThat(t.forget(temp.ino(), 1)).isTrue();
        assertThat(t.peek(dir.ino(), "rec01.x")).as("forgetting the old inode keeps the new one's name").isEqualTo(again);
    }

    @Test
    void aRenamedDirectoryCarriesTheInodesBelowIt() {
        InodeTable t = new InodeTable();
        InodeTable.Node d = t.lookup(t.root(), "d");
        InodeTable.Node e = t.lookup(d, "e");
        InodeTable.Node f = t.lookup(e, "f\u00e9\u6f22");
        InodeTable.Node other = t.lookup(t.root(), "other");
        t.rename(InodeTable.ROOT, "d", other.ino(), "moved");
        assertThat(f.path()).isEqualTo("/other/moved/e/f\u00e9\u6f22");
        assertThat(f.parent()).isEqualTo(e);
        assertThat(e.parent().name()).isEqualTo("moved");
        assertThat(t.find("/other/moved/e/f\u00e9\u6f22")).isEqualTo(f);
        assertThat(t.find("/d")).isNull();
        assertThat(t.root().parent()).isNull();
        assertThat(t.root().name()).isEmpty();
    }

    @Test
    void aRenameOverAKnownNameLeavesThatInodeAliveButNameless() {
        InodeTable t = new InodeTable();
        InodeTable.Node a = t.lookup(t.root(), "a");
        InodeTable.Node b = t.lookup(t.root(), "b");
        t.rename(InodeTable.ROOT, "a", InodeTable.ROOT, "b");
        assertThat(t.peek(InodeTable.ROOT, "b")).isEqualTo(a);
        assertThat(t.peek(InodeTable.ROOT, "a")).isNull();
        assertThat(t.get(b.ino())).isEqualTo(b);
        assertThat(b.path()).as("where it was").isEqualTo("/b");
        assertThat(t.forget(b.ino(), 1)).isTrue();
        assertThat(t.peek(InodeTable.ROOT, "b")).as("forgetting the old one keeps the renamed one").isEqualTo(a);
    }

    @Test
    void manyInodesGrowTheArraysPastTheirFirstSizeAndAllAreFoundAgain() {
        InodeTable t = new InodeTable(1, 6, 2, false);
        List<InodeTable.Node> dirs = new ArrayList<>();
        for (int d = 0; d < 100; d++) {
            dirs.add(t.lookup(t.root(), "msg" + d));
        }
        Map<String, Long> given = new HashMap<>();
        for (int d = 0; d < 100; d++) {
            for (int r = 0; r < 50; r++) {
                given.put("/msg" + d + "/rec" + r + ".x", t.lookup(dirs.get(d), "rec" + r + ".x").ino());
            }
        }
        assertThat(t.size()).isEqualTo(1 + 100 + 100 * 50);
        assertThat(new java.util.HashSet<>(given.values())).as("distinct numbers").hasSize(given.size());
        for (int d = 0; d < 100; d += 7) {
            for (int r = 0; r < 50; r += 3) {
                String path = "/msg" + d + "/rec" + r + ".x";
                InodeTable.Node n = t.find(path);
                // the number its lookup gave, found again through every page of the index and of the names
                assertThat(n == null ? null : n.ino()).as(path).isEqualTo(given.get(path));
                assertThat(n.path()).isEqualTo(path);
                assertThat(t.get(n.ino())).isEqualTo(n);
            }
        }
    }

    @Test
    void aNameLongerThanAPageOfNamesIsRefusedAndTakesNoNumber() {
        InodeTable t = new InodeTable(1, 6, 2, false);
        InodeTable.Node a = t.lookup(t.root(), "a".repeat(59));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.lookup(t.root(), "b".repeat(60)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("60 bytes");
        assertThat(t.size()).isEqualTo(2);
        assertThat(t.lookup(t.root(), "c").ino()).isEqualTo(a.ino() + 1);
        assertThat(a.path()).isEqualTo("/" + "a".repeat(59));
    }

    @Test
    void namesThatAllHashAlikeAreStillToldApartThroughLookupsForgetsUnlinksAndRenames() {
        checkAgainstAMap(new InodeTable(2, 6, 4, true), 3_000, 1);
    }

    @Test
    void randomLookupsForgetsUnlinksAndRenamesAgreeWithAPlainMap() {
        checkAgainstAMap(new InodeTable(1, 6, 2, false), 20_000, 2);
        checkAgainstAMap(new InodeTable(), 20_000, 3);
    }

    private record Known(long parent, String name, long lookups, long generation) {}

    private static void forgetBelow(InodeTable t, Map<Long, Known> byIno, Map<String, Long> byName, long dir) {
        for (Map.Entry<Long, Known> e : new ArrayList<>(byIno.entrySet())) {
            Known c = e.getValue();
            if (c.parent() == dir && byIno.containsKey(e.getKey())) {
                assertThat(t.forget(e.getKey(), c.lookups())).isTrue();
                byIno.remove(e.getKey());
                byName.remove(dir + "/" + c.name(), e.getKey());
                forgetBelow(t, byIno, byName, e.getKey());
            }
        }
    }

    /**
     * Random operations on a few directories and names, against a model (maps of records): every answer
     * the same, numbers reused with a higher generation, and no (number, generation) naming two names.
     */
    private static void checkAgainstAMap(InodeTable t, int steps, long seed) {
        Map<Long, Known> byIno = new HashMap<>();
        Map<String, Long> byName = new HashMap<>(); // parent + "/" + name
        Map<Long, Long> lastGeneration = new HashMap<>();
        byIno.put(InodeTable.ROOT, new Known(0, "", 1, 0));
        Random random = new Random(seed);
        List<Long> inos = new ArrayList<>(List.of(InodeTable.ROOT));
        for (int step = 0; step < steps; step++) {
            long dir = inos.get(random.nextInt(Math.min(inos.size(), 8)));
            String name = (random.nextBoolean() ? "n" : "\u00e9l\u00e8ve-") + random.nextInt(400);
            int op = random.nextInt(10);
            if (op < 5) {
                if (!byIno.containsKey(dir)) {
                    continue;
                }
                InodeTable.Node n = t.lookup(t.get(dir), name);
                Long was = byName.get(dir + "/" + name);
                if (was != null) {
                    assertThat(n.ino()).isEqualTo(was);
                    Known k = byIno.get(was);
                    byIno.put(was, new Known(k.parent(), k.name(), k.lookups() + 1, k.generation()));
                } else {
                    assertThat(byIno).doesNotContainKey(n.ino());
                    Long before = lastGeneration.get(n.ino());
                    if (before != null) {
                        assertThat(n.generation()).as("reused number %d", n.ino()).isGreaterThan(before);
                    }
                    lastGeneration.put(n.ino(), n.generation());
                    byIno.put(n.ino(), new Known(dir, name, 1, n.generation()));
                    byName.put(dir + "/" + name, n.ino());
                    inos.add(n.ino());
                }
            } else if (op < 8) {
                long ino = inos.get(random.nextInt(inos.size()));
                Known k = byIno.get(ino);
                long count = 1 + random.nextInt(2);
                boolean freed = t.forget(ino, count);
                if (k == null || ino == InodeTable.ROOT) {
                    assertThat(freed).isFalse();
                } else if (k.lookups() > count) {
                    assertThat(freed).isFalse();
                    byIno.put(ino, new Known(k.parent(), k.name(), k.lookups() - count, k.generation()));
                } else {
                    assertThat(freed).isTrue();
                    byIno.remove(ino);
                    byName.remove(k.parent() + "/" + k.name(), ino);
                    forgetBelow(t, byIno, byName, ino); // the kernel forgets a directory's children first
                }
            } else if (op < 9) {
                t.unlink(dir, name);
                byName.remove(dir + "/" + name);
            } else {
                long to = inos.get(random.nextInt(Math.min(inos.size(), 8)));
                String newName = "r" + random.nextInt(50);
                if (!byIno.containsKey(dir) || !byIno.containsKey(to) || isBelow(byIno, to, byName.get(dir + "/" + name))) {
                    continue;
                }
                t.rename(dir, name, to, newName);
                Long moved = byName.remove(dir + "/" + name);
                byName.remove(to + "/" + newName);
                if (moved != null) {
                    Known k = byIno.get(moved);
                    byIno.put(moved, new Known(to, newName, k.lookups(), k.generation()));
                    byName.put(to + "/" + newName, moved);
                }
            }
            if (step % 97 == 0 || step == steps - 1) {
                assertThat(t.size()).isEqualTo(byIno.size());
                for (Map.Entry<String, Long> e : byName.entrySet()) {
                    int slash = e.getKey().indexOf('/');
                    InodeTable.Node n = t.peek(Long.parseLong(e.getKey().substring(0, slash)), e.getKey().substring(slash + 1));
                    assertThat(n == null ? null : n.ino()).as(e.getKey()).isEqualTo(e.getValue());
                }
                for (Map.Entry<Long, Known> e : byIno.entrySet()) {
                    InodeTable.Node n = t.get(e.getKey());
                    assertThat(n.generation()).isEqualTo(e.getValue().generation());
                    assertThat(n.name()).isEqualTo(e.getValue().name());
                    assertThat(n.path()).isEqualTo(pathIn(byIno, e.getKey()));
                }
            }
        }
    }

    /** Whether {@code ino} is {@code dir} or below it (a directory is never moved into itself). */
    private static boolean isBelow(Map<Long, Known> byIno, long ino, Long dir) {
        if (dir == null) {
            return false;
        }
        for (long n = ino; n != InodeTable.ROOT && n != 0; n = parentIn(byIno, n)) {
            if (n == dir) {
                return true;
            }
        }
        return false;
    }

    private static long parentIn(Map<Long, Known> byIno, long ino) {
        return byIno.get(ino).parent();
    }

    private static String pathIn(Map<Long, Known> byIno, long ino) {
        if (ino == InodeTable.ROOT) {
            return "/";
        }
        StringBuilder sb = new StringBuilder();
        for (long n = ino; n != InodeTable.ROOT; n = parentIn(byIno, n)) {
            sb.insert(0, "/" + byIno.get(n).name());
        }
        return sb.toString();
    }

    /**
     * Issue 26's mount makes the kernel hold a million inodes: the table keeps no object per inode (only
     * primitive arrays, so no header, no boxed key, no map entry), and 100,000 names like a LIME mount's take
     * under 48 bytes each in all (the node, string, key and map entry of before took 105-170).
     */
    @Test
    void anInodeCostsAFewPrimitiveArraySlotsNotObjects() throws Exception {
        for (Field f : InodeTable.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                Class<?> type = f.getType();
                while (type.isArray()) {
                    type = type.getComponentType();
                }
                assertThat(type.isPrimitive())
                        .as("field %s: %s", f.getName(), f.getType().getSimpleName()).isTrue();
            }
        }
        InodeTable t = new InodeTable();
        for (int m = 0; m < 10_000; m++) {
            InodeTable.Node dir = t.lookup(t.root(), String.format("msg%05d", m));
            for (int r = 0; r < 10; r++) {
                t.lookup(dir, "rec" + r + (r % 2 == 0 ? ".xml" : ".data"));
            }
        }
        assertThat(t.size()).isEqualTo(110_001);
        assertThat(t.footprintBytes() / t.size()).as("bytes per inode").isLessThan(48);
    }
}
