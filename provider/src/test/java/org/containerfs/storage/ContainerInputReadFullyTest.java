package org.containerfs.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** {@link ContainerInput#readFully}: what storage modules fill read buffers with from a response's stream. */
class ContainerInputReadFullyTest {
    private static final byte[] BYTES = new byte[200_000];

    static {
        for (int i = 0; i < BYTES.length; i++) {
            BYTES[i] = (byte) (i * 31 + 7);
        }
    }

    private static InputStream trickle() {
        return ShortReads.of(BYTES, 3);
    }

    @Test
    void aHeapBufferAtAnOffsetIsFilledInPlaceFromShortReads() throws IOException {
        ByteBuffer backing = ByteBuffer.allocate(150_010);
        ByteBuffer dst = backing.position(5).slice(); // arrayOffset 5
        dst.position(3);

        int got = ContainerInput.readFully(trickle(), dst, 150_000);

        assertThat(got).isEqualTo(150_000);
        assertThat(dst.position()).isEqualTo(150_003);
        byte[] read = new byte[150_000];
        backing.get(8, read);
        assertThat(read).isEqualTo(java.util.Arrays.copyOf(BYTES, 150_000));
    }

    @Test
    void aDirectBufferIsFilledAcrossChunksAndAShortStreamGivesWhatItHas() throws IOException {
        ByteBuffer dst = ByteBuffer.allocateDirect(300_000);

        int got = ContainerInput.readFully(trickle(), dst, 250_000);

        assertThat(got).isEqualTo(BYTES.length);
        assertThat(dst.position()).isEqualTo(BYTES.length);
        byte[] read = new byte[BYTES.length];
        dst.flip().get(read);
        assertThat(read).isEqualTo(BYTES);
    }
}
