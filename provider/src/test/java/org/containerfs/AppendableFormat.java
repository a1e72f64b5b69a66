package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;

/**
 * The four formats that grow by appending, each with one append unit whose bytes are a function of
 * its index alone (LIME: a record of {@code /msg01}; GSD: a frame of two chunks; scda: a B section
 * and an A array in turn; G3: a frame of two keys), so a reader in another thread or process can
 * check every byte it sees. Units are written in 4 KiB pieces, so a reader can meet one half written.
 */
public enum AppendableFormat {
    LIME("lime", "/msg01") {
        @Override
        void append(FileSystem fs, int unit, int maxBytes) throws IOException {
            if (unit == 0) {
                Files.createDirectory(fs.getPath("/msg01"));
            }
            write(fs.getPath("/msg01", unitName(unit)), bytes(unit, 0, maxBytes));
        }

        @Override
        String unitName(int unit) {
            return String.format("rec%02d.unit", unit + 1);
        }

        @Override
        Map<String, byte[]> files(int unit, int maxBytes) {
            return Map.of(unitName(unit), bytes(unit, 0, maxBytes));
        }
    },
    GSD("gsd", "/") {
        @Override
        void append(FileSystem fs, int unit, int maxBytes) throws IOException {
            Path frame = Files.createDirectory(fs.getPath("/" + unitName(unit)));
            Files.createDirectories(frame.resolve("unit"));
            for (Map.Entry<String, byte[]> chunk : files(unit, maxBytes).entrySet()) {
                write(fs.getPath("/" + chunk.getKey()), chunk.getValue(), ContainerFileSystems.attribute("gsd:type", "uint8"),
                        ContainerFileSystems.attribute("gsd:M", 1));
            }
            Files.setAttribute(frame, "gsd:commit", true);
        }

        @Override
        String unitName(int unit) {
            return Integer.toString(unit);
        }

        @Override
        Map<String, byte[]> files(int unit, int maxBytes) {
            Map<String, byte[]> files = new LinkedHashMap<>();
            files.put(unit + "/unit/index", ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, unit).array());
            files.put(unit + "/unit/data", bytes(unit, 1, maxBytes));
            return files;
        }
    },
    SCDA("scda", "/") {
        @Override
        void append(FileSystem fs, int unit, int maxBytes) throws IOException {
            Path section = fs.getPath("/" + unitName(unit));
            if (unit % 2 == 0) {
                write(section, bytes(unit, 0, maxBytes));
                return;
            }
            Files.createDirectory(section);
            for (Map.Entry<String, byte[]> element : files(unit, maxBytes).entrySet()) {
                write(fs.getPath("/" + element.getKey()), element.getValue());
            }
            Files.setAttribute(section, "scda:commit", true);
        }

        /** Even units are B sections (files), odd ones A arrays (directories of equal-sized elements). */
        @Override
        String unitName(int unit) {
            return String.format("%04d.%s.unit %d", unit, unit % 2 == 0 ? "B" : "A", unit);
        }

        @Override
        Map<String, byte[]> files(int unit, int maxBytes) {
            if (unit % 2 == 0) {
                return Map.of(unitName(unit), bytes(unit, 0, maxBytes));
            }
            int elements = 1 + unit % 5;
            int size = 1 + Math.floorMod(unit * 7919, Math.max(1, maxBytes / elements));
            Map<String, byte[]> files = new LinkedHashMap<>();
            for (int e = 0; e < elements; e++) {
                files.put(unitName(unit) + String.format("/%06d", e), bytes(unit * 31L + e, size));
            }
            return files;
        }
    },
    G3("g3", "/") {
        @Override
        void append(FileSystem fs, int unit, int maxBytes) throws IOException {
            Path frame = Files.createDirectory(fs.getPath("/" + unitName(unit)));
            for (Map.Entry<String, byte[]> key : files(unit, maxBytes).entrySet()) {
                write(fs.getPath("/" + key.getKey()), key.getValue());
            }
            Files.setAttribute(frame, "g3:commit", true);
        }

        @Override
        String unitName(int unit) {
            return String.format("%06d.Scan", unit);
        }

        @Override
        Map<String, byte[]> files(int unit, int maxBytes) {
            Map<String, byte[]> files = new LinkedHashMap<>();
            files.put(unitName(unit) + "/index", ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, unit).array());
            files.put(unitName(unit) + "/data", bytes(unit, 1, maxBytes));
            return files;
        }
    };

    private static final int PIECE = 4096;

    /** The format's name, which is also its file extension. */
    public final String format;
    /** The directory whose entries are the units. */
    public final String unitDirectory;

    AppendableFormat(String format, String unitDirectory) {
        this.format = format;
        this.unitDirectory = unitDirectory;
    }

    /** Creates the container and opens it for appending. */
    public FileSystem create(Path file) throws IOException {
        return ContainerFileSystems.create(file, format);
    }

    /** Opens the container read-only (with live refresh, the default). */
    public FileSystem openReadOnly(Path file) throws IOException {
        return ContainerFileSystems.provider(format).newFileSystem(file, Map.of());
    }

    /** Appends unit {@code unit} (units are appended in order from 0) and returns once it is committed. */
    abstract void append(FileSystem fs, int unit, int maxBytes) throws IOException;

    /** The name of unit {@code unit} in {@link #unitDirectory}. */
    abstract String unitName(int unit);

    /** Every file of unit {@code unit}: its path relative to {@link #unitDirectory}, and its bytes. */
    abstract Map<String, byte[]> files(int unit, int maxBytes);

    /** The unit an entry of {@link #unitDirectory} is, or -1 if it is no unit's name. */
    int unitOf(String name) {
        int start = this == LIME ? 3 : 0;
        int end = start;
        while (end < name.length() && end - start < 9 && Character.isDigit(name.charAt(end))) {
            end++;
        }
        if (end == start) {
            return -1;
        }
        int unit = Integer.parseInt(name.substring(start, end)) - (this == LIME ? 1 : 0);
        return unit >= 0 && unitName(unit).equals(name) ? unit : -1;
    }

    /**
     * The units listed in {@link #unitDirectory} now, in listing order; fails on any entry that is no
     * unit's name. A LIME container without a record has no {@code /msg01} yet: no units.
     */
    List<Integer> listUnits(FileSystem fs) throws IOException {
        List<String> names;
        try (Stream<Path> list = Files.list(fs.getPath(unitDirectory))) {
            names = list.map(p -> p.getFileName().toString()).collect(Collectors.toList());
        } catch (NoSuchFileException noMessageYet) {
            assertThat(this).as("only LIME's unit directory is created by the first unit").isEqualTo(LIME);
            return List.of();
        }
        List<Integer> units = new ArrayList<>();
        for (String name : names) {
            int unit = unitOf(name);
            assertThat(unit).as("%s: listed entry '%s' is a unit's name", this, name).isNotNegative();
            units.add(unit);
        }
        return units;
    }

    /**
     * Checks unit {@code unit} as {@code fs} shows it: exactly the expected files, each read whole or
     * from a random position to its end, byte for byte.
     */
    void check(FileSystem fs, int unit, int maxBytes, Random random) throws IOException {
        Map<String, byte[]> expected = files(unit, maxBytes);
        Path directory = fs.getPath(unitDirectory);
        Path unitPath = directory.resolve(unitName(unit));
        Set<String> present;
        try (Stream<Path> walk = Files.walk(unitPath)) {
            present = walk.filter(Files::isRegularFile).map(p -> directory.relativize(p).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertThat(present).as("%s unit %d: its files", this, unit).isEqualTo(new TreeSet<>(expected.keySet()));
        for (Map.Entry<String, byte[]> file : expected.entrySet()) {
            Path p = directory.resolve(file.getKey());
            byte[] want = file.getValue();
            if (random.nextBoolean()) {
                assertThat(Files.readAllBytes(p)).as("%s: bytes of %s", this, p).isEqualTo(want);
                continue;
            }
            int from = random.nextInt(want.length);
            ByteBuffer got = ByteBuffer.allocate(want.length - from);
            try (SeekableByteChannel ch = Files.newByteChannel(p)) {
                assertThat(ch.size()).as("%s: size of %s", this, p).isEqualTo(want.length);
                ch.position(from);
                while (got.hasRemaining() && ch.read(got) > 0) {
                    // fill
                }
            }
            assertThat(got.array()).as("%s: bytes of %s from byte %d", this, p, from)
                    .isEqualTo(Arrays.copyOfRange(want, from, want.length));
        }
    }

    /** 1 to {@code maxBytes} bytes, a function of (unit, part). */
    static byte[] bytes(int unit, int part, int maxBytes) {
        return bytes(unit * 131L + part, 1 + Math.floorMod(unit * 7919 + part * 104729, maxBytes));
    }

    static byte[] bytes(long seed, int length) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Writes a new file in 4 KiB pieces (the provider streams most formats straight into the container). */
    static void write(Path file, byte[] data, FileAttribute<?>... attributes) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(file,
                EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes)) {
            for (int off = 0; off < data.length; off += PIECE) {
                ByteBuffer piece = ByteBuffer.wrap(data, off, Math.min(PIECE, data.length - off));
                while (piece.hasRemaining()) {
                    ch.write(piece);
                }
            }
        }
    }
}
