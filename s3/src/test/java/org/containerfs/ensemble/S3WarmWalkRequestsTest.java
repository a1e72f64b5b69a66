package org.containerfs.ensemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.containerfs.s3.S3Containers;
import org.containerfs.s3.S3TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3 bound for a full walk ({@code ls -lR}) of a prefix of containers of every format, counted as the
 * in-process server received the requests: with a cold index cache at most one GET per container beyond the LIST
 * pages; with a warm one no GET at all for a container whose listed ETag and size are those its cached index was
 * made for and whose format opens from that index without a read (LIME), at most one for the others, however many
 * containers the tree's cache evicted in between. And the bound never serves an index of other bytes: an object
 * replaced since (a new ETag) is scanned again, and one replaced after the tree listed it fails to read instead of
 * being read against the index of its former bytes.
 */
class S3WarmWalkRequestsTest {
    static final String BUCKET = "warm";
    static final URI PREFIX = URI.create("s3://" + BUCKET + "/mix/");
    static final Map<String, List<String>> CORPUS = Map.of(
            "gsd", List.of("hoomd_trajectory.gsd", "many_frames_index_growth.gsd", "types_all.gsd"),
            "scda", List.of("all_types.scda", "arrays.scda", "blocks.scda"),
            "sion", List.of("tasks16_blocks_bs512.sion", "par_single.sion"),
            "g3", List.of("simple-types.g3", "concatenated.g3", "all-frame-types.g3"));
    static S3TestServer server;
    /** Every container's key below the prefix. */
    static final List<String> containers = new ArrayList<>();
    /** The compressed ones among them. */
    static final List<String> compressed = new ArrayList<>();
    static int directories;

    @BeforeAll
    static void upload() throws Exception {
        server = new S3TestServer();
        server.bulk().createBucket(b -> b.bucket(BUCKET));
        // 48 generated LIME configurations in 4 directories, and copies of corpus files of the other formats
        for (int d = 0; d < 4; d++) {
            for (int c = 0; c < 12; c++) {
                put(String.format("lime/stream%d/conf.%04d.lime", d, c * 10), S3TreeTest.lime(d * 1000 + c, 12));
            }
            directories++;
        }
        Path corpus = Ensembles.corpus();
        for (int copy = 0; copy < 2; copy++) {
            for (Map.Entry<String, List<String>> format : CORPUS.entrySet()) {
                for (String name : format.getValue()) {
                    put("copy" + copy + "/" + format.getKey() + "/" + name,
                            Files.readAllBytes(corpus.resolve(format.getKey()).resolve(name)));
                }
            }
            directories += 1 + CORPUS.size();
        }
        // compressed: a LIME and a GSD (through the decompression layer) and a .g3.gz (which G3 reads as it is)
        Files.createDirectories(Path.of("target"));
        put("gz/conf.0001.lime.gz", gzip(S3TreeTest.lime(77, 40)));
        put("gz/hoomd_trajectory.gsd.gz", gzip(Files.readAllBytes(corpus.resolve("gsd/hoomd_trajectory.gsd"))));
        put("gz/simple-types.g3.gz", Files.readAllBytes(corpus.resolve("g3/simple-types.g3.gz")));
        directories++;
        putPlain("README.txt", "a mixed ensemble\n");
        putPlain("lime/stream0/params.txt", "beta=6.0\n");
        directories += 2; // the top and lime/
    }

    static void put(String key, byte[] bytes) {
        putPlain(key, bytes);
        containers.add(key);
        if (key.endsWith(".gz")) {
            compressed.add(key);
        }
    }

    static void putPlain(String key, String text) {
        putPlain(key, text.getBytes(StandardCharsets.UTF_8));
    }

    static void putPlain(String key, byte[] bytes) {
        server.bulk().putObject(b -> b.bucket(BUCKET).key("mix/" + key),
                software.amazon.awssdk.core.sync.RequestBody.fromBytes(bytes));
    }

    static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @BeforeEach
    void forget() {
        server.reset();
    }

    static Map<String, Object> env(Path cache, Object... pairs) {
        Map<String, Object> env = server.env(pairs);
        env.put("s3.client", server.bulk()); // patient: a busy machine must not turn into timeouts
        env.put("indexCache", cache.toString());
        env.put("cacheContainers", 8); // a walk evicts: every container is reopened on the next walk
        return env;
    }

    /** What a walk's requests were: LIST pages, and per object key the other requests. */
    record Counted(long lists, Map<String, Long> perObject, long total, String seen) {
        long others() {
            return total - lists;
        }

        static Counted now() {
            long lists = server.requests().stream().filter(r -> r.target().contains("list-type=2")).count();
            Map<String, Long> perObject = new TreeMap<>();
            server.requests().stream().filter(r -> !r.target().contains("list-type=2"))
                    .forEach(r -> perObject.merge(keyOf(r.target()), 1L, Long::sum));
            return new Counted(lists, perObject, server.total(), server.byMethod() + ", " + lists + " LIST; others per "
                    + "object: " + perObject);
        }

        static String keyOf(String target) {
            String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
            return path.substring(("/" + BUCKET + "/mix/").length());
        }
    }

