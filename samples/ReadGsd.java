import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Opens a GSD trajectory (HOOMD-blue's format) as a file system: frames are directories, chunks are files named
 * by their chunk names. Prints each frame's chunks with their type and shape, then the particle positions of the
 * last frame, decoded from the chunk's little-endian float32 rows.
 *
 * <pre>java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/ReadGsd.java samples/gsd/trajectory.gsd</pre>
 */
public class ReadGsd {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "samples/gsd/trajectory.gsd");
        try (FileSystem fs = FileSystems.newFileSystem(file)) {
            Path root = fs.getPath("/");
            Map<String, Object> header = Files.readAttributes(root, "gsd:*");
            System.out.println("container " + file + ": schema=" + header.get("schema") + " frames=" + header.get("frames"));

            Path last = null;
            try (Stream<Path> frames = Files.list(root)) {
                for (Path frame : (Iterable<Path>) frames::iterator) {
                    last = frame;
                    try (Stream<Path> chunks = Files.walk(frame)) {
                        for (Path chunk : (Iterable<Path>) chunks.filter(Files::isRegularFile)::iterator) {
                            Map<String, Object> a = Files.readAttributes(chunk, "gsd:type,N,M");
                            System.out.printf("%-55s %-7s N=%s M=%s%n", chunk, a.get("type"), a.get("N"), a.get("M"));
                        }
                    }
                }
            }
            if (last == null) {
                return;
            }
            // A chunk's bytes are its N x M values, row by row, little-endian.
            ByteBuffer position = ByteBuffer.wrap(Files.readAllBytes(last.resolve("particles/position")))
                    .order(ByteOrder.LITTLE_ENDIAN);
            System.out.println("\nparticles/position of frame " + last.getFileName() + ":");
            while (position.remaining() >= 12) {
                System.out.printf("  %8.3f %8.3f %8.3f%n", position.getFloat(), position.getFloat(), position.getFloat());
            }
        }
    }
}
