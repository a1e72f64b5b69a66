import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.g3.G3Blobs;
import org.containerfs.g3.G3Value;

/**
 * Appends one Scan frame to a G3 file (creating it first if there is none). A frame is a directory
 * NNNNNN.<FrameType> (the next number); each key file holds a serialized value, which G3Blobs encodes as spt3g
 * would. The frame is appended, with its CRC, in one write when the file system closes. Compressed .g3.gz files
 * are read-only.
 *
 * <pre>cp samples/g3/observation.g3 /tmp/run.g3
 * java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/AppendG3.java /tmp/run.g3</pre>
 */
public class AppendG3 {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "run.g3");
        try (FileSystem fs = ContainerFileSystems.create(file, "g3")) {
            long frames;
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                frames = s.count();
            }
            Path frame = Files.createDirectory(fs.getPath(String.format("/%06d.Scan", frames)));
            G3Blobs.write(frame, "ScanNumber", new G3Value.IntValue(frames));
            G3Blobs.write(frame, "OnlineBoresightEl", new G3Value.DoubleValue(-0.78));
            G3Blobs.write(frame, "Turnaround", new G3Value.BoolValue(true));
            System.out.println("appended " + frame + " to " + file);
        }

        try (FileSystem fs = ContainerFileSystems.open(file)) {
            System.out.println("frames now: " + Files.getAttribute(fs.getPath("/"), "g3:frames"));
        }
    }
}
