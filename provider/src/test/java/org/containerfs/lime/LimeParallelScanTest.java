package org.containerfs.lime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.containerfs.spi.ContainerChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first scan of a large file walks its second half on another thread and joins the two walks (the
 * size threshold is lowered to 0 here, so files of a few MiB take that path). Whatever the file holds
 * (payload bytes that look like headers, damage in either half, a cut payload, a torn append, types first
 * seen after the middle) the index must be byte for byte the one a single walk builds, with the same
 * damage, or the same exception.
 */
class LimeParallelScanTest {
    private static final int RECORDS = 40_000; // 160 bytes each: 6.4 MB, the middle well past the first MiB walked alone

    @TempDir
    Path tmp;

    /** Writes records of 16-byte payloads, messages of 10; {@code change} may rewrite any record's bytes. */
    private Path write(String name, int records, RecordBytes change) throws IOException {
        Path file = tmp.resolve(name);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer block = ByteBuffer.allocate(160 * 1024);
            for (int i = 0; i < records; i++) {
                // a third type appears only in the second half: type numbers must still follow first use
                String type = i > records * 3 / 4 && i % 7 == 0 ? "late-type" : i % 2 == 0 ? "scidac-record-xml" : "ildg-binary-data";
                ByteBuffer record = ByteBuffer.allocate(160);
                record.put(LimeHeader.encode(i % 10 == 0, i % 10 == 9 || i == records - 1, 16, type.getBytes(StandardCharsets.US_ASCII)));
                record.putLong(i).putLong(~i);
                change.apply(i, record.array());
                if (block.remaining() < 160) {
                    ch.write(block.flip());
                    block.clear();
                }
                block.put(record.array());
            }
            ch.write(block.flip());
        }
        return file;
    }

    interface RecordBytes {
        void apply(int record, byte[] bytes);
    }

    private static final RecordBytes AS_WRITTEN = (i, b) -> { };

    private static LimeIndex scan(Path file, long parallelFrom, boolean strict) throws IOException {
        LimeIndex index = new LimeIndex(file.toString(), parallelFrom);
        try (ContainerChannel channel = ContainerChannel.open(file, Set.of(StandardOpenOption.READ))) {
            index.scan(channel, strict);
        }
        return index;
    }

    /** Scans alone and in two; asserts equal indexes; returns the two-walk one. */
    private static LimeIndex sameAsOneWalk(Path file) throws IOException {
        LimeIndex alone = scan(file, Long.MAX_VALUE, false);
        LimeIndex split = scan(file, 0, false);
        assertThat(alone.joinedAt()).isEqualTo(-1);
        assertThat(split.exportSnapshot()).isEqualTo(alone.exportSnapshot());
        assertThat(split.records()).isEqualTo(alone.records());
        assertThat(split.messages()).isEqualTo(alone.messages());
        for (int m = 0; m < alone.messages(); m++) {
            assertThat(split.messageFirst(m)).isEqualTo(alone.messageFirst(m));
        }
        for (int r = 0; r < alone.records(); r++) {
            assertThat(split.headerOffset(r)).isEqualTo(alone.headerOffset(r));
        }
        assertThat(split.nextHeader()).isEqualTo(alone.nextHeader());
        assertThat(split.damage()).isEqualTo(alone.damage());
        assertThat(split.tailBytes()).isEqualTo(alone.tailBytes());
        assertThat(split.tailIsUncommitted()).isEqualTo(alone.tailIsUncommitted());
        return split;
    }

    @Test
    void aSoundFileIsWalkedInTwoAndJoinedAtTheFirstHeaderPastTheMiddle() throws IOException {
        Path file = write("sound.lime", RECORDS, AS_WRITTEN);
        LimeIndex split = sameAsOneWalk(file);
        long middle = (Files.size(file) / 2) & ~7L;
        assertThat(split.joinedAt()).isBetween(middle, middle + 160);
        assertThat(split.typeCount()).isEqualTo(3);
        assertThat(split.damage()).isNull();
    }

    /**
     * A file whose middle falls 64 bytes into the header of record {@code RECORDS / 2} (128 zero bytes of a
     * torn append after the records move it there), so the other walk's search meets that record's payload
     * before the next true header; {@code decoys} writes those payloads.
     */
    private Path withPayloadsAfterTheMiddle(String name, RecordBytes decoys) throws IOException {
        Path file = write(name, RECORDS, decoys);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.allocate(128));
        }
        assertThat((Files.size(file) / 2) % 160).isEqualTo(64);
        return file;
    }

    /** A payload of 16 bytes that reads as a header's start: magic, version 1, flags, and a length. */
    private static void fakeHeader(byte[] record, long length) {
        ByteBuffer.wrap(record, 144, 16).putInt(LimeHeader.MAGIC).putShort((short) 1).putShort((short) 0).putLong(length);
    }

    @Test
    void aChainOfHeaderLookingPayloadsFromTheMiddleOnIsNeverTakenForRecords() throws IOException {
        int first = RECORDS / 2;
        // each fake's length (16) leads to the next record's payload, the next fake: a false chain of 40
        Path file = withPayloadsAfterTheMiddle("decoys.lime", (i, b) -> {
            if (i >= first && i < first + 40) {
                fakeHeader(b, 16);
            }
        });
        LimeIndex split = sameAsOneWalk(file);
        assertThat(split.joinedAt()).as("the other walk took the false chain, so this one walked alone").isEqualTo(-1);
        assertThat(split.records()).isEqualTo(RECORDS);
    }

    @Test
    void aHeaderLookingPayloadThatLeadsIntoTheTrueChainIsJoinedWhereTheyMeet() throws IOException {
        int first = RECORDS / 2;
        // the fake's length (32) ends where record first + 2 starts: the chains meet there
        Path file = withPayloadsAfterTheMiddle("converging.lime", (i, b) -> {
            if (i == first) {
                fakeHeader(b, 32);
            }
        });
        LimeIndex split = sameAsOneWalk(file);
        assertThat(split.joinedAt()).isEqualTo(160L * (first + 2));
        assertThat(split.records()).isEqualTo(RECORDS);
    }

    @Test
    void damageInTheSecondHalfIsFoundAsOneWalkFindsIt() throws IOException {
        Path file = write("damaged-late.lime", RECORDS, (i, b) -> {
            if (i == RECORDS * 3 / 4) {
                b[0] = 0x12; // wrong magic
            }
        });
        LimeIndex split = sameAsOneWalk(file);
        assertThat(split.damage()).contains("wrong magic");
        assertThat(split.joinedAt()).isPositive();
        sameException(file);
    }

    @Test
    void damageInTheFirstHalfEndsTheFileThereAsOneWalkEndsIt() throws IOException {
        Path file = write("damaged-early.lime", RECORDS, (i, b) -> {
            if (i == RECORDS / 3) {
                b[1] = 0x12;
            }
        });
        LimeIndex split = sameAsOneWalk(file);
        assertThat(split.damage()).contains("wrong magic");
        assertThat(split.joinedAt()).isEqualTo(-1);
        sameException(file);
    }

    @Test
    void anUnsupportedVersionInTheSecondHalfThrowsAsOneWalkThrows() throws IOException {
        Path file = write("version.lime", RECORDS, (i, b) -> {
            if (i == RECORDS * 2 / 3) {
                b[5] = 2;
            }
        });
        IOException alone = thrown(file, Long.MAX_VALUE, false);
        IOException split = thrown(file, 0, false);
        assertThat(alone).isInstanceOf(org.containerfs.spi.UnsupportedVersionException.class);
        assertThat(split).hasSameClassAs(alone).hasMessage(alone.getMessage());
    }

    @Test
    void aCutLastPayloadAndATornAppendAreReportedAsOneWalkReportsThem() throws IOException {
        Path cut = write("cut.lime", RECORDS, AS_WRITTEN);
        try (FileChannel ch = FileChannel.open(cut, StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(cut) - 9);
        }
        assertThat(sameAsOneWalk(cut).damage()).contains("truncated payload");

        Path torn = write("torn.lime", RECORDS, AS_WRITTEN);
        try (FileChannel ch = FileChannel.open(torn, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.allocate(500)); // zeros where a writer stopped before its header
        }
        LimeIndex split = sameAsOneWalk(torn);
        assertThat(split.tailIsUncommitted()).isTrue();
        assertThat(split.joinedAt()).isPositive();
    }

    @Test
    void aFileOfLargeRecordsIsWalkedAlone() throws IOException {
        Path file = tmp.resolve("large.lime");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < 40; i++) {
                ch.write(LimeHeader.encode(true, true, 200_000, "ildg-binary-data".getBytes(StandardCharsets.US_ASCII)));
                ch.write(ByteBuffer.allocate(200_000));
            }
        }
        assertThat(sameAsOneWalk(file).joinedAt()).isEqualTo(-1);
    }

    private static void sameException(Path file) throws IOException {
        IOException alone = thrown(file, Long.MAX_VALUE, true);
        IOException split = thrown(file, 0, true);
        // a strict open refuses the wrong magic number, and the split walk must refuse it with the same words
        assertThat(alone).isInstanceOf(org.containerfs.spi.ContainerFormatException.class).hasMessageContaining("magic");
        assertThat(split).hasSameClassAs(alone).hasMessage(alone.getMessage());
    }

    private static IOException thrown(Path file, long parallelFrom, boolean strict) {
        try {
            scan(file, parallelFrom, strict);
            return null;
        } catch (IOException e) {
            return e;
        }
    }
}
