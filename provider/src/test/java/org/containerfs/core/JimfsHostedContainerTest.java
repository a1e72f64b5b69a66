package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.containerfs.lime.LimeFileSystemProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Containers that live on jimfs: the provider reaches its container only through the container
 * path's own provider. (jimfs paths have no {@code toFile()}, so any use of java.io.File or the
 * default file system by the provider would fail here.)
 */
class JimfsHostedContainerTest {
    private FileSystem memory;

    @BeforeEach
    void createMemoryFileSystem() {
        memory = Jimfs.newFileSystem(Configuration.unix());
    }

    @AfterEach
    void closeMemoryFileSystem() throws IOException {
        memory.close();
    }

    private Path copyToMemory(String corpusName, String target) throws IOException {
        return TestContainers.copyCorpus(corpusName, memory.getPath(target));
    }

    @Test
    void openListAndReadEveryRecordOfACorpusFile() throws IOException {
        for (String file : new String[] {"s02_lime_writer_test1.lime", "s08_ildg_scidac_gauge.lime",
                "cl2qcd_conf.tmlqcd", "s13_large_record.lime"}) {
            Path container = copyToMemory(file, "/data/" + file);
            try (FileSystem lime = FileSystems.newFileSystem(container)) {
                assertThat(lime.provider()).isInstanceOf(LimeFileSystemProvider.class);
                List<TestContainers.Row> rows = TestContainers.manifest(file);
                try (Stream<Path> walk = Files.walk(lime.getPath("/"))) {
                    assertThat(walk.filter(Files::isRegularFile).map(Path::toString))
                            .containsExactlyElementsOf(rows.stream().map(TestContainers.Row::path).toList());
                }
                for (TestContainers.Row row : rows) {
                    Path record = lime.getPath(row.path());
                    assertThat(Files.size(record)).isEqualTo(row.length());
                    assertThat(TestContainers.sha256(Files.readAllBytes(record))).as(file + row.path())
                            .isEqualTo(row.sha256());
                }
                assertThat(Files.getFileStore(lime.getPath("/")).name()).isEqualTo(file);
                assertThat(Files.getLastModifiedTime(lime.getPath("/msg01")))
                        .isEqualTo(Files.getLastModifiedTime(container));
            }
        }
    }

    @Test
    void createAppendReopenAndReadBack() throws IOException {
        Path container = memory.getPath("/work/new.lime");
        Files.createDirectories(container.getParent());
        byte[] big = new byte[300_001];
        new Random(7).nextBytes(big);
        try (FileSystem lime = FileSystems.newFileSystem(URI.create("lime:" + container.toUri()), Map.of("create", "true"))) {
            Files.createDirectory(lime.getPath("/msg01"));
            Files.writeString(lime.getPath("/msg01/rec01.xlf-info"), "plaquette 0.59\n");
            try (SeekableByteChannel out = Files.newByteChannel(lime.getPath("/msg01/rec02.ildg-binary-data"),
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                // streamed in uneven pieces
                for (int off = 0; off < big.length; off += 4099) {
                    out.write(ByteBuffer.wrap(big, off, Math.min(4099, big.length - off)));
                }
            }
        }
        assertThat(Files.size(container)).isEqualTo(144 + 16 + 144 + 300_008);
        try (FileSystem lime = FileSystems.newFileSystem(container, Map.of("accessMode", "readWrite"))) {
            assertThat(Files.readString(lime.getPath("/msg01/rec01.xlf-info"))).isEqualTo("plaquette 0.59\n");
            Files.createDirectory(lime.getPath("/msg02"));
            Files.write(lime.getPath("/msg02/rec01"), new byte[0]);
        }
        try (FileSystem lime = FileSystems.newFileSystem(container)) {
            try (Stream<Path> walk = Files.walk(lime.getPath("/"))) {
                assertThat(walk.map(Path::toString)).containsExactly("/", "/msg01", "/msg01/rec01.xlf-info",
                        "/msg01/rec02.ildg-binary-data", "/msg02", "/msg02/rec01");
            }
            assertThat(Files.readAllBytes(lime.getPath("/msg01/rec02.ildg-binary-data"))).isEqualTo(big);
            try (InputStream in = Files.newInputStream(lime.getPath("/msg01/rec02.ildg-binary-data"))) {
                in.skipNBytes(299_990);
                assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(big, 299_990, big.length));
            }
            assertThat(Files.readAttributes(lime.getPath("/msg01/rec01.xlf-info"), "lime:mb,me"))
                    .isEqualTo(Map.of("mb", true, "me", false));
            assertThat(Files.readAttributes(lime.getPath("/msg01/rec02.ildg-binary-data"), "lime:mb,me"))
                    .isEqualTo(Map.of("mb", false, "me", true));
            assertThat(Files.size(lime.getPath("/msg02/rec01"))).isZero();
        }
    }

