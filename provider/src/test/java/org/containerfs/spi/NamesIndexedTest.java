package org.containerfs.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamesIndexedTest {

    @Test
    void everyPrintedNameParsesBackToItsNumber() {
        for (int width = 0; width <= 3; width++) {
            for (long v = 0; v <= 12_000; v++) {
                assertThat(Names.parseIndexed(Names.indexed("rec", v, width), "rec", width)).isEqualTo(v);
            }
        }
    }

    @Test
    void onlyTheCanonicalSpellingOfANumberIsAName() {
        assertThat(Names.parseIndexed("msg5", "msg", 2)).isEqualTo(-1);
        assertThat(Names.parseIndexed("msg005", "msg", 2)).isEqualTo(-1);
        assertThat(Names.parseIndexed("msg0100", "msg", 2)).isEqualTo(-1);
        assertThat(Names.parseIndexed("msg00", "msg", 2)).isEqualTo(0);
        assertThat(Names.parseIndexed("msg05", "msg", 2)).isEqualTo(5);
        assertThat(Names.parseIndexed("msg100", "msg", 2)).isEqualTo(100);
        assertThat(Names.parseIndexed("rec0", "rec", 0)).isEqualTo(0);
        assertThat(Names.parseIndexed("rec00", "rec", 0)).isEqualTo(-1);
        assertThat(Names.parseIndexed("rec07", "rec", 1)).isEqualTo(-1);
        assertThat(Names.parseIndexed("rec1x", "rec", 2)).isEqualTo(-1);
        assertThat(Names.parseIndexed("msg", "msg", 0)).isEqualTo(-1);
    }
}
