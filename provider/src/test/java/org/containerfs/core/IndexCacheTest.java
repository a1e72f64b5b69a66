package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.containerfs.storage.InputIdentity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The persisted index cache, on LIME files. "No scan" is proven by damaging record headers in the
 * middle of the container behind the cache's back (same size, same modification time): a scan would
 * stop at the damage and list fewer records, an open from the cache lists them all.
 */
class IndexCacheTest {
    private static final int RECORDS = 60;
    private static final int PAYLOAD = 200;
    private static final int RECORD_BYTES = 144 + 200; // 200 is a multiple of 8: no padding

    @TempDir
    Path dir;
    Path cache;
    Path file;
    private final List<String> warnings = new ArrayList<>();
    private final Logger jul = Logger.getLogger(IndexCache.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                synchronized (warnings) {
                    warnings.add(r.getMessage());
                }
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void setUp() throws IOException {
        cache = dir.resolve("cache");
        file = dir.resolve("conf.lime");
        Files.write(file, lime(RECORDS, "ildg-binary-data"));
        settle(file);
        jul.addHandler(capture);
        jul.setUseParentHandlers(false); // the warnings are asserted, not printed
    }

    @AfterEach
    void tearDown() {
        jul.removeHandler(capture);
        jul.setUseParentHandlers(true);
    }

    private Map<String, Object> env() {
        Map<String, Object> env = new HashMap<>();
        env.put("indexCache", cache.toString());
        env.put("indexCacheMinSize", 0);
        return env;
    }

    /** Records of PAYLOAD bytes, a message of two records each, types {@code type}/{@code type}-xml alternating. */
    static byte[] lime(int records, String type) {
        ByteBuffer b = ByteBuffer.allocate(records * RECORD_BYTES);
        for (int r = 0; r < records; r++) {
            b.putInt(0x456789AB).putShort((short) 1);
            b.put((byte) (r % 2 == 0 ? 0x80 : 0x40)).put((byte) 0).putLong(PAYLOAD);
            byte[] t = (r % 2 == 0 ? type : type + "-xml").getBytes(StandardCharsets.US_ASCII);
            b.put(t).position(b.position() + 128 - t.length);
            for (int i = 0; i < PAYLOAD; i++) {
                b.put((byte) (r + i));
            }
        }
        return b.array();
    }

    /** Sets the modification time well in the past: the cache saves no entry for a racily new file. */
    static void settle(Path p) throws IOException {
        Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - 60_000 - Files.size(p)));
    }

    /** Overwrites record {@code r}'s magic, keeping the file's size and modification time. */
    private void damageHeaderBehindTheCachesBack(int r) throws IOException {
        FileTime mtime = Files.getLastModifiedTime(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), (long) r * RECORD_BYTES);
        }
        Files.setLastModifiedTime(file, mtime);
    }

    private List<String> listing(Map<String, Object> env) throws IOException {
        try (FileSystem fs = ContainerFileSystems.open(file, env); Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            List<String> out = new ArrayList<>();
            for (Path p : (Iterable<Path>) walk::iterator) {
                out.add(p + (Files.isRegularFile(p) ? " " + Files.size(p) : ""));
            }
            return out;
        }
    }

    private List<Path> entries() throws IOException {
        if (!Files.isDirectory(cache)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(cache)) {
            return s.toList();
        }
    }

    @Test
    void anUnchangedContainerReopensFromTheCacheWithoutAScan() throws IOException {
        List<String> first = listing(env());
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.SCANNED);
        assertThat(first).hasSize(1 + RECORDS / 2 + RECORDS);
        assertThat(entries()).singleElement().satisfies(e -> assertThat(e.getFileName().toString()).endsWith(".cfsidx"));

        damageHeaderBehindTheCachesBack(RECORDS / 2);
        assertThat(listing(env())).isEqualTo(first);
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.CACHED);
        // and without the cache the damage shows: a scan stops there
        assertThat(listing(Map.of("indexCache", "off"))).hasSizeLessThan(first.size());
        assertThat(warnings).isEmpty();
    }

    /** The same through a ContainerInput (the route of remote stores), here one that says it is remote. */
    @Test
    void aContainerInputReopensFromTheCacheByItsIdentity() throws IOException {
        List<String> first = listing(env());
        damageHeaderBehindTheCachesBack(RECORDS / 2);
        for (boolean remote : new boolean[] {false, true}) {
            try (FileSystem fs = ContainerFileSystems.open(org.containerfs.storage.PathInput.of(file, remote), env());
                    Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.CACHED);
                List<String> seen = new ArrayList<>();
                for (Path p : (Iterable<Path>) walk::iterator) {
                    seen.add(p + (Files.isRegularFile(p) ? " " + Files.size(p) : ""));
                }
                assertThat(seen).isEqualTo(first);
            }
        }
    }

    @Test
    void aGrownContainerReusesTheCachedPrefixAndScansOnlyTheNewTail() throws IOException {
        List<String> first = listing(env());
        damageHeaderBehindTheCachesBack(RECORDS / 2);
        byte[] more = lime(RECORDS + 4, "ildg-binary-data");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(more, RECORDS * RECORD_BYTES, 4 * RECORD_BYTES));
        }
        settle(file);
        List<String> grown = listing(env());
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.CACHED_AND_TAIL);
        assertThat(grown).containsAll(first).hasSize(first.size() + 2 + 4)
                .contains("/msg32/rec02.ildg-binary-data-xml " + PAYLOAD);
        // the entry now covers the grown container
        listing(env());
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.CACHED);
    }

    @Test
    void aChangedOrReplacedContainerIsScannedAgain() throws IOException {
        listing(env());
        // same size, other bytes, another modification time
        Files.write(file, lime(RECORDS, "scidac-binary-data"));
        settle(file);
        Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() - 5000));
        assertThat(listing(env())).contains("/msg01/rec01.scidac-binary-data " + PAYLOAD);
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.SCANNED);
        // replaced by a larger file whose first bytes differ: not taken for a grown one
        Files.write(file, lime(RECORDS + 2, "other-type"));
        settle(file);
        assertThat(listing(env())).contains("/msg31/rec01.other-type " + PAYLOAD).hasSize(1 + 31 + RECORDS + 2);
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.SCANNED);
        // shrunk
        Files.write(file, lime(4, "small"));
        settle(file);
        assertThat(listing(env())).hasSize(1 + 2 + 4);
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.SCANNED);
        assertThat(warnings).isEmpty();
    }

    @Test
    void corruptTruncatedAndForeignEntriesAreIgnoredWithAWarning() throws IOException {
        List<String> truth = listing(env());
        Path entry = entries().get(0);
        byte[] good = Files.readAllBytes(entry);

        byte[] flipped = good.clone();
        flipped[flipped.length / 2] ^= 0x10;
        Files.write(entry, flipped);
        assertThat(listing(env())).isEqualTo(truth);
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.SCANNED);
        assertThat(warnings).singleElement().asString().contains("checksum mismatch");

        Files.write(entry, java.util.Arrays.copyOf(good, good.length - 7));
        warnings.clear();
        assertThat(listing(env())).isEqualTo(truth);
        assertThat(warnings).singleElement().asString().contains("checksum mismatch");

        // another container's entry under this one's name
        Path other = dir.resolve("other.lime");
        Files.write(other, lime(8, "x"));
        settle(other);
        try (FileSystem fs = ContainerFileSystems.open(other, env())) {
            assertThat(fs.isOpen()).isTrue();
        }
        Path otherEntry = entries().stream().filter(p -> !p.equals(entry)).findFirst().orElseThrow();
        Files.copy(otherEntry, entry, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        warnings.clear();
        assertThat(listing(env())).isEqualTo(truth);
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.SCANNED);
        assertThat(warnings).singleElement().asString().contains("foreign entry");

        Files.write(entry, "not an entry at all".getBytes(StandardCharsets.US_ASCII));
        warnings.clear();
        assertThat(listing(env())).isEqualTo(truth);
        assertThat(warnings).singleElement().asString().contains("magic");
        // every ignored entry was replaced by a sound one
        listing(env());
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.CACHED);
    }

    /**
     * Entries whose checksum is right but whose snapshot was tampered with (a crafted entry): each is
     * ignored with a warning, or else describes records a scan could have found at the same places;
     * nothing throws, and every listed record reads within the file.
     */
    @Test
    void craftedLimeSnapshotsAreCheckedNeverTrusted() throws Exception {
        int ignored = fuzzEntries(file, "lime", 300, seen -> assertThat(seen.stream().filter(s -> s.contains("/rec") && !s.contains(" read ")).count())
                .isEqualTo(RECORDS));
        assertThat(ignored).isGreaterThan(150);
    }

    /** The same for G3 snapshots: a plain file of the corpus, one with a large blob, and a .g3.gz. */
    @Test
    void craftedG3SnapshotsAreCheckedNeverTrusted() throws Exception {
        Path corpus = TestContainers.corpus("s01_single_record.lime").getParent().getParent().resolve("g3");
        for (String name : List.of("simple-types.g3", "concatenated.g3", "simple-types.g3.gz")) {
            Path g3 = dir.resolve(name);
            Files.copy(corpus.resolve(name), g3);
            settle(g3);
            int ignored = fuzzEntries(g3, "g3", 150, seen -> { });
            assertThat(ignored).as(name).isGreaterThan(50);
        }
    }

    /**
     * Opens {@code container} once (writing its entry), then {@code trials} times with the entry's
     * snapshot mutated (random bytes, 0xFF, zeros, truncation) under a valid checksum. Every open
     * succeeds; a read of a listed file fails at most with an IOException; an ignored entry gives the
     * scanned tree and one warning, an accepted one is checked by {@code accepted}. Returns how many
     * entries were ignored.
     */
    private int fuzzEntries(Path container, String format, int trials,
            java.util.function.Consumer<List<String>> accepted) throws Exception {
        Map<String, Object> env = env();
        List<String> truth = tree(container, format, env);
        Path entry = entries().stream().filter(p -> p.getFileName().toString().startsWith(format + "-"))
                .filter(p -> {
                    try {
                        return new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1).contains(container.getFileName().toString());
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }).findFirst().orElseThrow();
        byte[] snapshot = snapshotOf(entry);
        InputIdentity identity;
        byte[] sample;
        try (org.containerfs.spi.ContainerChannel ch = org.containerfs.spi.ContainerChannel.open(container,
                java.util.EnumSet.of(StandardOpenOption.READ))) {
            identity = IndexCache.pathObserver(container, ch).observe().identity();
            sample = IndexCache.sample(new org.containerfs.spi.ContainerSource(container, ch,
                    new org.containerfs.spi.FormatOptions(Map.of()), false), identity.size());
        }
        // reading must not rewrite the entry under test
        Map<String, Object> readOnlyCache = new HashMap<>(env);
        readOnlyCache.put("indexCacheMinSize", Long.MAX_VALUE);
        Random random = new Random(14);
        int ignored = 0;
        int warned = 0;
        for (int trial = 0; trial < trials; trial++) {
            byte[] mutated = snapshot.clone();
            int edits = 1 + random.nextInt(3);
            for (int i = 0; i < edits; i++) {
                int at = random.nextInt(mutated.length);
                mutated[at] = switch (random.nextInt(3)) {
                    case 0 -> (byte) random.nextInt(256);
                    case 1 -> (byte) 0xFF;
                    default -> 0;
                };
            }
            if (random.nextInt(10) == 0) {
                mutated = java.util.Arrays.copyOf(mutated, random.nextInt(mutated.length));
            }
            try (java.io.OutputStream out = Files.newOutputStream(entry)) {
                for (byte[] part : IndexCache.entry(format, identity, sample, mutated)) {
                    out.write(part);
                }
            }
            warnings.clear();
            List<String> seen = tree(container, format, readOnlyCache);
            if (IndexCache.lastOutcome() == IndexCache.Outcome.SCANNED) {
                ignored++;
                assertThat(seen).isEqualTo(truth);
                // a warning, unless the snapshot only claimed other options (a restart span), which is no damage
                assertThat(warnings).hasSizeLessThanOrEqualTo(1);
                warned += warnings.size();
            } else {
                accepted.accept(seen);
            }
        }
        assertThat(warned).isGreaterThan(ignored * 9 / 10);
        return ignored;
    }

    /** Paths with sizes, then every file read whole: its length, or the IOException it failed with. */
    private static List<String> tree(Path container, String format, Map<String, Object> env) throws IOException {
        List<String> out = new ArrayList<>();
        try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(container, env);
                Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                out.add(p + (Files.isRegularFile(p) ? " " + Files.size(p) : ""));
                if (Files.isRegularFile(p)) {
                    try {
                        out.add(p + " read " + Files.readAllBytes(p).length);
                    } catch (IOException e) {
                        out.add(p + " " + e.getClass().getSimpleName());
                    }
                }
            }
        }
        return out;
    }

    /** The format's snapshot inside an entry: what follows the 32-byte sample and the length. */
    private static byte[] snapshotOf(Path entry) throws IOException {
        byte[] raw = Files.readAllBytes(entry);
        ByteBuffer b = ByteBuffer.wrap(raw, 0, raw.length - 4);
        b.getLong();
        for (int i = 0; i < 2; i++) {
            b.position(b.position() + 4 + b.getInt(b.position()));
        }
        b.getLong();
        b.position(b.position() + 4 + b.getInt(b.position()) + 32);
        byte[] snapshot = new byte[b.getInt()];
        b.get(snapshot);
        return snapshot;
    }

    @Test
    void indexCacheOffWritesNothing() throws IOException {
        listing(Map.of("indexCache", "off", "indexCacheMinSize", 0));
        assertThat(IndexCache.lastOutcome()).isEqualTo(IndexCache.Outcome.DISABLED);
        assertThat(entries()).isEmpty();
        assertThat(Files.exists(cache)).isFalse();
    }

    @Test
    void noEntryForARacilyNewSmallOrWritableContainer() throws IOException {
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
        listing(env());
        assertThat(entries()).isEmpty();
        settle(file);
        listing(Map.of("indexCache", cache.toString())); // below the default 1 MiB
        assertThat(entries()).isEmpty();
        Map<String, Object> writable = env();
        writable.put("accessMode", "readWrite");
        try (FileSystem fs = ContainerFileSystems.open(file, writable)) {
            assertThat(fs.isReadOnly()).isFalse();
        }
        assertThat(entries()).isEmpty();
    }

    @Test
    void entriesAreRenamedIntoPlaceAndAFailedWriteLeavesNothing() throws IOException {
        listing(env());
        Path entry = entries().get(0);
        // an entry path that cannot be replaced: the write fails, the open does not, no temporary file is left
        Files.delete(entry);
        Files.createDirectories(entry.resolve("occupied"));
        assertThat(listing(env())).hasSize(1 + RECORDS / 2 + RECORDS);
        assertThat(warnings).hasSize(2).last().asString().contains("could not save");
        assertThat(entries()).containsExactly(entry);
        Files.delete(entry.resolve("occupied"));
        Files.delete(entry);
        listing(env());
        assertThat(entries()).containsExactly(entry); // no *.tmp beside it
        assertThat(Files.readAllBytes(entry)).startsWith("CFSIDX01".getBytes(StandardCharsets.US_ASCII));
    }
}
