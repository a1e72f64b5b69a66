package org.containerfs.lime;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan recognises a type seen before word by word: every length, prefixes of each other, bytes after the NUL. */
class LimeTypeMatchTest {
    @TempDir
    Path tmp;

    @Test
    void everyRecordGetsItsOwnTypeWhateverItsLength() throws Exception {
        List<String> types = new ArrayList<>(List.of("abcd", "abc", "", "a", "abcdefg", "abcdefgh", "abcdefghi",
                "abcdefgh", "abc", "abcd", "x".repeat(127), "x".repeat(128), "x".repeat(127), "x".repeat(120), ""));
        // twice over, so the second pass matches every type as one seen before (and by the previous record)
        types.addAll(List.copyOf(types));
        Path file = tmp.resolve("types.lime");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (String t : types) {
                ByteBuffer header = LimeHeader.encode(true, true, 8, t.getBytes(StandardCharsets.US_ASCII));
                ch.write(header);
                ch.write(ByteBuffer.allocate(8));
            }
            // a type "ab" whose field holds junk after its NUL: still "ab", and not "abc" or "abcd"
            ByteBuffer junk = LimeHeader.encode(true, true, 8, "ab".getBytes(StandardCharsets.US_ASCII));
            junk.put(16 + 3, (byte) 'c').put(16 + 4, (byte) 'd');
            ch.write(junk);
            ch.write(ByteBuffer.allocate(8));
        }
        types.add("ab");
        try (FileSystem fs = ContainerFileSystems.open(file, Map.of("indexCache", "off"))) {
            for (int i = 0; i < types.size(); i++) {
                Path record = fs.getPath(String.format("/msg%02d/rec01%s", i + 1,
                        types.get(i).isEmpty() ? "" : "." + types.get(i)));
                assertThat(Files.exists(record)).as(record.toString()).isTrue();
                assertThat(new String((byte[]) Files.getAttribute(record, "lime:type"), StandardCharsets.US_ASCII))
                        .isEqualTo(types.get(i));
            }
        }
    }
}
