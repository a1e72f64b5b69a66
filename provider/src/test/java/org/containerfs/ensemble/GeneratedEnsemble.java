package org.containerfs.ensemble;

import static org.containerfs.core.ContainerFileSystems.attribute;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.g3.G3Blobs;
import org.containerfs.g3.G3Value;

/**
 * A generated ensemble for the tests of every door (the library, the CLI, the mount): {@code containers}
 * small containers of all five formats, written with the provider's own writers, in nested directories
 * ({@code run<k>/} and {@code run<k>/deeper/}), plain files beside them, one damaged container (a LIME
 * file cut in the middle of its last record's payload), one container the tests grow
 * ({@code live/grow.lime}) and a SIONlib set of two files ({@code run1/deeper/spikes.sion} and its
 * {@code .000001}: one container, the second file part of it). Deterministic: the same call makes the same bytes.
 *
 * <p>Used by the cli and fuse-mount tests through the provider's test jar.
 */
public final class GeneratedEnsemble {
    /** The five formats' file name endings, in the order container {@code i} takes them ({@code i % 5}). */
    public static final List<String> EXTENSIONS = List.of("lime", "gsd", "scda", "sion", "g3");

    /** The directory made, and its files by kind, each relative to it with '/' separators. */
    public record Layout(Path root, List<String> containers, List<String> plainFiles, String damaged, String growing) {
        /** Every directory of the source below the root (not the root itself). */
        public List<String> directories() throws IOException {
            try (var s = Files.walk(root)) {
                return s.filter(Files::isDirectory).filter(d -> !d.equals(root))
                        .map(d -> root.relativize(d).toString().replace('\\', '/')).sorted().toList();
            }
        }
    }

    private GeneratedEnsemble() {}

    /**
     * Makes the ensemble under {@code root}: {@code containers} containers in all (the damaged one and the
     * growing one among them), 10 run directories, each with a nested one.
     */
    public static Layout make(Path root, int containers) throws IOException {
        if (containers < 10) {
            throw new IllegalArgumentException("at least 10 containers, got " + containers);
        }
        Files.createDirectories(root);
        List<String> made = new ArrayList<>();
        List<String> plain = new ArrayList<>();
        int runs = 10;
        for (int run = 0; run < runs; run++) {
            Files.createDirectories(root.resolve("run" + run).resolve("deeper"));
            plain.add(writePlain(root, "run" + run + "/notes.txt", "run " + run + "\n"));
        }
        plain.add(writePlain(root, "README.txt", "a generated ensemble of " + containers + " containers\n"));
        plain.add(writePlain(root, "run0/deeper/data.bin", "0123456789".repeat(50)));
        String growing = "live/grow.lime";
        Files.createDirectories(root.resolve("live"));
        lime(root.resolve(growing), 7, 2);
        made.add(growing);
        String damaged = "run0/damaged.lime";
        Path d = root.resolve(damaged);
        lime(d, 11, 2);
        byte[] whole = Files.readAllBytes(d);
        Files.write(d, java.util.Arrays.copyOf(whole, whole.length - 20)); // the last record's payload cut short
        made.add(damaged);
        // a SIONlib multi-file set (the sample's two files, written whole elsewhere): one container, shown once
        String set = "run1/deeper/spikes.sion";
        Path samples = Ensembles.samples().resolve("sion");
        Files.copy(samples.resolve("spikes.sion"), root.resolve(set));
        Files.copy(samples.resolve("spikes.sion.000001"), root.resolve(set + ".000001"));
        made.add(set);
        for (int i = 0; made.size() < containers; i++) {
            String ext = EXTENSIONS.get(i % EXTENSIONS.size());
            String dir = "run" + ((i / 5) % runs) + ((i / (5 * runs)) % 2 == 1 ? "/deeper" : "");
            String name = switch (ext) {
                case "lime" -> "conf.%04d.lime";
                case "gsd" -> "traj.%04d.gsd";
                case "scda" -> "ckpt.%04d.scda";
                case "sion" -> "spikes.%04d.sion";
                default -> "obs.%04d.g3";
            };
            String relative = dir + "/" + String.format(name, i);
            write(root.resolve(relative), ext, i);
            made.add(relative);
        }
        return new Layout(root, List.copyOf(made), List.copyOf(plain), damaged, growing);
    }

