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
    void numbersAreZeroPaddedToTheWidthAndGrowPastIt() {
        assertThat(Names.indexed("msg", 5, 2)).isEqualTo("msg05");
        assertThat(Names.indexed("msg", 100, 2)).isEqualTo("msg100");
        assertThat(Names.indexed("", 0, 4)).isEqualTo("0000");
        assertThat(Names.indexed("rec", 0, 0)).isEqualTo("rec0");
        assertThat(Names.indexed("task", 123_456_789_012L, 6)).isEqualTo("task123456789012");
        assertThat(Names.indexed("x", Long.MAX_VALUE, 2)).isEqualTo("x" + Long.MAX_VALUE);
        for (long v = 0; v < 100_000; v += 7) {
            String digits = Long.toString(v);
            assertThat(Names.indexed("rec", v, 3)).isEqualTo("rec" + "0".repeat(Math.max(0, 3 - digits.length())) + digits);
        }
    }

    @Test
    void aSuffixFollowsTheDigitsAtEveryWidthUpToAndPastTheLongestNumber() {
        assertThat(Names.indexed("rec", 3, 2, ".ildg-format")).isEqualTo("rec03.ildg-format");
        assertThat(Names.indexed("", 12, 2, ".Scan")).isEqualTo("12.Scan");
        for (int width = 0; width <= 21; width++) {
            for (long v : new long[] {0, 9, 10, 99, 100, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE}) {
                String digits = Long.toString(v);
                assertThat(Names.indexed("p", v, width, ".s")).as("width %d, %d", width, v)
                        .isEqualTo("p" + "0".repeat(Math.max(0, width - digits.length())) + digits + ".s");
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
