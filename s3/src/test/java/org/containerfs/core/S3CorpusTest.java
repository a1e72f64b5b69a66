package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.containerfs.s3.Captured;
import org.containerfs.s3.S3Containers;
import org.containerfs.s3.WithS3Server;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The corpus checks a second time, over S3: every corpus file of every format (and {@code .g3.gz},
 * and the hostile names) uploaded to an in-process s3proxy and opened as {@code s3://corpus/...} shows
 * the tree, attributes and bytes of the local open of the same file ({@link InputCorpusTest#describe},
 * the provider's own check), and sends the bucket no PUT, POST or DELETE.
 */
class S3CorpusTest extends WithS3Server {
    static final List<String> DIRECTORIES = List.of("lime", "gsd", "scda", "sion", "g3", "names");
    static Path corpus = Path.of(System.getProperty("containerfs.corpus"));

    @BeforeAll
    static void upload() throws Exception {
        server.createBucket("corpus");
        server.putTree("corpus", "", corpus);
        server.reset();
    }

    static List<Path> files(String dir) throws IOException {
        try (Stream<Path> files = Files.list(corpus.resolve(dir))) {
            return files.filter(p -> !p.getFileName().toString().endsWith(".tsv")
                    && !p.getFileName().toString().endsWith(".md")).sorted().toList();
        }
    }

    static String format(String dir, Path file) {
        if (!dir.equals("names")) {
            return dir;
        }
        String name = file.getFileName().toString();
        return name.substring(name.lastIndexOf('.') + 1);
    }

    static URI s3(String dir, Path file) {
        return URI.create("s3://corpus/" + dir + "/" + file.getFileName());
    }

    static Map<String, Object> env(Object... pairs) {
        return server.env(pairs);
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusFileOverS3() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (String dir : DIRECTORIES) {
            List<Path> files = files(dir);
            assertThat(files).as("corpus of %s", dir).isNotEmpty();
            for (Path file : files) {
                tests.add(DynamicTest.dynamicTest(dir + "/" + file.getFileName(), () -> compare(dir, file)));
            }
        }
        assertThat(tests.stream().map(DynamicTest::getDisplayName)).contains("g3/simple-types.g3.gz");
        return tests.stream();
    }

    private static void compare(String dir, Path file) throws Exception {
        String format = format(dir, file);
        URI uri = s3(dir, file);
        long mutatingBefore = server.mutating();
        String local;
        try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(file, Map.of("format", format))) {
            local = withoutTimes(InputCorpusTest.describe(fs, file.toString()));
        } catch (IOException refusedLocally) {
            assertThatThrownBy(() -> S3Containers.open(uri, env("format", format)).close())
                    .isInstanceOf(refusedLocally.getClass())
                    .hasMessageContaining(uri.toString())
                    .satisfies(e -> Captured.note(e.getMessage()));
            return;
        }
        try (FileSystem fs = S3Containers.open(uri, env("format", format))) {
            assertThat(fs.isReadOnly()).isTrue();
            String remote = InputCorpusTest.describe(fs, uri.toString());
            Captured.note(remote);
            assertThat(withoutTimes(remote)).isEqualTo(local);
            // times are the object's, as the store keeps them
            FileTime lastModified = FileTime.from(server.admin().headObject(
                    b -> b.bucket("corpus").key(dir + "/" + file.getFileName())).lastModified());
            assertThat(Files.getLastModifiedTime(fs.getPath("/"))).isEqualTo(lastModified);
        }
        // detection over S3 claims what detection claims locally
        String detectedLocally = null;
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            detectedLocally = fs.provider().getScheme();
        } catch (IOException | RuntimeException notDetected) {
            // the S3 open must not claim it either
        }
        if (detectedLocally == null) {
            assertThatThrownBy(() -> S3Containers.open(uri, env()).close()).isInstanceOf(IOException.class)
                    .satisfies(e -> Captured.note(e.getMessage()));
        } else {
            try (FileSystem fs = S3Containers.open(uri, env())) {
                assertThat(fs.provider().getScheme()).isEqualTo(detectedLocally);
            }
        }
        assertThat(server.mutating()).as("PUT/POST/DELETE sent while reading %s", uri).isEqualTo(mutatingBefore);
    }

    /** The file's times are the local file's, the object's are the store's: the rest must be equal. */
    private static String withoutTimes(String description) {
        return description.replaceAll("(lastModifiedTime|lastAccessTime|creationTime)=[^,}]*", "$1=<time>");
    }

    /** Every regular file of a few containers, read at random places by 8 threads, byte-identical to local. */
    @Test
    void eightThreadsOfRandomReadsAreByteIdentical() throws Exception {
        List<String> picked = List.of("lime/s13_large_record.lime", "gsd/hoomd_trajectory.gsd",
                "g3/big-blob-800k.g3", "g3/simple-types.g3.gz", "sion/tasks16_blocks_bs512.sion");
        List<FileSystem> open = new ArrayList<>();
        List<Path> remoteFiles = new ArrayList<>();
        List<byte[]> expected = new ArrayList<>();
        try {
            for (String name : picked) {
                Path local = corpus.resolve(name);
                String format = name.substring(0, name.indexOf('/'));
                FileSystem localFs = ContainerFileSystems.provider(format).newFileSystem(local, Map.of());
                FileSystem remoteFs = S3Containers.open(URI.create("s3://corpus/" + name), env());
                open.add(localFs);
                open.add(remoteFs);
                List<Path> files;
                try (Stream<Path> walk = Files.walk(localFs.getPath("/"))) {
                    files = walk.filter(Files::isRegularFile).toList();
                }
                for (Path f : files) {
                    byte[] bytes;
                    try {
                        bytes = Files.readAllBytes(f);
                    } catch (IOException damaged) {
                        continue;
                    }
                    if (bytes.length > 0) {
                        expected.add(bytes);
                        remoteFiles.add(remoteFs.getPath(f.toString()));
                    }
                }
            }
            assertThat(remoteFiles).hasSizeGreaterThan(20);
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    long seed = t;
                    results.add(pool.submit(() -> randomReads(new Random(seed), remoteFiles, expected, 150)));
                }
                for (Future<Integer> r : results) {
                    assertThat(r.get()).isEqualTo(150);
                }
            } finally {
                pool.shutdownNow();
            }
        } finally {
            for (FileSystem fs : open) {
                fs.close();
            }
        }
        assertThat(server.mutating()).isZero();
    }

    private static int randomReads(Random random, List<Path> files, List<byte[]> expected, int count)
            throws IOException {
        int done = 0;
        for (int i = 0; i < count; i++) {
            int which = random.nextInt(files.size());
            byte[] want = expected.get(which);
            int offset = random.nextInt(want.length);
            int length = 1 + random.nextInt(Math.min(want.length - offset, 1 << 16));
            ByteBuffer dst = ByteBuffer.allocate(length);
            try (SeekableByteChannel ch = Files.newByteChannel(files.get(which))) {
                ch.position(offset);
                while (dst.hasRemaining() && ch.read(dst) > 0) {
                    // until the range is complete
                }
            }
            assertThat(dst.position()).isEqualTo(length);
            assertThat(dst.array()).as("%s at %d+%d", files.get(which), offset, length)
                    .isEqualTo(java.util.Arrays.copyOfRange(want, offset, offset + length));
            done++;
        }
        return done;
    }
}
