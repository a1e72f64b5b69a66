package org.containerfs.lime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A read-only file system shows records another writer commits, and never a record still being written. */
class LimeLiveGrowthTest {
    @TempDir
    Path tmp;

    static List<String> tree(FileSystem fs) throws Exception {
        try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            return walk.map(Path::toString).toList();
        }
    }

    @Test
    void readersSeeCommittedRecordsOnlyAfterTheirCommit() throws Exception {
        Path file = tmp.resolve("live.lime");
        try (FileSystem writer = ContainerFileSystems.create(file, "lime")) {
            Files.createDirectory(writer.getPath("/msg01"));
            Files.writeString(writer.getPath("/msg01/rec01.first"), "one");
            try (FileSystem reader = ContainerFileSystems.open(file)) {
                assertThat(tree(reader)).containsExactly("/", "/msg01", "/msg01/rec01.first");

                try (OutputStream out = Files.newOutputStream(writer.getPath("/msg01/rec02.second"),
                        StandardOpenOption.CREATE_NEW)) {
                    out.write(new byte[10_000]);
                    out.flush();
                    // The file grew, but the record has no header yet: nothing new to show.
                    assertThat(tree(reader)).containsExactly("/", "/msg01", "/msg01/rec01.first");
                    assertThat(Files.exists(reader.getPath("/msg01/rec02.second"))).isFalse();
                }
                // A lookup of the new name refreshes by itself, as does a listing.
                assertThat(Files.size(reader.getPath("/msg01/rec02.second"))).isEqualTo(10_000);
                Files.createDirectory(writer.getPath("/msg02"));
                Files.writeString(writer.getPath("/msg02/rec01.third"), "three");
                assertThat(tree(reader)).containsExactly("/", "/msg01", "/msg01/rec01.first", "/msg01/rec02.second",
                        "/msg02", "/msg02/rec01.third");
                assertThat(Files.getAttribute(reader.getPath("/msg01/rec01.first"), "lime:me")).isEqualTo(false);
                assertThat(Files.readString(reader.getPath("/msg02/rec01.third"))).isEqualTo("three");
            }
        }
    }

    @Test
    void aSecondWriterIsRefused() throws Exception {
        Path file = tmp.resolve("locked.lime");
        try (FileSystem first = ContainerFileSystems.create(file, "lime")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ContainerFileSystems.create(file, "lime"))
                    .isInstanceOf(java.nio.file.FileSystemException.class)
                    .hasMessageContaining("already open for writing");
        }
    }

    static List<String> names(FileSystem fs, String dir) throws Exception {
        try (Stream<Path> list = Files.list(fs.getPath(dir))) {
            return list.map(p -> p.getFileName().toString()).toList();
        }
    }

    @Test
    void aListingOfTheLastMessageSeesAppendsWhileEarlierMessagesAreComplete() throws Exception {
        Path file = tmp.resolve("messages.lime");
        try (FileSystem writer = ContainerFileSystems.create(file, "lime")) {
            Files.createDirectory(writer.getPath("/msg01"));
            Files.writeString(writer.getPath("/msg01/rec01.a"), "1");
            Files.createDirectory(writer.getPath("/msg02"));
            Files.writeString(writer.getPath("/msg02/rec01.b"), "2");
            try (FileSystem reader = ContainerFileSystems.open(file)) {
                assertThat(names(reader, "/msg02")).containsExactly("rec01.b");
                Files.writeString(writer.getPath("/msg02/rec02.c"), "3");
                // the last message may grow: its listing checks the container first
                assertThat(names(reader, "/msg02")).containsExactly("rec01.b", "rec02.c");
                Files.createDirectory(writer.getPath("/msg03"));
                Files.writeString(writer.getPath("/msg03/rec01.d"), "4");
                // an earlier message can gain no record (a new one starts the next message)
                assertThat(names(reader, "/msg01")).containsExactly("rec01.a");
                assertThat(names(reader, "/msg02")).containsExactly("rec01.b", "rec02.c");
                assertThat(names(reader, "/")).containsExactly("msg01", "msg02", "msg03");
                assertThat(names(reader, "/msg03")).containsExactly("rec01.d");
                Files.writeString(writer.getPath("/msg03/rec02.e"), "5");
                assertThat(names(reader, "/msg03")).containsExactly("rec01.d", "rec02.e");
            }
        }
    }
}
