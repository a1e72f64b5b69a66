package org.containerfs.lime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.spi.ContainerFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Appending through the provider: byte-identical to c-lime, and the append rules of issue 2. */
class LimeWriteTest {
    @TempDir
    Path tmp;

    private static final Map<String, Object> READ_WRITE = Map.of("accessMode", "readWrite");

    record Rec(String message, String name, byte[] payload) {}

    /** Messages and records of a container, as read through the provider. */
    static List<Rec> records(Path container) throws IOException {
        List<Rec> out = new ArrayList<>();
        try (FileSystem fs = FileSystems.newFileSystem(container);
                Stream<Path> messages = Files.list(fs.getPath("/"))) {
            for (Path m : (Iterable<Path>) messages::iterator) {
                try (Stream<Path> recs = Files.list(m)) {
                    for (Path r : (Iterable<Path>) recs::iterator) {
                        out.add(new Rec(m.getFileName().toString(), r.getFileName().toString(), Files.readAllBytes(r)));
                    }
                }
            }
        }
        return out;
    }

    /** Writes {@code recs} into a new container the way a user would: mkdir per message, one file per record. */
    static void write(Path target, List<Rec> recs) throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(target, "lime")) {
            String current = null;
            for (Rec r : recs) {
                if (!r.message().equals(current)) {
                    Files.createDirectory(fs.getPath("/" + r.message()));
                    current = r.message();
                }
                Files.write(fs.getPath("/" + r.message(), r.name()), r.payload(), StandardOpenOption.CREATE_NEW);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"s01_single_record.lime", "s02_lime_writer_test1.lime", "s03_multi_msg_pack.lime",
            "s04_padding_len_0_to_17.lime", "s05_zero_length_only.lime", "s06_zero_length_mid.lime",
            "s07_type_127_chars.lime", "s08_ildg_scidac_gauge.lime", "s09_appended_new_message.lime",
            "s13_large_record.lime", "s14_ascii_vs_binary.lime", "s15_duplicate_types.lime",
            "s18_padding_one_msg_each.lime", "cl2qcd_conf.tmlqcd"})
    void writtenFilesAreByteIdenticalToCLime(String golden) throws IOException {
        Path original = LimeCorpusTest.corpus().resolve(golden);
        Path rebuilt = tmp.resolve("rebuilt.lime");
        write(rebuilt, records(original));
        assertThat(Files.readAllBytes(rebuilt)).isEqualTo(Files.readAllBytes(original));
    }

    @Test
    void appendingToAnExistingFileContinuesItsLastMessageOrStartsANewOne() throws IOException {
        Path file = tmp.resolve("s02.lime");
        Files.copy(LimeCorpusTest.corpus().resolve("s02_lime_writer_test1.lime"), file);
        try (FileSystem fs = FileSystems.newFileSystem(file, READ_WRITE)) {
            Files.write(fs.getPath("/msg03/rec02.extra"), new byte[] {1, 2, 3});
            Files.createDirectory(fs.getPath("/msg04"));
            Files.writeString(fs.getPath("/msg04/rec01.text"), "hello");
            assertThat(Files.readAllBytes(fs.getPath("/msg03/rec02.extra"))).containsExactly(1, 2, 3);
            assertThat(Files.getAttribute(fs.getPath("/msg03/rec01.lime-test-text3"), "lime:me")).isEqualTo(false);
        }
        try (FileSystem fs = FileSystems.newFileSystem(file)) {
            Map<String, Object> a = Files.readAttributes(fs.getPath("/msg03/rec02.extra"), "lime:mb,me");
            assertThat(a).containsEntry("mb", false).containsEntry("me", true);
            assertThat(Files.readAttributes(fs.getPath("/msg04/rec01.text"), "lime:mb,me"))
                    .containsEntry("mb", true).containsEntry("me", true);
            assertThat(Files.readString(fs.getPath("/msg04/rec01.text"))).isEqualTo("hello");
            assertThat(Files.getAttribute(fs.getPath("/"), "lime:records")).isEqualTo(7);
        }
    }

    @Test
    void aRecordStreamsInPiecesAndIsInvisibleUntilClosed() throws IOException {
        Path file = tmp.resolve("stream.lime");
        try (FileSystem fs = ContainerFileSystems.create(file, "lime")) {
            Files.createDirectory(fs.getPath("/msg01"));
            Path rec = fs.getPath("/msg01/rec01.ildg-binary-data");
            try (OutputStream out = Files.newOutputStream(rec, StandardOpenOption.CREATE_NEW)) {
                for (int i = 0; i < 100; i++) {
                    out.write(new byte[1000]);
                    out.write(i);
                }
                assertThat(Files.exists(rec)).isFalse();
                assertThat(Files.size(file)).isGreaterThan(100_000); // streamed to the container, not buffered
            }
            assertThat(Files.size(rec)).isEqualTo(100_100);
        }
        assertThat(Files.size(file)).isEqualTo(144 + 100_104);
    }

    @Test
    void aTornAppendIsIgnoredOnReadAndRemovedByTheNextAppend() throws IOException {
        Path file = tmp.resolve("torn.lime");
        Files.copy(LimeCorpusTest.corpus().resolve("s01_single_record.lime"), file);
        long committed = Files.size(file);
        // What a writer killed before its header leaves: 144 reserved zero bytes, then some payload.
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.allocate(144));
            ch.write(ByteBuffer.wrap("partial payload".getBytes()));
        }
        try (FileSystem fs = FileSystems.newFileSystem(file)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "lime:records")).isEqualTo(1);
            // no committed byte is lost: a notice, not damage (issue 18.2/18.5)
            assertThat((String) Files.getAttribute(fs.getPath("/"), "lime:uncommittedTail")).contains("uncommitted append")
                    .contains("at byte ");
            assertThat(Files.getAttribute(fs.getPath("/"), "lime:damage")).isEqualTo("");
        }
        try (FileSystem fs = FileSystems.newFileSystem(file, READ_WRITE)) {
            Files.createDirectory(fs.getPath("/msg02"));
            Files.writeString(fs.getPath("/msg02/rec01.after"), "x");
        }
        assertThat(Files.size(file)).isEqualTo(committed + 144 + 8);
        assertThat(records(file)).extracting(Rec::name).containsExactly("rec01.lime-test-text", "rec01.after");
    }

    @Test
    void aPartialHeaderTailIsRemovedByTheNextAppend() throws IOException {
        Path file = tmp.resolve("s11.lime");
        Files.copy(LimeCorpusTest.corpus().resolve("s11_truncated_in_header.lime"), file);
        try (FileSystem fs = FileSystems.newFileSystem(file, READ_WRITE)) {
            Files.write(fs.getPath("/msg01/rec02.more"), new byte[] {7});
        }
        assertThat(Files.size(file)).isEqualTo(192 + 144 + 8);
        assertThat(records(file)).hasSize(2);
    }

    @Test
    void appendingAfterGarbageOrATruncatedPayloadIsRefusedAndChangesNothing() throws IOException {
        Path truncated = tmp.resolve("s10.lime");
        Files.copy(LimeCorpusTest.corpus().resolve("s10_truncated_in_payload.lime"), truncated);
        byte[] before = Files.readAllBytes(truncated);
        try (FileSystem fs = FileSystems.newFileSystem(truncated, READ_WRITE)) {
            assertThatThrownBy(() -> Files.write(fs.getPath("/msg01/rec03.x"), new byte[1]))
                    .isInstanceOf(ContainerFormatException.class)
                    .hasMessageContaining("truncated payload")
                    .hasMessageContaining("refusing to append");
        }
        assertThat(Files.readAllBytes(truncated)).isEqualTo(before);

        Path junk = tmp.resolve("junk.lime");
        Files.copy(LimeCorpusTest.corpus().resolve("s01_single_record.lime"), junk);
        Files.write(junk, "not a LIME header; longer than one header. ".repeat(5).getBytes(), StandardOpenOption.APPEND);
        try (FileSystem fs = FileSystems.newFileSystem(junk)) {
            assertThat((String) Files.getAttribute(fs.getPath("/"), "lime:damage")).contains("wrong magic number");
        }
        assertThatThrownBy(() -> FileSystems.newFileSystem(junk, Map.of("strict", true)))
                .isInstanceOf(ContainerFormatException.class).hasMessageContaining("at byte 160");
        try (FileSystem fs = FileSystems.newFileSystem(junk, READ_WRITE)) {
            assertThatThrownBy(() -> Files.write(fs.getPath("/msg01/rec02.x"), new byte[1]))
                    .isInstanceOf(ContainerFormatException.class).hasMessageContaining("wrong magic number");
        }
    }

    @Test
    void aCutPaddingIsCompletedBeforeTheNextRecord() throws IOException {
        Path file = tmp.resolve("s16.lime");
        Files.copy(LimeCorpusTest.corpus().resolve("s16_truncated_in_padding.lime"), file);
        try (FileSystem fs = FileSystems.newFileSystem(file, READ_WRITE)) {
            Files.write(fs.getPath("/msg01/rec02.next"), new byte[] {1});
        }
        assertThat(Files.size(file) % 8).isZero();
        assertThat(records(file)).extracting(r -> r.payload().length).containsExactly(5, 1);
    }

    @Test
    void typesAreValidatedAndNamesMustBeTheNextCanonicalOnes() throws IOException {
        Path file = tmp.resolve("names.lime");
        try (FileSystem fs = ContainerFileSystems.create(file, "lime")) {
            assertThatThrownBy(() -> Files.write(fs.getPath("/msg01/rec01.x"), new byte[1]))
                    .isInstanceOf(java.nio.file.NoSuchFileException.class);
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/msg02")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("msg01");
            Files.createDirectory(fs.getPath("/msg01"));
            assertThatThrownBy(() -> Files.createDirectory(fs.getPath("/msg02")))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("no record yet");
            assertThatThrownBy(() -> Files.write(fs.getPath("/msg01/rec02.x"), new byte[1]))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("rec01");
            assertThatThrownBy(() -> Files.write(fs.getPath("/msg01/rec01." + "t".repeat(128)), new byte[1]))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("127");
            assertThatThrownBy(() -> Files.write(fs.getPath("/msg01/rec01.a%00b"), new byte[1]))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("NUL");
            assertThatThrownBy(() -> Files.write(fs.getPath("/msg01/rec01.%41"), new byte[1]))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("rec01.A");
            // Every byte but NUL is a legal type byte: '/' and control bytes travel through the codec.
            Files.write(fs.getPath("/msg01/rec01.a%2Fb%09c"), new byte[] {1});
            Files.write(fs.getPath("/msg01/rec02." + "t".repeat(127)), new byte[0]);
            Files.write(fs.getPath("/msg01/rec03"), new byte[] {2});
        }
        try (FileSystem fs = FileSystems.newFileSystem(file)) {
            assertThat((byte[]) Files.getAttribute(fs.getPath("/msg01/rec01.a%2Fb%09c"), "lime:type"))
                    .isEqualTo("a/b\tc".getBytes());
            assertThat(Files.size(fs.getPath("/msg01/rec02." + "t".repeat(127)))).isZero();
            assertThat(Files.readAllBytes(fs.getPath("/msg01/rec03"))).containsExactly(2);
        }
    }

    @Test
    void oneRecordIsWrittenAtATime() throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(tmp.resolve("one.lime"), "lime")) {
            Files.createDirectory(fs.getPath("/msg01"));
            try (SeekableByteChannel first = Files.newByteChannel(fs.getPath("/msg01/rec01.a"),
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                first.write(ByteBuffer.wrap(new byte[] {1}));
                assertThatThrownBy(() -> Files.write(fs.getPath("/msg01/rec02.b"), new byte[1]))
                        .hasMessageContaining("still being written");
            }
        }
    }

    @Test
    void containersOnJimfsAreWrittenAndReadLikeLocalOnes() throws IOException {
        try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
            Path file = mem.getPath("/data/conf.lime");
            Files.createDirectories(file.getParent());
            List<Rec> recs = records(LimeCorpusTest.corpus().resolve("s08_ildg_scidac_gauge.lime"));
            write(file, recs);
            assertThat(Files.readAllBytes(file))
                    .isEqualTo(Files.readAllBytes(LimeCorpusTest.corpus().resolve("s08_ildg_scidac_gauge.lime")));
            assertThat(records(file)).usingRecursiveFieldByFieldElementComparator().isEqualTo(recs);
        }
    }
}
