package org.containerfs.ensemble;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.core.CountingInput;
import org.containerfs.storage.ContainerInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plain file of a tree whose source is remote reads through the core's block cache, as a container does. */
class PlainFileReadTest {
    /** A directory whose files read as remote objects, every read counted as a request. */
    static final class RemoteLikeSource implements TreeSource {
        final PathTreeSource files;
        final CountingInput.Counters counters = new CountingInput.Counters();

        RemoteLikeSource(Path dir) {
            files = (PathTreeSource) TreeSource.of(dir);
        }

        @Override
        public URI uri() {
            return files.uri();
        }

        @Override
        public BasicFileAttributes attributes(List<String> path, LinkOption... options) throws IOException {
            return files.attributes(path, options);
        }

        @Override
        public DirectoryStream<String> list(List<String> dir) throws IOException {
            return files.list(dir);
        }

        @Override
        public ContainerInput input(List<String> file) throws IOException {
            CountingInput in = CountingInput.of(files.resolve(file));
            return new ContainerInput() { // every read counted in this source's counters
                @Override
                public URI uri() {
                    return in.uri();
                }

                @Override
                public long size() throws IOException {
                    return in.size();
                }

                @Override
                public int read(ByteBuffer dst, long position) throws IOException {
                    counters.reads.incrementAndGet();
                    int n = in.read(dst, position);
                    if (n > 0 && Thread.currentThread().getName().startsWith("containerfs-fetch")) {
                        counters.bytesReadAhead.addAndGet(n);
                    }
                    return n;
                }

                @Override
                public org.containerfs.storage.InputIdentity identity() throws IOException {
                    return in.identity();
                }

                @Override
                public ContainerInput sibling(String fileName) throws IOException {
                    return in.sibling(fileName);
                }

                @Override
                public boolean remote() {
                    return true;
                }

                @Override
                public void close() throws IOException {
                    in.close();
                }
            };
        }
    }

    @Test
    void aPlainFileReadInSmallPiecesCostsFewRequestsAndEqualsItsBytes(@TempDir Path dir) throws IOException {
        byte[] bytes = new byte[5 << 20];
        new Random(26).nextBytes(bytes);
        Files.write(dir.resolve("notes.bin"), bytes);
        RemoteLikeSource source = new RemoteLikeSource(dir);
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(source, Map.of())) {
            byte[] read = new byte[bytes.length];
            int pieces = 0;
            try (SeekableByteChannel ch = Files.newByteChannel(tree.getPath("/notes.bin"))) {
                ByteBuffer piece = ByteBuffer.allocate(8192);
                int at = 0;
                while (ch.read(piece.clear()) > 0) {
                    piece.flip();
                    piece.get(read, at, piece.remaining());
                    at += piece.position();
                    pieces++;
                }
                assertThat(at).isEqualTo(bytes.length);
            }
            assertThat(read).isEqualTo(bytes);
            assertThat(pieces).isEqualTo(bytes.length / 8192);
            // read-ahead of the block cache: requests of 1, 2, 4 MiB ..., not one per 8 KiB piece
            assertThat(source.counters.reads.get()).isLessThanOrEqualTo(16);
            assertThat(source.counters.bytesReadAhead.get()).as("bytes the block cache's threads read ahead")
                    .isGreaterThan(1 << 20);

            // a read elsewhere in the file is served from what is cached or fetched for it, the same bytes
            try (SeekableByteChannel ch = Files.newByteChannel(tree.getPath("/notes.bin"))) {
                ByteBuffer b = ByteBuffer.allocate(100);
                ch.position(3_000_001);
                assertThat(ch.read(b)).isEqualTo(100);
                assertThat(b.array()).isEqualTo(java.util.Arrays.copyOfRange(bytes, 3_000_001, 3_000_101));
                ch.position(bytes.length - 10);
                assertThat(ch.read(b.clear())).isEqualTo(10);
                assertThat(ch.read(b.clear())).isEqualTo(-1);
            }
        }
    }

    @Test
    void theTreesBlockCacheKeysApplyToItsPlainFiles(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("notes.bin"), new byte[1 << 20]);
        RemoteLikeSource source = new RemoteLikeSource(dir);
        // a bound the block cache refuses: the plain file's open says so, as a container's would
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(source, Map.of("blockCacheBytes", 4096))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Files.newByteChannel(tree.getPath("/notes.bin")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blockCacheBytes");
        }
    }
}
