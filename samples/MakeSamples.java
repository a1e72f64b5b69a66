import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import static org.containerfs.core.ContainerFileSystems.attribute;

import org.containerfs.core.ContainerFileSystems;
import org.containerfs.g3.G3Blobs;
import org.containerfs.g3.G3Value;

/**
 * Makes the sample containers of samples/gsd, samples/scda, samples/sion and samples/g3 with the provider's own
 * append API. The output is the same on every run (no clock, no randomness), so the committed samples can be
 * remade and compared:
 *
 * <pre>java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/MakeSamples.java samples</pre>
 *
 * Two steps are not the API's: the provider writes a SIONlib set of one file only, so the two files of the SION
 * sample are written by it separately and then joined into a set by patching their header fields (number of
 * files, file number) and the first file's task-to-file mapping; and the provider appends G3 frames to plain
 * files only, so {@code observation.g3.gz} is {@code observation.g3} gzip-compressed.
 */
public class MakeSamples {
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "samples");
        gsd(fresh(out.resolve("gsd/trajectory.gsd")));
        scda(fresh(out.resolve("scda/checkpoint.scda")));
        sion(fresh(out.resolve("sion/spikes.sion")), fresh(out.resolve("sion/spikes.sion.000001")));
        Path g3 = fresh(out.resolve("g3/observation.g3"));
        g3(g3);
        gzip(g3, fresh(out.resolve("g3/observation.g3.gz")));
        System.out.println("samples written under " + out);
    }

    private static Path fresh(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        return file;
    }


    private static void write(Path file, byte[] bytes, FileAttribute<?>... attributes) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(file,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }

    private static ByteBuffer littleEndian(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    // ---- GSD: a HOOMD trajectory of 3 frames, 8 particles of 2 types on a cubic lattice that drifts ----

    static final int PARTICLES = 8;

    private static void gsd(Path file) throws IOException {
        Map<String, Object> env = Map.of("application", "containerfs samples", "schema", "hoomd", "schemaVersion", "1.4");
        try (FileSystem fs = ContainerFileSystems.create(file, "gsd", env)) {
            for (int frame = 0; frame < 3; frame++) {
                Path f = Files.createDirectory(fs.getPath("/" + frame));
                Path configuration = Files.createDirectory(f.resolve("configuration"));
                Path particles = Files.createDirectory(f.resolve("particles"));
                write(configuration.resolve("step"), littleEndian(8).putLong(1000L * frame).array(),
                        attribute("gsd:type", "uint64"));
                if (frame == 0) {
                    // HOOMD's frame-0 defaults: readers take box, N, types and typeid from frame 0 when a frame lacks them
                    ByteBuffer box = littleEndian(6 * 4);
                    for (float v : new float[] {4, 4, 4, 0, 0, 0}) {
                        box.putFloat(v);
                    }
                    write(configuration.resolve("box"), box.array(), attribute("gsd:type", "float"));
                    write(particles.resolve("N"), littleEndian(4).putInt(PARTICLES).array(), attribute("gsd:type", "uint32"));
                    // type names as NUL-padded rows of int8, one row per type
                    write(particles.resolve("types"), new byte[] {'A', 0, 'B', 0},
                            attribute("gsd:type", "int8"), attribute("gsd:M", 2));
                    ByteBuffer typeid = littleEndian(4 * PARTICLES);
                    for (int i = 0; i < PARTICLES; i++) {
                        typeid.putInt(i % 2);
                    }
                    write(particles.resolve("typeid"), typeid.array(), attribute("gsd:type", "uint32"));
                }
                ByteBuffer position = littleEndian(4 * 3 * PARTICLES);
                for (int i = 0; i < PARTICLES; i++) {
                    position.putFloat(-1 + 2 * (i & 1) + 0.25f * frame);
                    position.putFloat(-1 + 2 * ((i >> 1) & 1));
                    position.putFloat(-1 + 2 * ((i >> 2) & 1) - 0.125f * frame);
                }
                write(particles.resolve("position"), position.array(), attribute("gsd:type", "float"), attribute("gsd:M", 3));
                Path log = Files.createDirectories(f.resolve("log/md/compute/ThermodynamicQuantities"));
                write(log.resolve("potential_energy"), littleEndian(8).putDouble(-3.5 + 0.25 * frame).array(),
                        attribute("gsd:type", "double"));
            }
        } // closing commits the last frame
    }

    // ---- scda: a p4est-like checkpoint with every section type, one of them compressed ----

    private static void scda(Path file) throws IOException {
        Map<String, Object> env = Map.of("vendor", "containerfs samples", "userString", "forest checkpoint, 2 ranks");
        try (FileSystem fs = ContainerFileSystems.create(file, "scda", env)) {
            // I: exactly 32 bytes, inline in the section header
            write(fs.getPath("/0000.I.format version"), "p4est 2.8.6 dim=2 refine=3      ".getBytes(StandardCharsets.US_ASCII));
            // B: one block of any length
            write(fs.getPath("/0001.B.connectivity"), ("vertices 4\ntrees 1\n0 0\n1 0\n0 1\n1 1\n"
                    + "tree 0: 0 1 2 3\n").getBytes(StandardCharsets.US_ASCII));
            // A: fixed-size elements, here the global first quadrant of each of 2 ranks plus the total (uint64)
            Path offsets = Files.createDirectory(fs.getPath("/0002.A.global first quadrant"));
            long[] first = {0, 34, 64};
            for (int i = 0; i < first.length; i++) {
                write(offsets.resolve(String.format("%06d", i)), littleEndian(8).putLong(first[i]).array());
            }
            // V: variable-size elements, one per rank
            Path perRank = Files.createDirectory(fs.getPath("/0003.V.rank notes"));
            write(perRank.resolve("000000"), "rank 0: trees 0-0, 34 quadrants\n".getBytes(StandardCharsets.US_ASCII));
            write(perRank.resolve("000001"), "rank 1: 30 quadrants\n".getBytes(StandardCharsets.US_ASCII));
            // A, compressed (libsc's convention: each element deflated and base64-encoded); read back decoded
            Path levels = Files.createDirectory(fs.getPath("/0004.A.quadrant levels"), attribute("scda:encode", true));
            for (int rank = 0; rank < 2; rank++) {
                byte[] element = new byte[64];
                for (int q = 0; q < element.length; q++) {
                    element[q] = (byte) (q < (rank == 0 ? 34 : 30) ? 3 : 0);
                }
                write(levels.resolve(String.format("%06d", rank)), element);
            }
        } // closing commits the staged A section
    }

    // ---- SIONlib: 4 tasks (NEST-like spike records) in a set of two physical files ----

    private static final int SION_TASKS = 4;
    private static final int SION_FILES = 2;
    private static final String SION_PREFIX = "spikes.sion";

    private static byte[] spikes(int rank) {
        StringBuilder s = new StringBuilder("# sender time_ms (rank " + rank + ")\n");
        for (int i = 0; i <= rank + 2; i++) {
            s.append(101 + 10 * rank + i).append(' ').append(String.format("%.1f", 0.5 + 1.5 * i + rank)).append('\n');
        }
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static void sion(Path first, Path second) throws IOException {
        Path[] files = {first, second};
        // global rank g lives in file g % 2 as local rank g / 2, as a parallel writer with 2 files lays tasks out
        for (int file = 0; file < SION_FILES; file++) {
            try (FileSystem fs = ContainerFileSystems.create(files[file], "sion",
                    Map.of("blockSize", 512, "prefix", SION_PREFIX))) {
                for (int local = 0; local * SION_FILES + file < SION_TASKS; local++) {
                    int global = local * SION_FILES + file;
                    write(fs.getPath(String.format("/task%06d", local)), spikes(global), attribute("sion:globalRank", global));
                }
            } // the file appears, complete, when the file system closes
        }
        // Join them into one set: each header says 2 files and its number; the first file maps tasks to files.
        for (int file = 0; file < SION_FILES; file++) {
            try (FileChannel ch = FileChannel.open(files[file], StandardOpenOption.WRITE, StandardOpenOption.READ)) {
                ch.write(littleEndian(8).putInt(SION_FILES).putInt(file).flip(), 28); // nfiles, filenumber
                if (file == 0) {
                    ByteBuffer mapping = littleEndian(4 + 8 * SION_TASKS).putInt(SION_TASKS);
                    for (int global = 0; global < SION_TASKS; global++) {
                        mapping.putInt(global % SION_FILES).putInt(global / SION_FILES); // (file, local rank)
                    }
                    ch.write(mapping.flip(), ch.size() - 4); // over the single file's mapping size 0
                }
            }
        }
    }

    // ---- G3: an Observation frame and three Scan frames, as a telescope's pipeline writes them ----

    private static void g3(Path file) throws IOException {
        try (FileSystem fs = ContainerFileSystems.create(file, "g3")) {
            Path observation = Files.createDirectory(fs.getPath("/000000.Observation"));
            G3Blobs.write(observation, "SourceName", new G3Value.StringValue("RCW38"));
            G3Blobs.write(observation, "ObservationID", new G3Value.IntValue(146830001));
            G3Blobs.write(observation, "ObservationStart", new G3Value.TimeValue(1_640_995_200L * 100_000_000L));
            for (int scan = 0; scan < 3; scan++) {
                Path frame = Files.createDirectory(fs.getPath(String.format("/%06d.Scan", scan + 1)));
                G3Blobs.write(frame, "ScanNumber", new G3Value.IntValue(scan));
                double[] az = new double[16];
                for (int i = 0; i < az.length; i++) {
                    az[i] = 1.5 + (scan % 2 == 0 ? 1 : -1) * 0.01 * i;
                }
                G3Blobs.write(frame, "OnlineBoresightAz", new G3Value.VectorDouble(az));
                G3Blobs.write(frame, "OnlineBoresightEl", new G3Value.DoubleValue(-0.7854 + 0.001 * scan));
                G3Blobs.write(frame, "Turnaround", new G3Value.BoolValue(false));
                Map<String, Double> gains = new LinkedHashMap<>();
                List<String> detectors = List.of("W180.1.x", "W180.1.y", "W181.4.x");
                for (int d = 0; d < detectors.size(); d++) {
                    gains.put(detectors.get(d), 1.0 + 0.02 * d + 0.001 * scan);
                }
                G3Blobs.write(frame, "DetectorGains", new G3Value.MapDouble(gains));
            }
        } // each frame was appended when the next was created; the last one now
    }

    private static void gzip(Path source, Path target) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(target))) {
            Files.copy(source, out);
        }
    }
}
