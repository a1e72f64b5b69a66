import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.Map;
import java.util.Set;
import static org.containerfs.core.ContainerFileSystems.attribute;

import org.containerfs.core.ContainerFileSystems;

/**
 * Appends one frame to a GSD trajectory (creating a HOOMD-schema file first if there is none): a new step and new
 * particle positions. A chunk's type and width are given as the FileAttributes gsd:type and gsd:M when its file is
 * created; the frame is committed, as gsd's end_frame does, when the file system closes.
 *
 * <pre>cp samples/gsd/trajectory.gsd /tmp/run.gsd
 * java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/AppendGsd.java /tmp/run.gsd</pre>
 */
public class AppendGsd {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "run.gsd");
        // ContainerFileSystems.create opens an existing file for appending, or creates it: FileSystems.newFileSystem
        // with create=true would ask the JDK's zip provider first and make a zip file.
        Map<String, Object> env = Map.of("schema", "hoomd", "schemaVersion", "1.4");
        try (FileSystem fs = ContainerFileSystems.create(file, "gsd", env)) {
            long frames = ((Number) Files.getAttribute(fs.getPath("/"), "gsd:frames")).longValue();
            Path frame = Files.createDirectory(fs.getPath("/" + frames)); // the next frame number, staged
            Files.createDirectories(frame.resolve("particles"));
            Files.createDirectories(frame.resolve("configuration"));

            write(frame.resolve("configuration/step"), ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(1000 * frames).flip(), attribute("gsd:type", "uint64"));
            int n = 8;
            ByteBuffer position = ByteBuffer.allocate(n * 3 * 4).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < n * 3; i++) {
                position.putFloat(0.1f * i + frames);
            }
            write(frame.resolve("particles/position"), position.flip(),
                    attribute("gsd:type", "float"), attribute("gsd:M", 3));
            System.out.println("appended frame " + frame + " to " + file);
        } // closing commits the frame: its index entries are written last, so a killed writer leaves no half frame

        try (FileSystem fs = ContainerFileSystems.open(file)) {
            System.out.println("frames now: " + Files.getAttribute(fs.getPath("/"), "gsd:frames"));
        }
    }

    private static void write(Path chunk, ByteBuffer bytes, FileAttribute<?>... attributes) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(chunk,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes)) {
            while (bytes.hasRemaining()) {
                ch.write(bytes);
            }
        }
    }

}
