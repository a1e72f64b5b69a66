package org.containerfs.ensemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.s3.S3Containers;
import org.containerfs.s3.S3TestServer;
import org.containerfs.s3.S3TreeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An S3 prefix of a few hundred generated containers (every format, nested prefixes, plain objects beside
 * them, damaged ones) as one tree, against the same files as a local tree and each container's single open,
 * with the requests counted as the in-process server received them.
 */
class S3TreeTest {
    static final String BUCKET = "ensemble";
    static final URI PREFIX = URI.create("s3://" + BUCKET + "/runs/");
    static S3TestServer server;
    @TempDir
    static Path temp;
    static Path local;

    @BeforeAll
    static void upload() throws Exception {
        server = new S3TestServer();
        local = Ensembles.make(temp.resolve("ensemble"));
        // a generated ensemble beside the corpus copies: 200 small LIME configurations in nested directories
        for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 2; b++) {
                Path dir = Files.createDirectories(local.resolve("gen/stream" + a + "/part" + b));
                for (int c = 0; c < 25; c++) {
                    Files.write(dir.resolve(String.format("conf.%04d.lime", c * 10)), lime(a * 1000 + b * 100 + c, 12));
                }
                Files.writeString(dir.resolve("params.txt"), "beta=" + a + "." + b + "\n");
            }
        }
        server.bulk().createBucket(b -> b.bucket(BUCKET)); // the machine may be busy: minutes, not seconds
        try (Stream<Path> files = Files.walk(local)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                put("runs/" + rel(f), Files.readAllBytes(f));
            }
        }
        put("elsewhere/conf.lime", lime(1, 2)); // outside the prefix: never shown
    }

    static void put(String key, byte[] bytes) {
        server.bulk().putObject(b -> b.bucket(BUCKET).key(key),
                software.amazon.awssdk.core.sync.RequestBody.fromBytes(bytes));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @BeforeEach
    void forget() {
        server.reset();
    }

    /** A LIME file of {@code records} small records, its bytes depending on {@code seed}. */
    static byte[] lime(int seed, int records) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < records; i++) {
            byte[] payload = ("record " + i + " of configuration " + seed).getBytes(StandardCharsets.US_ASCII);
            ByteBuffer h = ByteBuffer.allocate(144);
            h.putInt(0x456789AB).putShort((short) 1).put((byte) ((i % 4 == 0 ? 0x80 : 0) | (i % 4 == 3 || i == records - 1 ? 0x40 : 0)))
                    .put((byte) 0).putLong(payload.length).put(("type-" + (i % 3)).getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(h.array());
            out.writeBytes(payload);
            out.writeBytes(new byte[(8 - payload.length % 8) % 8]);
        }
        return out.toByteArray();
    }

    static EnsembleFileSystem s3Tree(Object... pairs) throws IOException {
        return S3Containers.openTree(PREFIX, env(pairs));
    }

    /** The server's env with its patient client (a shared, busy machine must not turn into timeouts). */
    static Map<String, Object> env(Object... pairs) {
        Map<String, Object> env = server.env(pairs);
        env.put("s3.client", server.bulk());
        return env;
    }

    static List<Path> containerFiles() throws IOException {
        try (Stream<Path> s = Files.walk(local)) {
            return s.filter(Files::isRegularFile).filter(f -> Ensembles.containerName(f.getFileName().toString()))
                    .sorted().toList();
        }
    }

    static long directories() throws IOException {
        try (Stream<Path> s = Files.walk(local)) {
            return s.filter(Files::isDirectory).count();
        }
    }

    /** Objects an open of every container reads: the containers, and the later files of SIONlib sets. */
    static long containerObjects() throws IOException {
        try (Stream<Path> s = Files.walk(local)) {
            return containerFiles().size() + s.filter(Files::isRegularFile).filter(Ensembles::sionMember).count();
        }
    }

    static String rel(Path file) {
        return local.relativize(file).toString().replace('\\', '/');
    }

    /** What the object shows when opened alone from S3: its tree, "failed", or for a non-container its bytes. */
    static Map<String, String> singleS3Open(Path localFile) throws IOException {
        try (FileSystem fs = S3Containers.open(URI.create(PREFIX + rel(localFile)), env())) {
            return Ensembles.snapshot(fs.getPath("/"));
        } catch (ProviderNotFoundException notAContainer) {
            return Map.of("", Files.size(localFile) + " " + Ensembles.sha256(localFile));
        } catch (IOException damaged) {
            return Map.of("", "failed");
        }
    }

    @Test
    void theWholePrefixShowsWhatTheLocalTreeShows() throws IOException {
        Map<String, String> expected;
        try (EnsembleFileSystem tree = ContainerFileSystems.openTree(local, Map.of("indexCache", "off"))) {
            expected = Ensembles.snapshot(tree.getPath("/"));
        }
        try (EnsembleFileSystem tree = s3Tree("indexCache", "off")) {
            Map<String, String> got = Ensembles.snapshot(tree.getPath("/"));
            assertThat(got).isEqualTo(expected);
            assertThat(got).containsKeys("gen/stream3/part1/conf.0240.lime/msg03/rec03.type-1", "README.txt",
                    "run0/notes.txt", "samples/spikes.sion/task000003");
            assertThat(got.values()).contains("failed"); // the damaged containers are there, and fail as locally
            assertThat(got.keySet()).noneMatch(k -> k.startsWith("elsewhere")).noneMatch(k -> k.endsWith(".sion.000001"));
            assertThat(tree.source()).isNull();
            assertThat(tree.treeSource().uri()).isEqualTo(PREFIX);
        }
        assertThat(server.mutating()).isZero();
    }

    @Test
    void eachContainerThroughTheTreeEqualsItsSingleOpen() throws IOException {
        List<String> differing = new ArrayList<>();
        int compared = 0;
        try (EnsembleFileSystem tree = s3Tree("indexCache", "off", "cacheContainers", 16)) {
            for (Path f : containerFiles()) {
                Map<String, String> single = singleS3Open(f);
                Map<String, String> inTree;
                try {
                    inTree = Ensembles.snapshot(tree.getPath("/" + rel(f)));
                } catch (IOException e) {
                    inTree = Map.of("", "failed");
                }
                if (single.size() == 1 && !single.get("").equals("failed") && !single.get("").equals("dir")) {
                    // not a container after all: a directory until its inside is first used, then the plain file it is
                    assertThat(inTree).as(rel(f)).isEqualTo(Map.of("", "failed"));
                    inTree = Ensembles.snapshot(tree.getPath("/" + rel(f)));
                }
                if (!inTree.equals(single)) {
                    differing.add(rel(f) + ": tree " + inTree + " single " + single);
                }
                compared++;
            }
            assertThat(tree.peakContainersOpen()).isLessThanOrEqualTo(16);
        }
        assertThat(compared).isGreaterThan(400);
        assertThat(differing).isEmpty();
    }

    /** Every request was a ListObjectsV2 (a GET with list-type=2), none a GET or HEAD of an object. */
    static void onlyListsSoFar() {
        assertThat(server.requests()).allSatisfy(r -> {
            assertThat(r.method()).isEqualTo("GET");
            assertThat(r.target()).contains("list-type=2");
        });
    }

    @Test
    void listingADirectoryOfContainersSendsOnlyListRequests() throws IOException {
        try (EnsembleFileSystem tree = s3Tree()) {
            onlyListsSoFar();
            Path dir = tree.getPath("/gen/stream2/part0");
            List<String> names = new ArrayList<>();
            server.reset();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                for (Path p : ds) {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class); // ls -l
                    names.add(p.getFileName() + (a.isDirectory() ? "/" : "") + " " + a.size());
                }
            }
            assertThat(names).hasSize(26).contains("conf.0000.lime/ " + lime(2000, 12).length, "params.txt 9");
            assertThat(server.total()).isEqualTo(1); // one page: the attributes came with it
            // every step of the way down to a container, and the tree's top: still nothing but LISTs
            server.reset();
            Files.readAttributes(tree.getPath("/run1/g3/simple-types.g3"), BasicFileAttributes.class);
            Files.readAttributes(tree.getPath("/"), BasicFileAttributes.class);
            try (Stream<Path> top = Files.list(tree.getPath("/"))) {
                assertThat(top.map(p -> p.getFileName().toString())).contains("gen", "run0", "samples", "README.txt");
            }
            onlyListsSoFar();
            assertThat(tree.containersOpened()).isZero();
            // the first use of an inside opens that one container: one GET
            server.reset();
            assertThat(Files.isDirectory(tree.getPath("/gen/stream2/part0/conf.0000.lime/msg01"))).isTrue();
            assertThat(server.byMethod()).isEqualTo(Map.of("GET", 1L));
            assertThat(server.requests().get(0).target()).doesNotContain("list-type");
            assertThat(tree.containersOpened()).isEqualTo(1);
        }
    }

    @Test
    void aFullWalkWithAWarmIndexCacheCostsAtMostOneRequestPerContainerBeyondTheListing(@TempDir Path cache)
            throws IOException {
        Object[] env = {"indexCache", cache.toString(), "indexCacheMinSize", 0, "cacheContainers", 16};
        Map<String, String> cold;
        try (EnsembleFileSystem tree = s3Tree(env)) {
            cold = walk(tree);
        }
        long coldRequests = server.total();
        server.reset();
        try (EnsembleFileSystem tree = s3Tree(env)) {
            Map<String, String> warm = walk(tree);
            assertThat(warm).isEqualTo(cold);
            long lists = server.requests().stream().filter(r -> r.target().contains("list-type=2")).count();
            long others = server.total() - lists;
            Map<String, Long> perObject = new TreeMap<>();
            server.requests().stream().filter(r -> !r.target().contains("list-type=2"))
                    .forEach(r -> perObject.merge(r.target(), 1L, Long::sum));
            perObject.values().removeIf(n -> n < 2);
            server.requests().stream().filter(r -> r.target().contains("list-type=2") && !r.target().endsWith("%2F"))
                    .forEach(r -> perObject.merge(r.target(), 1L, Long::sum));
            String seen = server.byMethod() + ", " + lists + " LIST, " + tree.containersOpened() + " opens, cold "
                    + coldRequests + "; objects read more than once: " + perObject;
            // the listing: one LIST per directory (each holds fewer than 1,000 names), the open's check of the prefix,
            // and the LIST that finds not-really.lime (named like a container, text inside) has no inside
            assertThat(lists).as(seen).isLessThanOrEqualTo(directories() + 2);
            // beyond it: at most one GET per container object, however many were evicted (the bound is 16)
            assertThat(others).as(seen).isLessThanOrEqualTo(containerObjects());
            assertThat(server.count("HEAD")).as(seen).isZero();
            assertThat(tree.containersOpened()).as(seen).isGreaterThan(300);
            assertThat(tree.peakContainersOpen()).isLessThanOrEqualTo(16);
        }
    }

    /** ls -lR: every path and its basic attributes, nothing read. */
    static Map<String, String> walk(FileSystem tree) throws IOException {
        Map<String, String> out = new TreeMap<>();
        Files.walkFileTree(tree.getPath("/"), new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
                out.put(dir.toString(), "dir");
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
                out.put(file.toString(), String.valueOf(a.size()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                out.put(file.toString(), "failed");
                return FileVisitResult.CONTINUE;
            }
        });
        return out;
    }

    @Test
    void aLongDirectoryIsListedPageByPage() throws IOException {
        try (EnsembleFileSystem tree = s3Tree("s3.listPageKeys", 7)) {
            server.reset();
            List<String> names;
            try (Stream<Path> s = Files.list(tree.getPath("/gen/stream0/part1"))) {
                names = s.map(p -> p.getFileName().toString()).toList();
            }
            assertThat(names).hasSize(26).isSorted();
            assertThat(server.total()).isEqualTo(4); // 26 names, 7 a page
            onlyListsSoFar();
        }
    }

    @Test
    void anObjectAddedToAPrefixAppearsOnTheNextListing() throws IOException {
        try (EnsembleFileSystem tree = s3Tree()) {
            Path dir = tree.getPath("/gen/stream1/part0");
            try (Stream<Path> s = Files.list(dir)) {
                assertThat(s.count()).isEqualTo(26);
            }
            put("runs/gen/stream1/part0/conf.9990.lime", lime(9990, 3));
            try {
                // known without a new listing too: a name missing from the kept listing is looked up
                assertThat(Files.isDirectory(dir.resolve("conf.9990.lime"))).isTrue();
                try (Stream<Path> s = Files.list(dir)) {
                    assertThat(s.map(p -> p.getFileName().toString())).contains("conf.9990.lime").hasSize(27);
                }
                assertThat(Files.readAllBytes(dir.resolve("conf.9990.lime/msg01/rec03.type-2")))
                        .isEqualTo("record 2 of configuration 9990".getBytes(StandardCharsets.US_ASCII));
            } finally {
                server.bulk().deleteObject(b -> b.bucket(BUCKET).key("runs/gen/stream1/part0/conf.9990.lime"));
            }
        }
    }

    @Test
    void plainObjectsReadAsTheyAre() throws IOException {
        try (EnsembleFileSystem tree = s3Tree()) {
            assertThat(Files.readString(tree.getPath("/README.txt"))).isEqualTo("an ensemble\n");
            Path record = tree.getPath("/gen/stream0/part0/conf.0010.lime/msg01/rec02.type-1");
            assertThat(record.toUri().toString()).startsWith("ensemble:s3://" + BUCKET + "/runs/!/gen/");
            assertThat(Path.of(record.toUri())).isEqualTo(record); // the URI leads back to the open tree
            assertThat(Files.readAllBytes(tree.getPath("/run2/lime/MANIFEST.tsv")))
                    .isEqualTo(Files.readAllBytes(local.resolve("run2/lime/MANIFEST.tsv")));
            assertThat(Files.isRegularFile(tree.getPath("/not-really.lime"))).isFalse(); // named like one: a directory
            assertThat(Files.readString(tree.getPath("/not-really.lime"))).startsWith("plain text"); // until used
            assertThat(Files.isRegularFile(tree.getPath("/not-really.lime"))).isTrue();
        }
    }

    @Test
    void aMissingPrefixOrPathIsNoSuchFile() throws IOException {
        assertThatThrownBy(() -> S3Containers.openTree(URI.create("s3://" + BUCKET + "/no-such-run/"), env()))
                .isInstanceOf(NoSuchFileException.class).hasMessageContaining("no-such-run");
        try (EnsembleFileSystem tree = s3Tree()) {
            assertThat(Files.exists(tree.getPath("/gen/stream9"))).isFalse();
            assertThat(Files.exists(tree.getPath("/gen/stream0/part0/conf.0001.lime/msg01"))).isFalse();
            assertThatThrownBy(() -> Files.list(tree.getPath("/README.txt")))
                    .isInstanceOf(java.nio.file.NotDirectoryException.class);
        }
        // the prefix without its trailing slash names the same tree
        try (EnsembleFileSystem tree = S3Containers.openTree(URI.create("s3://" + BUCKET + "/runs"), env())) {
            assertThat(Files.isDirectory(tree.getPath("/gen"))).isTrue();
        }
    }

    @Test
    void theListingKeptForAttributesIsBounded() throws IOException {
        try (S3TreeSource source = S3TreeSource.open(PREFIX, env(S3TreeSource.LIST_CACHE_ENTRIES, 30))) {
            for (String dir : List.of("part0", "part1")) {
                try (DirectoryStream<String> ds = source.list(List.of("gen", "stream0", dir))) {
                    ds.forEach(n -> { });
                }
                assertThat(source.keptNames()).isEqualTo(26); // the older directory made room
            }
        }
    }
}
