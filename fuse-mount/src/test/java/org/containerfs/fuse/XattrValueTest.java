package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bytes getxattr returns for each kind of attribute value. */
class XattrValueTest {

    private static String text(Object v) {
        return new String(NioFuseOperations.valueBytes(v), StandardCharsets.UTF_8);
    }

    @Test
    void bytesAreRawAndBuffersFromTheirPosition() {
        assertThat(NioFuseOperations.valueBytes(new byte[] {0, (byte) 0xff})).containsExactly(0, 0xff);
        ByteBuffer b = ByteBuffer.wrap(new byte[] {1, 2, 3});
        b.get();
        assertThat(NioFuseOperations.valueBytes(b)).containsExactly(2, 3);
        assertThat(b.position()).isEqualTo(1);
    }

    @Test
    void primitiveArraysShowTheirElementsNotTheirIdentity() {
        // SION's chunkOffsets/chunkSizes are long[]: getfattr showed "[J@1b6d3586" before
        assertThat(text(new long[] {1536, 3072})).isEqualTo("[1536, 3072]");
        assertThat(text(new int[] {7})).isEqualTo("[7]");
        assertThat(text(new double[] {0.5})).isEqualTo("[0.5]");
        assertThat(text(new boolean[0])).isEqualTo("[]");
        assertThat(text(new String[] {"a", "b"})).isEqualTo("[a, b]");
    }

    @Test
    void otherValuesAreTheirText() {
        assertThat(text(42L)).isEqualTo("42");
        assertThat(text(true)).isEqualTo("true");
        assertThat(text("big")).isEqualTo("big");
        assertThat(text(List.of(1, 2))).isEqualTo("[1, 2]");
    }
}
