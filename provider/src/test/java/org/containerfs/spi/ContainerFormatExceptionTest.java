package org.containerfs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The one shape of every format error message: file, byte offset, optional context, expected, found. */
class ContainerFormatExceptionTest {
    @Test
    void messageNamesFileOffsetContextExpectedAndFound() {
        ContainerFormatException e = new ContainerFormatException("t.gsd", 8, "file header",
                "an index inside the file of 3000 bytes", "128 slots at byte 256, which end at byte 4352");
        assertThat(e).hasMessage("t.gsd at byte 8: file header: expected an index inside the file of 3000 bytes, "
                + "found 128 slots at byte 256, which end at byte 4352");
        assertThat(e.file()).isEqualTo("t.gsd");
        assertThat(e.offset()).isEqualTo(8);
        assertThat(e.context()).isEqualTo("file header");
        assertThat(e.expected()).isEqualTo("an index inside the file of 3000 bytes");
        assertThat(e.found()).isEqualTo("128 slots at byte 256, which end at byte 4352");
        assertThat(e.getCause()).isNull();
    }

    @Test
    void withoutContextTheMessageGoesStraightToExpected() {
        assertThat(new ContainerFormatException("a.sion", 0, null, "the magic \"sion\"", "73 69 6f 6f"))
                .hasMessage("a.sion at byte 0: expected the magic \"sion\", found 73 69 6f 6f")
                .satisfies(e -> assertThat(((ContainerFormatException) e).context()).isNull());
        assertThat(new ContainerFormatException("a.sion", 0, " ", "x", "y")).hasMessage("a.sion at byte 0: expected x, found y");
    }

    @Test
    void everySubclassKeepsTheShapeAndTheCause() {
        Throwable cause = new IOException("inner");
        ContainerFormatException withCause = new ContainerFormatException("f", 3, "c", "e", "g", cause);
        assertThat(withCause).hasMessage("f at byte 3: c: expected e, found g").hasCause(cause);
        assertThat(new TruncatedDataException("c.lime", 3040, "record 2", "4608 bytes of record data",
                "the file ends at byte 3040"))
                .hasMessage("c.lime at byte 3040: record 2: expected 4608 bytes of record data, found the file ends at byte 3040");
        assertThat(new ChecksumMismatchException("x.g3", 0, "frame 0", "the stored CRC-32C 0x1234abcd",
                "the computed 0x5678ef01"))
                .hasMessage("x.g3 at byte 0: frame 0: expected the stored CRC-32C 0x1234abcd, found the computed 0x5678ef01");
        assertThat(new UnsupportedVersionException("x.lime", 148, null, "LIME version 1", "2"))
                .hasMessage("x.lime at byte 148: expected LIME version 1, found 2");
        assertThat(ContainerFormatException.message("f", 1, null, "e", "g")).isEqualTo("f at byte 1: expected e, found g");
    }

    @Test
    void expectedAndFoundAreRequired() {
        assertThatThrownBy(() -> new ContainerFormatException("f", 0, null, null, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ContainerFormatException("f", 0, null, "x", "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TruncatedDataException("f", 0, "c", " ", "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
