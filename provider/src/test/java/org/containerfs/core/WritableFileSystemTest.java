package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a writable file system lets through the ordinary Files API, and readers beside a writer. */
class WritableFileSystemTest {
    @TempDir
    Path dir;

    @Test
    void filesApiWritersAppendRecords() throws IOException {
        Path container = dir.resolve("w.lime");
        try (FileSystem fs = TestContainers.create(container)) {
            Files.createDirectories(fs.getPath("/msg01"));
            Files.createFile(fs.getPath("/msg01/rec01.empty"));
            try (Writer w = Files.newBufferedWriter(fs.getPath("/msg01/rec02.text"))) {
                w.write("line one\nline two\n");
            }
            try (OutputStream out = Files.newOutputStream(fs.getPath("msg01/rec03.stream"))) {
                out.write(1);
                out.write(new byte[] {2, 3, 4});
                out.close(); // twice is harmless
            }
            // Files.copy within the container: the copy is the next record
            Files.copy(fs.getPath("/msg01/rec02.text"), fs.getPath("/msg01/rec04.text"));
            // and from other file systems, in both directions
            Path outside = Files.writeString(dir.resolve("outside.xml"), "<xml/>");
            Files.copy(outside, fs.getPath("/msg01/rec05.scidac-file-xml"));
            Files.copy(fs.getPath("/msg01/rec02.text"), dir.resolve("extracted.txt"));
            assertThat(Files.readString(dir.resolve("extracted.txt"))).isEqualTo("line one\nline two\n");
            // visible at once in the writing file system
            assertThat(Files.readAllLines(fs.getPath("/msg01/rec04.text"))).containsExactly("line one", "line two");
            assertThat(Files.getLastModifiedTime(fs.getPath("/")).toMillis())
                    .isGreaterThanOrEqualTo(System.currentTimeMillis() - 60_000);
        }
        try (FileSystem fs = TestContainers.openReadOnly(container)) {
            try (Stream<Path> list = Files.list(fs.getPath("/msg01"))) {
                assertThat(list.map(p -> p.getFileName().toString())).containsExactly("rec01.empty", "rec02.text",
                        "rec03.stream", "rec04.text", "rec05.scidac-file-xml");
            }
            assertThat(Files.size(fs.getPath("/msg01/rec01.empty"))).isZero();
            assertThat(Files.readAllBytes(fs.getPath("/msg01/rec03.stream"))).containsExactly(1, 2, 3, 4);
            assertThat(Files.readString(fs.getPath("/msg01/rec05.scidac-file-xml"))).isEqualTo("<xml/>");
            // extracting a whole tree to the default file system with the ordinary API
            Path out = dir.resolve("out");
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                for (Path p : (Iterable<Path>) walk::iterator) {
                    Path target = out.resolve(fs.getPath("/").relativize(p).toString());
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            assertThat(Files.readString(out.resolve("msg01/rec02.text"))).isEqualTo("line one\nline two\n");
        }
    }

    @Test
    void readersBesideAnAppendingWriterSeeOnlyCompleteRecords() throws Exception {
        Path container = dir.resolve("growing.lime");
        int records = 60;
        try (FileSystem fs = TestContainers.create(container)) {
            Files.createDirectory(fs.getPath("/msg01"));
            ExecutorService pool = Executors.newFixedThreadPool(4);
            AtomicBoolean done = new AtomicBoolean();
            try {
                List<Future<Integer>> readers = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    readers.add(pool.submit(() -> {
                        int seen = 0;
                        boolean finished = false;
                        while (!finished) {
                            finished = done.get(); // read before listing: then the listing must be complete
                            List<Path> listed;
                            try (Stream<Path> list = Files.list(fs.getPath("/msg01"))) {
                                listed = list.toList();
                            }
                            for (Path p : listed) {
                                int n = Integer.parseInt(p.getFileName().toString().substring(3, 5));
                                assertThat(Files.readString(p)).as(p.toString()).isEqualTo(payload(n));
                            }
                            seen = listed.size();
                            if (finished && seen < records) {
                                throw new AssertionError("writer finished but only " + seen + " records listed");
                            }
                        }
                        return seen;
                    }));
                }
                Future<?> writer = pool.submit(() -> {
                    for (int n = 1; n <= records; n++) {
                        Files.writeString(fs.getPath(String.format("/msg01/rec%02d.part", n)), payload(n));
                    }
                    done.set(true);
                    return null;
                });
                writer.get(60, TimeUnit.SECONDS);
                for (Future<Integer> r : readers) {
                    assertThat(r.get(60, TimeUnit.SECONDS)).isEqualTo(records);
                }
            } finally {
                done.set(true);
                pool.shutdownNow();
            }
        }
    }

    private static String payload(int n) {
        return ("record " + n + " ").repeat(n * 37);
    }
}
