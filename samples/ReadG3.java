import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.containerfs.g3.G3Blobs;
import org.containerfs.g3.G3Value;

/**
 * Opens a G3 file (spt3g's frame stream, plain or .g3.gz) as a file system: frames are directories
 * NNNNNN.<FrameType>, keys are files holding the serialized value. G3Blobs decodes the simple value types.
 *
 * <pre>java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/ReadG3.java samples/g3/observation.g3.gz</pre>
 */
public class ReadG3 {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "samples/g3/observation.g3");
        try (FileSystem fs = FileSystems.newFileSystem(file)) {
            Path root = fs.getPath("/");
            System.out.println("container " + file + ": " + Files.readAttributes(root, "g3:frames,compressed"));
            try (Stream<Path> frames = Files.list(root)) {
                for (Path frame : (Iterable<Path>) frames::iterator) {
                    System.out.println(frame + "/  crcOk=" + Files.getAttribute(frame, "g3:crcOk"));
                    try (Stream<Path> keys = Files.list(frame)) {
                        for (Path key : (Iterable<Path>) keys::iterator) {
                            Optional<G3Value> value = G3Blobs.read(key);
                            System.out.printf("    %-20s %5d bytes  %s%n", key.getFileName(), Files.size(key),
                                    value.map(Object::toString).orElse("(" + Files.getAttribute(key, "g3:blobType") + ")"));
                        }
                    }
                }
            }
        }
    }
}