    /**
     * Everything under {@code top}, by path relative to it ('/'-separated; "" is {@code top}): "dir", or
     * "size sha256" for a file ("size unreadable" if its bytes cannot all be read), "failed" where a walk failed.
     */
    public static Map<String, String> snapshot(Path top) throws IOException {
        Map<String, String> out = new java.util.TreeMap<>();
        Ensembles.snapshot(top).forEach((k, v) -> out.put(k.replace('\\', '/'), v));
        return out;
    }

    /** What a container file shows when opened alone, as {@link #snapshot} says it. */
    public static Map<String, String> singleOpen(Path container) throws IOException {
        return Ensembles.singleOpen(container);
    }

    /**
     * The whole tree as a walk of {@code openTree} shows it: "" the root, the source's directories and plain
     * files, and each container's single open under its file's name.
     */
    public static Map<String, String> expectedTree(Layout layout) throws IOException {
        Map<String, String> all = new java.util.TreeMap<>();
        all.put("", "dir");
        for (String d : layout.directories()) {
            all.put(d, "dir");
        }
        for (String f : layout.plainFiles()) {
            Path file = layout.root().resolve(f);
            all.put(f, Files.size(file) + " " + Ensembles.sha256(file));
        }
        for (String c : layout.containers()) {
            for (Map.Entry<String, String> e : singleOpen(layout.root().resolve(c)).entrySet()) {
                all.put(e.getKey().isEmpty() ? c : c + "/" + e.getKey(), e.getValue());
            }
        }
        return all;
    }

    private static String writePlain(Path root, String relative, String text) throws IOException {
        Files.writeString(root.resolve(relative), text);
        return relative;
    }

    /** One small container of format {@code ext}, its bytes depending on {@code i}. */
    public static void write(Path file, String ext, int i) throws IOException {
        switch (ext) {
            case "lime" -> lime(file, i, 2);
            case "gsd" -> gsd(file, i);
            case "scda" -> scda(file, i);
            case "sion" -> sion(file, i);
            case "g3" -> g3(file, i);
            default -> throw new IllegalArgumentException(ext);
        }
    }

    static byte[] payload(int i, String what, int length) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < length) {
            sb.append(what).append(' ').append(i).append(';');
        }
        return sb.substring(0, length).getBytes(StandardCharsets.US_ASCII);
    }

    static void lime(Path file, int i, int messages) throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(file, "lime", Map.of())) {
            for (int m = 1; m <= messages; m++) {
                appendLimeMessage(fs, m, i);
            }
        }
    }

    /** Appends message {@code m} (two records) to an open LIME container. */
    public static void appendLimeMessage(FileSystem fs, int m, int i) throws IOException {
        Path msg = Files.createDirectory(fs.getPath(String.format("/msg%02d", m)));
        put(msg.resolve("rec01.xlf-info"), payload(i, "info m" + m, 40 + i % 13));
        put(msg.resolve("rec02.ildg-binary-data"), payload(i, "data m" + m, 96 + i % 31));
    }

    private static void gsd(Path file, int i) throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(file, "gsd", Map.of("application", "ensemble test"))) {
            for (int frame = 0; frame < 2; frame++) {
                Path f = Files.createDirectories(fs.getPath("/" + frame + "/log"));
                put(f.resolve("value"), ByteBuffer.allocate(8).putLong(1000L * i + frame).array(),
                        attribute("gsd:type", "int64"));
            }
        }
    }

    private static void scda(Path file, int i) throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(file, "scda", Map.of("vendor", "ensemble test"))) {
            put(fs.getPath("/0000.B.block"), payload(i, "scda block", 50 + i % 17));
            Path perRank = Files.createDirectory(fs.getPath("/0001.V.ranks"));
            put(perRank.resolve("000000"), payload(i, "rank 0", 20));
            put(perRank.resolve("000001"), payload(i, "rank 1", 30 + i % 5));
        }
    }

    private static void sion(Path file, int i) throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(file, "sion", Map.of("blockSize", 512))) {
            for (int task = 0; task < 3; task++) {
                put(fs.getPath(String.format("/task%06d", task)), payload(i, "task " + task, 24 + (i + task) % 40));
            }
        }
    }

    private static void g3(Path file, int i) throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(file, "g3")) {
            Path frame = Files.createDirectory(fs.getPath("/000000.Scan"));
            G3Blobs.write(frame, "ScanNumber", new G3Value.IntValue(i));
            G3Blobs.write(frame, "Source", new G3Value.StringValue("source " + i));
        }
    }

    private static void put(Path file, byte[] bytes, java.nio.file.attribute.FileAttribute<?>... attributes)
            throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(file,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }
}