    @Test
    void appendToACorpusFileOnJimfsKeepsEveryOldByte() throws IOException {
        Path container = copyToMemory("s03_multi_msg_pack.lime", "/pack.lime");
        byte[] before = Files.readAllBytes(container);
        try (FileSystem lime = FileSystems.newFileSystem(container, Map.of("accessMode", "readWrite"))) {
            Files.writeString(lime.getPath("/msg03/rec03.text-appended"), "joined the last message");
        }
        byte[] after = Files.readAllBytes(container);
        // the one in-place change LIME's protocol makes: the previous last record's ME bit is cleared
        int previousFlags = before.length - 144 - 32; // s03's last record: 30 bytes + 2 padding
        assertThat(before[previousFlags + 6] & 0x40).isNotZero();
        assertThat(after[previousFlags + 6] & 0x40).isZero();
        after[previousFlags + 6] = before[previousFlags + 6];
        assertThat(java.util.Arrays.copyOf(after, before.length)).isEqualTo(before);
        try (FileSystem lime = FileSystems.newFileSystem(container)) {
            for (TestContainers.Row row : TestContainers.manifest("s03_multi_msg_pack.lime")) {
                assertThat(TestContainers.sha256(Files.readAllBytes(lime.getPath(row.path())))).isEqualTo(row.sha256());
            }
            assertThat(Files.readString(lime.getPath("/msg03/rec03.text-appended"))).isEqualTo("joined the last message");
        }
    }

    @Test
    void oneWriterAtATimeAlsoWhereFileLocksAreNotEnforced() throws IOException {
        // jimfs grants every FileChannel lock, so the file lock alone cannot keep a second writer out
        Path container = copyToMemory("s01_single_record.lime", "/one.lime");
        try (FileSystem writer = FileSystems.newFileSystem(container, Map.of("accessMode", "readWrite"))) {
            assertThatThrownBy(() -> FileSystems.newFileSystem(container, Map.of("accessMode", "readWrite")))
                    .isInstanceOf(java.nio.file.FileSystemException.class)
                    .hasMessageContaining("already open for writing");
            Files.writeString(writer.getPath("/msg01/rec02.only-writer"), "mine");
        }
        try (FileSystem again = FileSystems.newFileSystem(container, Map.of("accessMode", "readWrite"))) {
            assertThat(Files.readString(again.getPath("/msg01/rec02.only-writer"))).isEqualTo("mine");
        }
    }

    @Test
    void limeUrisOfAJimfsContainerLeadBackToTheirPaths() throws IOException {
        Path container = copyToMemory("s02_lime_writer_test1.lime", "/a dir!/ü.lime");
        try (FileSystem lime = FileSystems.newFileSystem(container)) {
            Path record = lime.getPath("/msg02/rec02.lime-test-text2");
            URI uri = record.toUri();
            assertThat(uri.toString()).startsWith("lime:jimfs:");
            assertThat(Paths.get(uri)).isEqualTo(record);
            assertThat(FileSystems.getFileSystem(uri)).isSameAs(lime);
            assertThat(Files.readAllBytes(Paths.get(uri))).hasSize(23);
        }
    }

    @Test
    void aContainerInsideARecordOfAnotherContainer() throws IOException {
        // containerfs is itself "any NIO file system": a LIME file stored as a record opens in place
        Path outer = memory.getPath("/outer.lime");
        try (FileSystem lime = TestContainers.create(outer)) {
            Files.createDirectory(lime.getPath("/msg01"));
            Files.write(lime.getPath("/msg01/rec01.lime-file"), Files.readAllBytes(TestContainers.corpus("s03_multi_msg_pack.lime")));
        }
        try (FileSystem lime = FileSystems.newFileSystem(outer);
                FileSystem inner = FileSystems.newFileSystem(lime.getPath("/msg01/rec01.lime-file"))) {
            for (TestContainers.Row row : TestContainers.manifest("s03_multi_msg_pack.lime")) {
                assertThat(TestContainers.sha256(Files.readAllBytes(inner.getPath(row.path())))).isEqualTo(row.sha256());
            }
            assertThat(inner.getPath("/msg02").toUri().toString()).startsWith("lime:lime:jimfs:");
        }
    }

    @Test
    void aContainerInsideAZipOnJimfs() throws IOException {
        Path zip = memory.getPath("/bundle.zip");
        try (FileSystem zipfs = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
            Files.write(zipfs.getPath("/conf.lime"), Files.readAllBytes(TestContainers.corpus("cl2qcd_conf.tmlqcd")));
        }
        try (FileSystem zipfs = FileSystems.newFileSystem(zip);
                FileSystem lime = FileSystems.newFileSystem(zipfs.getPath("/conf.lime"))) {
            for (TestContainers.Row row : TestContainers.manifest("cl2qcd_conf.tmlqcd")) {
                assertThat(TestContainers.sha256(Files.readAllBytes(lime.getPath(row.path())))).isEqualTo(row.sha256());
            }
        }
    }
}
