package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.containerfs.storage.ShortReads;
import org.junit.jupiter.api.Test;

/** {@link FieldReader}: DataOutputStream's fields read back across its buffer's refills, with their CRC-32C. */
class FieldReaderTest {
    private static final int FIELDS = 40_000; // about 600 KB: the 64 KiB buffer refills a few times, mid-field too

    /** The bytes of a run of every kind of field, a byte array larger than the buffer among them. */
    private static byte[] fields() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            Random random = new Random(3);
            for (int i = 0; i < FIELDS; i++) {
                out.writeLong(i * 0x0101_0101_0101L);
                out.writeInt(-i);
                out.writeByte(i);
                out.writeBoolean(i % 3 == 0);
            }
            byte[] big = new byte[100_000];
            random.nextBytes(big);
            out.write(big);
            out.writeUTF("Az \u00b5K");
            out.writeShort(-2);
        }
        return bytes.toByteArray();
    }

    private static void readBack(FieldReader in) throws IOException {
        for (int i = 0; i < FIELDS; i++) {
            assertThat(in.readLong()).isEqualTo(i * 0x0101_0101_0101L);
            assertThat(in.readInt()).isEqualTo(-i);
            assertThat(in.readByte()).isEqualTo((byte) i);
            assertThat(in.readBoolean()).isEqualTo(i % 3 == 0);
        }
        byte[] big = new byte[100_000];
        in.readFully(big);
        byte[] expected = new byte[100_000];
        new Random(3).nextBytes(expected);
        assertThat(big).isEqualTo(expected);
        assertThat(in.readUTF()).isEqualTo("Az \u00b5K");
        assertThat(in.readShort()).isEqualTo((short) -2);
    }

    /** At most 1000 bytes a call, so that fields straddle refills. */
    private static InputStream trickle(byte[] bytes) {
        return ShortReads.of(bytes, 1000);
    }

    @Test
    void aStreamReadsBackEveryFieldAndSumsExactlyTheBytesRead() throws IOException {
        byte[] bytes = fields();
        FieldReader in = FieldReader.summing(trickle(bytes));

        readBack(in);
        int first = in.checksum();
        assertThat(in.atEnd()).isTrue();

        CRC32C expected = new CRC32C();
        expected.update(bytes);
        assertThat(first).isEqualTo((int) expected.getValue());
    }

    @Test
    void theChecksumCoversWhatWasReadNotWhatIsBuffered() throws IOException {
        byte[] bytes = fields();
        FieldReader in = FieldReader.summing(new ByteArrayInputStream(bytes));
        in.readLong();
        in.readInt();

        CRC32C expected = new CRC32C();
        expected.update(bytes, 0, 12);
        assertThat(in.checksum()).isEqualTo((int) expected.getValue());
        assertThat(in.atEnd()).isFalse();
    }

    @Test
    void aSnapshotIsReadInPlaceHeapOrDirect() throws IOException {
        byte[] bytes = fields();
        readBack(FieldReader.of(ByteBuffer.wrap(bytes)));
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 5).position(5);
        direct.put(bytes).position(5);
        FieldReader in = FieldReader.of(direct);
        readBack(in);
        assertThat(in.atEnd()).isTrue();
    }

    @Test
    void anIndexThatEndsInsideAFieldIsAnEofException() throws IOException {
        byte[] bytes = Arrays.copyOf(fields(), 12 + 6); // a long, an int, then 6 bytes of the next long
        FieldReader stream = FieldReader.summing(trickle(bytes));
        stream.readLong();
        stream.readInt();
        assertThatThrownBy(stream::readLong).isInstanceOf(EOFException.class);

        FieldReader snapshot = FieldReader.of(ByteBuffer.wrap(bytes, 0, 14));
        snapshot.readLong();
        assertThatThrownBy(() -> snapshot.readFully(new byte[8])).isInstanceOf(EOFException.class);
    }
}
