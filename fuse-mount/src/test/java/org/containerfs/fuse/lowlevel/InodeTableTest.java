package org.containerfs.fuse.lowlevel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InodeTableTest {
    @Test
    void aNameKeepsItsInodeUntilEveryLookupIsForgotten() {
        InodeTable t = new InodeTable();
        InodeTable.Node dir = t.lookup(t.root(), "msg01");
        InodeTable.Node file = t.lookup(dir, "rec01");
        assertThat(t.lookup(dir, "rec01")).isSameAs(file);
        assertThat(file.path()).isEqualTo("/msg01/rec01");
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.forget(file.ino(), 1)).isFalse();
        assertThat(t.get(file.ino())).isSameAs(file);
        assertThat(t.forget(file.ino(), 1)).isTrue();
        assertThat(t.get(file.ino())).isNull();
        assertThat(t.peek(dir.ino(), "rec01")).isNull();
        assertThat(t.size()).isEqualTo(2);
    }

    @Test
    void aFreedNumberServesAnotherNameWithAHigherGeneration() {
        InodeTable t = new InodeTable();
        InodeTable.Node a = t.lookup(t.root(), "a");
        t.forget(a.ino(), 1);
        InodeTable.Node b = t.lookup(t.root(), "b");
        assertThat(b.ino()).isEqualTo(a.ino());
        assertThat(b.generation()).isGreaterThan(a.generation());
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
        assertThat(t.peek(dir.ino(), "rec01.x")).isSameAs(temp);
        assertThat(t.find("/msg01/rec01.x")).isSameAs(temp);
        assertThat(t.find("/")).isSameAs(t.root());

        t.unlink(dir.ino(), "rec01.x");
        assertThat(t.find("/msg01/rec01.x")).isNull();
        assertThat(t.get(temp.ino())).as("alive until the kernel forgets it").isSameAs(temp);
        InodeTable.Node again = t.lookup(dir, "rec01.x");
        assertThat(again.ino()).as("a new file of the same name: a new inode").isNotEqualTo(temp.ino());
        assertThat(t.forget(temp.ino(), 1)).isTrue();
        assertThat(t.peek(dir.ino(), "rec01.x")).as("forgetting the old inode keeps the new one's name").isSameAs(again);
    }
}
