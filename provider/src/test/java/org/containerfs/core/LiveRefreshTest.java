package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.spi.ByteRangeContent;
import org.containerfs.spi.Container;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormat;
import org.containerfs.spi.ContainerSource;
import org.containerfs.spi.Content;
import org.containerfs.spi.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live growth seen by a read-only file system, with a minimal format of this test's own (so the
 * core's side is tested without any real format's quirks): the file is "TAIL" and then records of
 * a 4-byte big-endian length and the bytes; a writer reserves the length as -1 and fills it in last,
 * in place, as LIME's writer does with its header. Such a commit does not change the file's size.
 */
class LiveRefreshTest {
    private static final byte[] MAGIC = "TAIL".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    /** The test format: files r0, r1, ... at the root. */
    static final class TailFormat implements ContainerFormat {
        @Override
        public String name() {
            return "tail";
        }

        @Override
        public List<String> fileExtensions() {
            return List.of("tail");
        }

        @Override
        public boolean probe(ByteBuffer head, String fileName) {
            return head.remaining() >= 4 && head.getInt(head.position()) == ByteBuffer.wrap(MAGIC).getInt();
        }

        @Override
        public Container open(ContainerSource source) throws IOException {
            TailContainer c = new TailContainer(source.channel());
            c.refresh();
            return c;
        }
    }

    static final class TailContainer implements Container {
        private final ContainerChannel channel;
        private final List<long[]> records = new ArrayList<>(); // {offset of bytes, length}
        private long next = 4;

        TailContainer(ContainerChannel channel) {
            this.channel = channel;
        }

        @Override
        public boolean refresh() throws IOException {
            int before = records.size();
            ByteBuffer len = ByteBuffer.allocate(4);
            while (next + 4 <= channel.size()) {
                channel.readFully(len.clear(), next);
                int n = len.getInt(0);
                if (n < 0 || next + 4 + n > channel.size()) {
                    break; // unfinished: looked at again by the next refresh
                }
                records.add(new long[] {next + 4, n});
                next += 4 + n;
            }
            return records.size() != before;
        }

        @Override
        public boolean hasIncompleteTail() {
            try {
                return next < channel.size();
            } catch (IOException e) {
                return true;
            }
        }

        @Override
        public Node root() {
            return new Node() {
                @Override
                public String name() {
                    return "";
                }

                @Override
                public boolean isDirectory() {
                    return true;
                }

                @Override
                public long size() {
                    return 0;
                }

                @Override
                public Iterable<? extends Node> children() {
                    List<Node> out = new ArrayList<>();
                    for (int i = 0; i < records.size(); i++) {
                        out.add(file(i));
                    }
                    return out;
                }

                @Override
                public Content content() {
                    throw new IllegalStateException();
                }

                @Override
                public Map<String, Object> attributes() {
                    return Map.of("records", records.size());
                }
            };
        }

        private Node file(int i) {
            long[] r = records.get(i);
            return new Node() {
                @Override
                public String name() {
                    return "r" + i;
                }

                @Override
                public boolean isDirectory() {
                    return false;
                }

                @Override
                public long size() {
                    return r[1];
                }

                @Override
                public Iterable<? extends Node> children() {
                    throw new IllegalStateException();
                }

                @Override
                public Content content() {
                    return new ByteRangeContent(channel, r[0], r[1], "record r" + i);
                }

                @Override
                public Map<String, Object> attributes() {
                    return Map.of("offset", r[0]);
                }
            };
        }
    }

    private static final ContainerFileSystemProvider PROVIDER = new ContainerFileSystemProvider(new TailFormat()) {};

    private static List<String> list(FileSystem fs) throws IOException {
        try (Stream<Path> s = Files.list(fs.getPath("/"))) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static void append(FileChannel out, int length, String text) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 + text.length());
        b.putInt(length).put(text.getBytes(StandardCharsets.US_ASCII));
        out.write(b.flip(), out.size());
    }

    @Test
    void aTailCommittedInPlaceIsSeenAlthoughTheSizeDidNotChange() throws IOException {
        Path file = dir.resolve("live.tail");
        Files.write(file, MAGIC);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            append(out, 3, "one");
            try (FileSystem fs = PROVIDER.newFileSystem(file, Map.of())) {
                assertThat(list(fs)).containsExactly("r0");
                long reserved = out.size();
                append(out, -1, "two"); // in progress: grows the file, not yet a record
                assertThat(list(fs)).containsExactly("r0");
                assertThat(((ContainerFileSystem) fs).changes()).as("a refresh that found no new unit").isZero();
                long sizeBefore = out.size();
                out.write(ByteBuffer.allocate(4).putInt(0, 3), reserved); // the commit, in place
                assertThat(out.size()).isEqualTo(sizeBefore);
                assertThat(list(fs)).containsExactly("r0", "r1");
                assertThat(((ContainerFileSystem) fs).changes()).isEqualTo(1);
                assertThat(Files.readString(fs.getPath("/r1"))).isEqualTo("two");
                // a lookup of the new name refreshes too
                append(out, -1, "three");
                out.write(ByteBuffer.allocate(4).putInt(0, 5), out.size() - 9);
                assertThat(Files.readString(fs.getPath("/r2"))).isEqualTo("three");
                assertThat(((ContainerFileSystem) fs).changes()).as("counted whoever ran the refresh").isEqualTo(2);
                assertThat(((ContainerFileSystem) fs).refresh()).isFalse();
                assertThat(((ContainerFileSystem) fs).changes()).isEqualTo(2);
            }
        }
    }

    @Test
    void refreshFalseFreezesTheTree() throws IOException {
        Path file = dir.resolve("frozen.tail");
        Files.write(file, MAGIC);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE);
                FileSystem fs = PROVIDER.newFileSystem(file, Map.of("refresh", "false"))) {
            append(out, 3, "one");
            assertThat(list(fs)).isEmpty();
            assertThat(Files.exists(fs.getPath("/r0"))).isFalse();
            assertThat(((ContainerFileSystem) fs).changes()).isZero();
        }
    }
}
