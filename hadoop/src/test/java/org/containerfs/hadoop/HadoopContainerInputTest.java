package org.containerfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.storage.InputIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Hadoop input on Hadoop's LocalFileSystem. */
class HadoopContainerInputTest {
    @TempDir
    Path dir;

    static org.apache.hadoop.fs.Path hadoop(Path p) {
        return new org.apache.hadoop.fs.Path(p.toUri());
    }

    byte[] randomFile(Path file, int length) throws Exception {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        Files.write(file, bytes);
        return bytes;
    }

    @Test
    void positionedReadsServeTheFilesBytesIntoHeapAndDirectBuffers() throws Exception {
        byte[] bytes = randomFile(dir.resolve("data.bin"), 100_000);
        try (HadoopContainerInput in = HadoopContainerInput.open(hadoop(dir.resolve("data.bin")), new Configuration())) {
            assertThat(in.size()).isEqualTo(100_000);
            assertThat(in.remote()).isFalse();
            for (ByteBuffer dst : List.of(ByteBuffer.allocate(5000), ByteBuffer.allocateDirect(5000))) {
                dst.position(10);
                assertThat(in.read(dst, 1234)).isEqualTo(4990);
                assertThat(dst.position()).isEqualTo(5000);
                byte[] got = new byte[4990];
                dst.flip().position(10);
                dst.get(got);
                assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(bytes, 1234, 1234 + 4990));
            }
            ByteBuffer tail = ByteBuffer.allocate(64);
            assertThat(in.read(tail, 99_990)).isEqualTo(10);
            assertThat(in.read(ByteBuffer.allocate(8), 100_000)).isEqualTo(-1);
            assertThat(in.read(ByteBuffer.allocate(0), 5)).isZero();
        }
    }

    @Test
    void concurrentReadersShareNoPosition() throws Exception {
        byte[] bytes = randomFile(dir.resolve("data.bin"), 1 << 20);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (HadoopContainerInput in = HadoopContainerInput.open(hadoop(dir.resolve("data.bin")), new Configuration())) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < 500; i++) {
                        int at = random.nextInt(bytes.length - 4096);
                        ByteBuffer b = ByteBuffer.allocate(4096);
                        in.read(b, at);
                        if (!java.util.Arrays.equals(b.array(), java.util.Arrays.copyOfRange(bytes, at, at + 4096))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A local file's URI is the one java.nio gives it ({@code file:///...}, non-ASCII and reserved characters
     * percent-encoded as Path.toUri() encodes them), however Hadoop was given the path: plain, {@code file:/},
     * {@code file:///}, a glob match, a directory listing's entry. The sibling of a set member too.
     */
    @Test
    void aLocalFilesUriIsTheOneJavaNioGivesIt() throws Exception {
        Path sub = Files.createDirectories(dir.resolve("odd dir ü"));
        Configuration conf = new Configuration();
        org.apache.hadoop.fs.FileSystem local = org.apache.hadoop.fs.FileSystem.getLocal(conf);
        // (no ':' in a name: Hadoop's local file system cannot name its .crc side file then)
        for (String name : List.of("plain.lime", "a b.lime", "pct%41.lime", "hash#1.g3", "日本.gsd", "br[1]{2}.sion",
                "semi;eq=amp&plus+at@,.scda")) {
            Path file = sub.resolve(name);
            randomFile(file, 10);
            String nio = file.toUri().toString();
            assertThat(nio).startsWith("file:///");
            List<org.apache.hadoop.fs.Path> given = new ArrayList<>(List.of(new org.apache.hadoop.fs.Path(file.toString()),
                    new org.apache.hadoop.fs.Path("file:" + file), new org.apache.hadoop.fs.Path("file://" + file)));
            for (org.apache.hadoop.fs.FileStatus s : local.listStatus(new org.apache.hadoop.fs.Path(sub.toString()))) {
                if (s.getPath().getName().equals(name)) {
                    given.add(s.getPath());
                }
            }
            assertThat(given).hasSize(4);
            for (org.apache.hadoop.fs.Path p : given) {
                assertThat(HadoopContainerInput.uriOf(local, p).toString()).as("%s given as %s", name, p).isEqualTo(nio);
                try (HadoopContainerInput in = HadoopContainerInput.open(p, conf)) {
                    assertThat(in.uri().toString()).isEqualTo(nio);
                }
            }
        }
        for (org.apache.hadoop.fs.FileStatus s : local.globStatus(new org.apache.hadoop.fs.Path(sub + "/*"))) {
            assertThat(HadoopContainerInput.uriOf(local, s.getPath()).toString())
                    .isEqualTo(sub.resolve(s.getPath().getName()).toUri().toString());
        }
        randomFile(sub.resolve("a.sion.000001"), 10);
        try (HadoopContainerInput in = HadoopContainerInput.open(new org.apache.hadoop.fs.Path(sub.resolve("plain.lime")
                .toString()), conf); var sibling = in.sibling("a.sion.000001")) {
            assertThat(sibling.uri()).isEqualTo(sub.resolve("a.sion.000001").toUri());
        }
    }

    @Test
    void identitySiblingsAndErrorsNameTheFile() throws Exception {
        randomFile(dir.resolve("a.sion"), 100);
        randomFile(dir.resolve("a.sion.000001"), 50);
        try (HadoopContainerInput in = HadoopContainerInput.open(hadoop(dir.resolve("a.sion")), new Configuration())) {
            InputIdentity id = in.identity();
            assertThat(id.uri()).isEqualTo(in.uri());
            assertThat(in.uri().getScheme()).isEqualTo("file");
            assertThat(id.size()).isEqualTo(100);
            assertThat(id.version()).isEqualTo("mtime:" + Files.getLastModifiedTime(dir.resolve("a.sion")).toMillis());
            try (var sibling = in.sibling("a.sion.000001")) {
                assertThat(sibling.size()).isEqualTo(50);
                assertThat(sibling.uri().getPath()).endsWith("/a.sion.000001");
            }
            assertThatThrownBy(() -> in.sibling("a.sion.000002")).isInstanceOf(NoSuchFileException.class)
                    .hasMessageContaining("a.sion.000002");
        }
        assertThatThrownBy(() -> HadoopContainerInput.open(hadoop(dir.resolve("missing.lime")), new Configuration()))
                .isInstanceOf(NoSuchFileException.class).hasMessageContaining("missing.lime");
    }

    @Test
    void aFileShorterThanWhenOpenedIsAnErrorNamingIt() throws Exception {
        randomFile(dir.resolve("shrinks.bin"), 10_000);
        try (HadoopContainerInput in = HadoopContainerInput.open(hadoop(dir.resolve("shrinks.bin")), new Configuration())) {
            Files.write(dir.resolve("shrinks.bin"), new byte[100]);
            assertThatThrownBy(() -> in.read(ByteBuffer.allocate(1000), 5000))
                    .isInstanceOf(java.io.EOFException.class).hasMessageContaining("shrinks.bin").hasMessageContaining("5000");
        }
    }

    @Test
    void aFileWrittenThroughHadoopIsReadWithItsChecksums() throws Exception {
        Configuration conf = new Configuration();
        LocalFileSystem local = org.apache.hadoop.fs.FileSystem.getLocal(conf);
        org.apache.hadoop.fs.Path file = hadoop(dir.resolve("crc.bin"));
        byte[] bytes = new byte[3000];
        new Random(3).nextBytes(bytes);
        try (OutputStream out = local.create(file)) {
            out.write(bytes);
        }
        assertThat(dir.resolve(".crc.bin.crc")).exists();
        try (HadoopContainerInput in = HadoopContainerInput.open(file, conf)) {
            ByteBuffer all = ByteBuffer.allocate(3000);
            assertThat(in.read(all, 0)).isEqualTo(3000);
            assertThat(all.array()).isEqualTo(bytes);
        }
        // a damaged byte is caught by the checksum, not served
        byte[] onDisk = Files.readAllBytes(dir.resolve("crc.bin"));
        onDisk[1000] ^= 1;
        Files.write(dir.resolve("crc.bin"), onDisk);
        try (HadoopContainerInput in = HadoopContainerInput.open(file, conf)) {
            assertThatThrownBy(() -> in.read(ByteBuffer.allocate(3000), 0))
                    .isInstanceOf(org.apache.hadoop.fs.ChecksumException.class);
        }
    }

    /**
     * On a store where every read is a request, opening and listing a LIME file of 20,000 small records costs a
     * handful of block reads, not one per header (the prototype made 100,082 reads of 100,000 records).
     */
    @Test
    void aRemoteStoreIsReadInBlocksNotOneRequestPerHeader() throws Exception {
        Path file = limeOfSmallRecords(dir.resolve("many.lime"), 20_000);
        Configuration conf = new Configuration();
        conf.set("fs.countfs.impl", CountingLocalFileSystem.class.getName());
        conf.setBoolean("fs.countfs.impl.disable.cache", true);
        long before = CountingLocalFileSystem.PREADS.get();
        HadoopContainerInput input = HadoopContainerInput.open(new org.apache.hadoop.fs.Path("countfs://" + file.toAbsolutePath()), conf);
        assertThat(input.remote()).isTrue();
        long records;
        try (FileSystem fs = ContainerFileSystems.open(input, java.util.Map.of());
                Stream<Path> walk = Files.walk(fs.getPath("/msg01"))) {
            records = walk.filter(Files::isRegularFile).count();
        }
        long reads = CountingLocalFileSystem.PREADS.get() - before;
        assertThat(records).isEqualTo(20_000);
        // 20,000 x 152 bytes = 3 MB: a few 1 MiB blocks (3 reads with the default block cache), not 20,000 requests
        assertThat(reads).isPositive().isLessThanOrEqualTo(16);
    }

    /** A LIME file of {@code records} 8-byte records in one message, /msg01/rec01.t and on (152 bytes each). */
    static Path limeOfSmallRecords(Path file, int records) throws Exception {
        try (FileSystem fs = ContainerFileSystems.create(file, "lime")) {
            Files.createDirectory(fs.getPath("/msg01"));
            for (int r = 1; r <= records; r++) {
                Files.write(fs.getPath("/msg01", String.format("rec%02d.t", r)), new byte[] {(byte) r, 2, 3, 4, 5, 6, 7, 8});
            }
        }
        return file;
    }

    static Path corpus(String format) {
        return Path.of(System.getProperty("containerfs.corpus", "../provider/src/test/resources/corpus"), format);
    }

    /** Every corpus container that opens from its path opens from the Hadoop input with the same tree and bytes. */
    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "sion", "g3"})
    void everyCorpusContainerOpensThroughTheHadoopInputAsThroughItsPath(String format) throws Exception {
        Configuration conf = new Configuration();
        assertEveryCorpusContainerOpensAlike(format, file -> HadoopContainerInput.open(hadoop(file.toAbsolutePath()), conf));
    }

    /** Opens a corpus file from the store under test. */
    interface Opener {
        HadoopContainerInput open(Path corpusFile) throws Exception;
    }

    /**
     * Every container of {@code format} in the corpus that opens from its path has the same tree (paths, sizes,
     * bytes) when opened through the input {@code opener} gives; at least five are compared.
     */
    static void assertEveryCorpusContainerOpensAlike(String format, Opener opener) throws Exception {
        int compared = 0;
        try (Stream<Path> files = Files.list(corpus(format))) {
            for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                List<String> expected = tree(file, null);
                if (expected == null) {
                    continue;
                }
                try (HadoopContainerInput in = opener.open(file)) {
                    assertThat(tree(file, in)).as(file.toString()).isEqualTo(expected);
                }
                compared++;
            }
        }
        assertThat(compared).isGreaterThanOrEqualTo(5);
    }

    /** Paths, sizes and a digest of each file's readable bytes; null if the container does not open. */
    static List<String> tree(Path file, HadoopContainerInput input) throws Exception {
        FileSystem fs;
        try {
            fs = input == null ? ContainerFileSystems.open(file) : ContainerFileSystems.open(input, java.util.Map.of());
        } catch (Exception notOpened) {
            if (input == null) {
                return null;
            }
            throw notOpened;
        }
        List<String> out = new ArrayList<>();
        try (fs; Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String digest;
                try {
                    digest = Files.isDirectory(p) ? "dir"
                            : java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                    .digest(Files.readAllBytes(p)));
                } catch (java.io.IOException damaged) {
                    digest = damaged.getClass().getSimpleName();
                }
                out.add(p + " " + Files.size(p) + " " + digest);
            }
        }
        return out;
    }
}