    @Test
    void aFullWalkWithAWarmIndexCacheSendsNoGetForAContainerItsListingIdentifies(@TempDir Path cache)
            throws IOException {
        Map<String, String> cold;
        try (EnsembleFileSystem tree = S3Containers.openTree(PREFIX, env(cache))) {
            cold = S3TreeTest.walk(tree);
            assertThat(tree.containersOpened()).isEqualTo(containers.size());
        }
        Counted first = Counted.now();
        assertThat(cold.values()).doesNotContain("failed");
        // cold: the LIST pages (one per directory, and the open's check of the prefix), then at most one GET per container
        assertThat(first.lists()).as(first.seen()).isLessThanOrEqualTo(directories + 1);
        assertThat(first.perObject().keySet()).as(first.seen()).isSubsetOf(containers);
        assertThat(first.perObject().values()).as(first.seen()).allMatch(n -> n == 1);

        server.reset();
        try (EnsembleFileSystem tree = S3Containers.openTree(PREFIX, env(cache))) {
            assertThat(S3TreeTest.walk(tree)).isEqualTo(cold);
            assertThat(tree.containersOpened()).isEqualTo(containers.size());
            assertThat(tree.peakContainersOpen()).isLessThanOrEqualTo(8);
        }
        Counted again = Counted.now();
        System.out.printf("S3 walk of %d containers (%d compressed) in %d directories: cold %d LIST + %d others, "
                + "warm %d LIST + %d others (%s)%n", containers.size(), compressed.size(), directories, first.lists(),
                first.others(), again.lists(), again.others(), again.seen());
        assertThat(again.lists()).as(again.seen()).isLessThanOrEqualTo(directories + 1);
        // the bound: at most one request per container beyond the listing ...
        assertThat(again.others()).as(again.seen()).isLessThanOrEqualTo(containers.size());
        assertThat(again.perObject().values()).as(again.seen()).allMatch(n -> n == 1);
        // ... and none at all for a container whose cached entry names its format and serves without a read: every
        // LIME file here. (A compressed one's format is found through the decompression layer, from its head; GSD,
        // SCDA and SIONlib persist no index and scan, G3 reads its first two bytes to check the entry's kind: one
        // GET each, the whole of these small files.)
        assertThat(again.perObject().keySet()).as(again.seen())
                .noneMatch(k -> k.endsWith(".lime")).isNotEmpty();
        assertThat(again.others()).as(again.seen()).isLessThanOrEqualTo(containers.stream().filter(k -> !k.endsWith(".lime")).count());
        assertThat(server.mutating()).isZero();
    }

    @Test
    void aRecordOfAContainerOpenedWithoutARequestIsOneGetOfTheListedVersion(@TempDir Path cache) throws IOException {
        String key = "lime/stream2/conf.0030.lime";
        try (EnsembleFileSystem tree = S3Containers.openTree(PREFIX, env(cache))) {
            S3TreeTest.walk(tree); // cold: indexes saved
        }
        try (EnsembleFileSystem tree = S3Containers.openTree(PREFIX, env(cache))) {
            try (var names = Files.list(tree.getPath("/lime/stream2"))) {
                assertThat(names.count()).isEqualTo(12);
            }
            server.reset();
            Path record = tree.getPath("/" + key + "/msg01/rec03.type-2");
            assertThat(Files.size(record)).isEqualTo("record 2 of configuration 2003".length());
            assertThat(server.total()).as("the open from the listing and the cached index").isZero();
            assertThat(Files.readString(record)).isEqualTo("record 2 of configuration 2003");
            assertThat(server.byMethod()).isEqualTo(Map.of("GET", 1L));
            assertThat(server.requests().get(0).target()).endsWith("/mix/" + key);
        }
    }

    @Test
    void anObjectReplacedSinceItsIndexWasCachedIsScannedAgainAndOneReplacedAfterTheListingFailsToRead(
            @TempDir Path cache) throws IOException {
        String key = "lime/stream1/conf.0050.lime";
        byte[] before = S3TreeTest.lime(1005, 12);
        byte[] after = S3TreeTest.lime(1995, 12); // the same size, other bytes: only the ETag tells them apart
        assertThat(after).hasSameSizeAs(before);
        String recordPath = "/" + key + "/msg01/rec03.type-2";
        try {
            try (EnsembleFileSystem tree = S3Containers.openTree(PREFIX, env(cache))) {
                S3TreeTest.walk(tree); // every index cached, this one's for the ETag of `before`
                assertThat(Files.readString(tree.getPath(recordPath))).isEqualTo("record 2 of configuration 1005");
            }
            putPlain(key, after);
            // a new tree lists the new ETag: no cached entry is for it, the container is read and scanned again
            try (EnsembleFileSystem tree = S3Containers.openTree(PREFIX, env(cache))) {
                server.reset();
                assertThat(Files.readString(tree.getPath(recordPath))).isEqualTo("record 2 of configuration 1995");
                assertThat(server.requests()).as("one LIST of its directory, one GET of the object")
                        .anySatisfy(r -> assertThat(r.target()).endsWith("/mix/" + key));
            }
            // a tree that listed the object, which is replaced afterwards: opened as listed (its cached entry serves
            // the names), and its bytes are asked for only as that version: an error, never the former bytes
            try (EnsembleFileSystem tree = S3Containers.openTree(PREFIX, env(cache))) {
                try (var names = Files.list(tree.getPath("/lime/stream1"))) {
                    assertThat(names.count()).isEqualTo(12);
                }
                putPlain(key, before);
                assertThatThrownBy(() -> Files.readString(tree.getPath(recordPath)))
                        .isInstanceOf(IOException.class).hasMessageContaining(key).hasMessageContaining("replaced");
            }
            try (EnsembleFileSystem tree = S3Containers.openTree(PREFIX, env(cache))) {
                assertThat(Files.readString(tree.getPath(recordPath))).isEqualTo("record 2 of configuration 1005");
            }
        } finally {
            putPlain(key, before);
        }
    }
}
