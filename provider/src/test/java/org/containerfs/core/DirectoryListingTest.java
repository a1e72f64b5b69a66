package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.containerfs.storage.BasicAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Paths from a directory stream take their node from the listing by position, only while the tree is unchanged. */
class DirectoryListingTest {
    @TempDir
    Path tmp;

    private static List<Path> list(Path dir, DirectoryStream.Filter<Path> filter) throws Exception {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, filter)) {
            s.forEach(out::add);
        }
        return out;
    }

    @Test
    void listedEntriesAnswerAsTheirNamesDoEvenPastAFilterAndAfterAWrite() throws Exception {
        Path file = tmp.resolve("listing.lime");
        try (FileSystem fs = ContainerFileSystems.create(file, "lime")) {
            Files.createDirectory(fs.getPath("/msg01"));
            for (int i = 1; i <= 5; i++) {
                Files.write(fs.getPath(String.format("/msg01/rec%02d.t%d", i, i)), new byte[i * 10]);
            }
            // every other entry filtered out: positions must still count the skipped ones
            List<Path> listed = list(fs.getPath("/msg01"), p -> !p.getFileName().toString().endsWith("2")
                    && !p.getFileName().toString().endsWith("4"));
            assertThat(listed).extracting(Path::toString)
                    .containsExactly("/msg01/rec01.t1", "/msg01/rec03.t3", "/msg01/rec05.t5");
            for (Path p : listed) {
                ContainerPath cp = (ContainerPath) p;
                assertThat(listedNode(cp)).isNotNull();
                assertThat(listedNode(cp).name()).isEqualTo(p.getFileName().toString());
                assertThat(Files.size(p)).isEqualTo(Files.size(fs.getPath(p.toString())));
            }
            assertThat(Files.getAttribute(listed.get(2), "lime:me")).isEqualTo(true);

            Files.write(fs.getPath("/msg01/rec06.t6"), new byte[60]); // the tree changes: rec05 is no longer the last

            ContainerPath stale = (ContainerPath) listed.get(2);
            assertThat(listedNode(stale)).isNull();
            assertThat(Files.size(stale)).isEqualTo(50);
            assertThat(Files.getAttribute(stale, "lime:me")).isEqualTo(false);
        }
    }

    @Test
    void attributesOfListedEntriesAreReadInRunsAndDroppedOnceTheTreeChanges() throws Exception {
        Path file = tmp.resolve("runs.lime");
        FileSystem fs = ContainerFileSystems.create(file, "lime");
        Files.createDirectory(fs.getPath("/msg01"));
        for (int i = 1; i <= 150; i++) { // more than two runs of 64, the last one short
            Files.write(fs.getPath(String.format("/msg01/rec%02d.t", i)), new byte[i]);
        }
        List<Path> listed = list(fs.getPath("/msg01"), p -> true);
        assertThat(listed).hasSize(150);
        for (int i = listed.size() - 1; i >= 0; i--) { // from the end: the last, short run first
            ContainerPath p = (ContainerPath) listed.get(i);
            BasicAttributes fromRun = p.listedAttributes(); // null would mean the lookup by name answered
            var byName = Files.readAttributes(fs.getPath(p.toString()), java.nio.file.attribute.BasicFileAttributes.class);
            assertThat(fromRun).as(p.toString()).isNotNull();
            assertThat(fromRun.size()).as(p.toString()).isEqualTo(i + 1).isEqualTo(byName.size());
            assertThat(fromRun.isRegularFile()).isEqualTo(byName.isRegularFile()).isTrue();
            assertThat(fromRun.lastModifiedTime()).isEqualTo(byName.lastModifiedTime());
        }
        ContainerPath message = (ContainerPath) list(fs.getPath("/"), p -> true).get(0);
        assertThat(message.listedAttributes().isDirectory()).isTrue();
        assertThat(message.listedAttributes().size()).isZero();

        Files.write(fs.getPath("/msg01/rec151.t"), new byte[151]); // the tree changes
        ContainerPath first = (ContainerPath) listed.get(0);
        assertThat(first.listedAttributes()).isNull();
        assertThat(Files.size(first)).isEqualTo(1);

        fs.close();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Files.size(listed.get(5)))
                .isInstanceOf(java.nio.file.ClosedFileSystemException.class);
    }

    /**
     * Every corpus container of every format walked: each entry's attributes as its listing gives them (in runs,
     * from the format's sizes by position where it has them, else from its nodes) equal those of the same path
     * looked up by name.
     */
    @org.junit.jupiter.api.TestFactory
    java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> listedAttributesAreThoseOfTheNamedPathInEveryCorpusFile()
            throws IOException {
        List<org.junit.jupiter.api.DynamicTest> tests = new ArrayList<>();
        for (String format : InputCorpusTest.FORMATS) {
            for (Path file : InputCorpusTest.corpusFiles(format)) {
                tests.add(org.junit.jupiter.api.DynamicTest.dynamicTest(format + "/" + file.getFileName(), () -> {
                    FileSystem opened;
                    try {
                        opened = ContainerFileSystems.open(file, java.util.Map.of("indexCache", "off"));
                    } catch (IOException refused) {
                        return; // a file no open accepts (a wrong magic number, a cut header): tested where it is refused
                    }
                    try (FileSystem fs = opened) {
                        int[] entries = {0};
                        try (java.util.stream.Stream<Path> all = Files.walk(fs.getPath("/"))) {
                            for (Path listed : (Iterable<Path>) all::iterator) {
                                var byListing = Files.readAttributes(listed, java.nio.file.attribute.BasicFileAttributes.class);
                                var byName = Files.readAttributes(fs.getPath(listed.toString()),
                                        java.nio.file.attribute.BasicFileAttributes.class);
                                assertThat(byListing.isDirectory()).as(listed.toString()).isEqualTo(byName.isDirectory());
                                assertThat(byListing.size()).as(listed.toString()).isEqualTo(byName.size());
                                entries[0]++;
                            }
                        }
                        assertThat(entries[0]).isPositive();
                    }
                }));
            }
        }
        return tests.stream();
    }

    @Test
    void pathsNotFromAListingHaveNoListedNode() throws Exception {
        Path file = tmp.resolve("plain.lime");
        try (FileSystem fs = ContainerFileSystems.create(file, "lime")) {
            Files.createDirectory(fs.getPath("/msg01"));
            Files.write(fs.getPath("/msg01/rec01.t"), new byte[3]);
            assertThat(listedNode((ContainerPath) fs.getPath("/msg01/rec01.t"))).isNull();
            Path listed = list(fs.getPath("/msg01"), p -> true).get(0);
            // derived paths are new paths: only the listed one itself carries the node
            assertThat(listedNode((ContainerPath) listed.getFileName())).isNull();
            assertThat(listedNode((ContainerPath) listed.getParent())).isNull();
        }
    }

    /** The node the path's listing gives it, as the core asks for it (under the read lock). */
    private static org.containerfs.spi.Node listedNode(ContainerPath p) throws IOException {
        return p.getFileSystem().read(p::listedNodeUnderLock);
    }
}
