package org.containerfs.lime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A message lists the names of the message listed before it only when its records have the same types in the same order. */
class LimeSharedNamesTest {
    @TempDir
    Path tmp;

    @Test
    void eachMessageListsItsOwnTypesInOrderWhateverWasListedBefore() throws Exception {
        List<List<String>> messages = List.of(List.of("a", "b"), List.of("a", "b"), List.of("b", "a"), List.of("a", "b", "a"),
                List.of("a"), List.of("a", "b"), List.of("b", "b"), List.of("", "b"), List.of("a", "b"));
        Path file = tmp.resolve("shared.lime");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (List<String> types : messages) {
                for (int i = 0; i < types.size(); i++) {
                    ch.write(LimeHeader.encode(i == 0, i == types.size() - 1, 8, types.get(i).getBytes(StandardCharsets.US_ASCII)));
                    ch.write(ByteBuffer.allocate(8));
                }
            }
        }
        try (FileSystem fs = ContainerFileSystems.open(file, Map.of("indexCache", "off"))) {
            for (int pass = 0; pass < 2; pass++) { // in order, then listed again after the last one
                for (int m = 0; m < messages.size(); m++) {
                    List<String> expected = new java.util.ArrayList<>();
                    List<String> types = messages.get(m);
                    for (int i = 0; i < types.size(); i++) {
                        expected.add(String.format("rec%02d", i + 1) + (types.get(i).isEmpty() ? "" : "." + types.get(i)));
                    }
                    try (Stream<Path> listed = Files.list(fs.getPath(String.format("/msg%02d", m + 1)))) {
                        assertThat(listed.map(p -> p.getFileName().toString())).as("message %d, pass %d", m + 1, pass)
                                .containsExactlyElementsOf(expected);
                    }
                }
            }
        }
    }
}
