package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.spi.FileSystemProvider;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only file system watching a container that another writer appends to: a unit whose commit
 * rewrites bytes in place (the LIME header is written last, scda's type byte turns from '?' into the
 * section's type; the size does not change) must still appear on the next listing, and an uncommitted
 * tail must stay invisible.
 */
class LiveGrowthInPlaceCommitTest {

    private static FileSystemProvider lime() {
        return provider("lime");
    }

    private static FileSystemProvider provider(String scheme) {
        return FileSystemProvider.installedProviders().stream()
                .filter(p -> p.getScheme().equals(scheme)).findFirst().orElseThrow();
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    @Test
    void recordCommittedWithoutSizeChangeAppearsOnTheNextListing(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("live.lime");
        try (FileSystem writer = lime().newFileSystem(file, Map.of("create", "true"))) {
            Files.createDirectory(writer.getPath("/msg01"));
            try (OutputStream out = Files.newOutputStream(writer.getPath("/msg01/rec01.first"))) {
                out.write(new byte[8]);
            }
            try (FileSystem reader = lime().newFileSystem(file, Map.of())) {
                assertThat(names(reader.getPath("/msg01"))).containsExactly("rec01.first");

                SeekableByteChannel open = Files.newByteChannel(writer.getPath("/msg01/rec02.second"),
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                open.write(ByteBuffer.wrap("sixteen bytes!!!".getBytes()));
                long sizeBeforeCommit = Files.size(file);
                // The reader looks while the record is uncommitted: it sees the growth, not the record.
                assertThat(names(reader.getPath("/msg01"))).containsExactly("rec01.first");

                open.close(); // header written in place: the commit
                assertThat(Files.size(file)).isEqualTo(sizeBeforeCommit);
                assertThat(names(reader.getPath("/msg01"))).containsExactly("rec01.first", "rec02.second");
                assertThat(Files.readString(reader.getPath("/msg01/rec02.second"))).isEqualTo("sixteen bytes!!!");
            }
        }
    }

    @Test
    void scdaSectionCommittedByItsTypeByteAppearsOnTheNextListing(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("live.scda");
        long typeByte;
        try (FileSystem writer = provider("scda").newFileSystem(file, Map.of("create", "true"))) {
            Files.write(writer.getPath("/0000.B.first"), "one".getBytes());
            Files.write(writer.getPath("/0001.B.second"), "two".getBytes());
            typeByte = (Long) Files.getAttribute(writer.getPath("/0001.B.second"), "scda:headerOffset");
        }
        // The state just before the writer's last step: everything on disk, the type byte still '?'.
        try (FileChannel raw = FileChannel.open(file, StandardOpenOption.WRITE)) {
            raw.write(ByteBuffer.wrap(new byte[] {'?'}), typeByte);
            try (FileSystem reader = provider("scda").newFileSystem(file, Map.of())) {
                assertThat(names(reader.getPath("/"))).containsExactly("0000.B.first");
                long size = Files.size(file);

                raw.write(ByteBuffer.wrap(new byte[] {'B'}), typeByte); // the commit, in place
                assertThat(Files.size(file)).isEqualTo(size);
                assertThat(names(reader.getPath("/"))).containsExactly("0000.B.first", "0001.B.second");
                assertThat(Files.readString(reader.getPath("/0001.B.second"))).isEqualTo("two");
            }
        }
    }
}
