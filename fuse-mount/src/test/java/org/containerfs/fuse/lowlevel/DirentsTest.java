package org.containerfs.fuse.lowlevel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.containerfs.fuse.LibFuse;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The READDIR(PLUS) records the engine writes in Java ({@link Dirents}) against the ones the installed
 * libfuse writes for the same entry ({@code fuse_add_direntry}, {@code fuse_add_direntry_plus}): byte for
 * byte, for names of every padding (ASCII names are written without a byte array, others through their UTF-8
 * bytes: both ways here), multi-byte and NUL-cut names, timeouts with fractions, huge and negative
 * values, and a buffer too small (the same length asked, nothing written).
 */
class DirentsTest {
    private static LowLevelLibrary lib;

    @BeforeAll
    static void libfuse() throws Exception {
        String reason = LibFuse.unavailableReason();
        if (reason != null) {
            if (System.getenv("CI") != null) {
                fail("libfuse is required in CI but not available: " + reason);
            }
            Assumptions.abort("no libfuse3 here (and CI is unset): " + reason);
        }
        lib = LowLevelLibrary.load(LibFuse.locate());
    }

    private static final List<String> NAMES = List.of("", ".", "..", "a", "ab", "rec01", "rec01.x", "rec0001.scidac",
            "rec01.scidac-record-xml", "a-name-of-exactly-32-characters!", "żółć-µ-名前", "cut\0here",
            "x".repeat(255));

    private static final List<FileAttributes> ATTRIBUTES = List.of(
            new FileAttributes(2, FileAttributes.S_IFREG | 0444, 16, 1, 1000, 1000, 1_764_300_000L, 123_456_789,
                    1_764_300_001L, 5),
            new FileAttributes(0x7fff_ffff_ffffL, FileAttributes.S_IFDIR | 0555, 0, 0, 0, 0, 0, 0, 0, 0),
            new FileAttributes(Long.MAX_VALUE, FileAttributes.S_IFREG | 0644, Long.MAX_VALUE, Long.MAX_VALUE / 512,
                    -2, 65534, -1, 999_999_999, Long.MIN_VALUE, 1));

    private static final double[] TIMEOUTS = {3600, 0, 1.5, 0.25, 1e-10, 0.9999999995, -1, 1e300, 86400.000001};

    @Test
    void plusRecordsAreLibfusesByteForByte() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ours = arena.allocate(2048, 8);
            MemorySegment theirs = arena.allocate(2048, 8);
            MemorySegment param = arena.allocate(Abi.ENTRY_SIZE, 8);
            int cases = 0;
            for (String name : NAMES) {
                for (FileAttributes a : ATTRIBUTES) {
                    for (int t = 0; t < TIMEOUTS.length; t++) {
                        double entryTimeout = TIMEOUTS[t];
                        double attrTimeout = TIMEOUTS[(t + 3) % TIMEOUTS.length];
                        long nodeId = a.ino() ^ 0x5a5a;
                        long generation = 7L * t + 1;
                        long next = 3L + t + ((long) cases << 20);
                        ours.fill((byte) 0xa5);
                        theirs.fill((byte) 0xa5);
                        long ourLength = Dirents.plus(ours, 8, 2040, name, nodeId, generation, a,
                                entryTimeout, attrTimeout, next);
                        Request.writeEntry(param, nodeId, a, generation, entryTimeout, attrTimeout);
                        MemorySegment cName = arena.allocateFrom(name.substring(0,
                                name.indexOf('\0') < 0 ? name.length() : name.indexOf('\0')));
                        long theirLength = (long) lib.addDirentryPlus.handle().invokeExact(MemorySegment.NULL,
                                theirs.asSlice(8), 2040L, cName, param, next);
                        assertThat(ourLength).as("length of %s", name).isEqualTo(theirLength);
                        assertThat(ours.toArray(ValueLayout.JAVA_BYTE))
                                .as("record of %s, %s, timeouts %s/%s", name, a, entryTimeout, attrTimeout)
                                .isEqualTo(theirs.toArray(ValueLayout.JAVA_BYTE));
                        cases++;
                    }
                }
            }
            assertThat(cases).isEqualTo(NAMES.size() * ATTRIBUTES.size() * TIMEOUTS.length);
        }
    }

    @Test
    void plainRecordsAreLibfusesByteForByte() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ours = arena.allocate(1024, 8);
            MemorySegment theirs = arena.allocate(1024, 8);
            MemorySegment stat = arena.allocate(Abi.STAT.size(), 8);
            for (String name : NAMES) {
                for (FileAttributes a : ATTRIBUTES) {
                    ours.fill((byte) 0xa5);
                    theirs.fill((byte) 0xa5);
                    long next = a.size() ^ name.length();
                    long ourLength = Dirents.plain(ours, 16, 1008, name, a.ino(), a.mode(), next);
                    stat.fill((byte) 0);
                    stat.set(Abi.LONG, Abi.STAT.ino(), a.ino());
                    stat.set(Abi.INT, Abi.STAT.mode(), a.mode());
                    MemorySegment cName = arena.allocateFrom(name.replaceAll("\0.*", ""));
                    long theirLength = (long) lib.addDirentry.handle().invokeExact(MemorySegment.NULL, theirs.asSlice(16),
                            1008L, cName, stat, next);
                    assertThat(ourLength).as("length of %s", name).isEqualTo(theirLength);
                    assertThat(ours.toArray(ValueLayout.JAVA_BYTE)).as("record of %s, %s", name, a)
                            .isEqualTo(theirs.toArray(ValueLayout.JAVA_BYTE));
                }
            }
        }
    }

    @Test
    void aRecordThatDoesNotFitAsksItsLengthAndWritesNothing() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(512, 8);
            byte[] name = "rec01.scidac-record-xml".getBytes(StandardCharsets.UTF_8); // 23 bytes
            long plusLength = (Dirents.DIRENTPLUS_NAME + name.length + 7) & ~7L;
            long plainLength = (Dirents.DIRENT_NAME + name.length + 7) & ~7L;
            assertThat(plusLength).isEqualTo(176);
            assertThat(plainLength).isEqualTo(48);
            buf.fill((byte) 0x33);
            FileAttributes a = ATTRIBUTES.get(0);
            assertThat(Dirents.plus(buf, 0, plusLength - 1, name, 9, 1, a, 1, 1, 4)).isEqualTo(plusLength);
            assertThat(Dirents.plain(buf, 0, plainLength - 1, name, 9, a.mode(), 4)).isEqualTo(plainLength);
            assertThat(buf.toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0x33);
            assertThat(Dirents.plus(buf, 0, plusLength, name, 9, 1, a, 1, 1, 4)).isEqualTo(plusLength);
            assertThat(buf.get(ValueLayout.JAVA_BYTE, plusLength)).isEqualTo((byte) 0x33);
        }
    }
}
