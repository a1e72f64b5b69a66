import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Opens a SIONlib file set by its first file: every task's stream is one file /taskNNNNNN, whichever physical
 * file of the set holds it (attribute sion:physicalFile) and however many chunks it was written in.
 *
 * <pre>java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/ReadSion.java samples/sion/spikes.sion</pre>
 */
public class ReadSion {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "samples/sion/spikes.sion");
        try (FileSystem fs = FileSystems.newFileSystem(file)) {
            Path root = fs.getPath("/");
            System.out.println("container " + file + ": " + Files.readAttributes(root, "sion:tasks,files,blockSize"));
            Path last = null;
            try (Stream<Path> tasks = Files.list(root)) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    Map<String, Object> a = Files.readAttributes(task, "sion:globalRank,physicalFile");
                    System.out.printf("%s  %4d bytes  globalRank=%s in %s%n", task, Files.size(task),
                            a.get("globalRank"), a.get("physicalFile"));
                    last = task;
                }
            }
            if (last != null) {
                System.out.println("\n" + last + ":\n" + Files.readString(last, StandardCharsets.UTF_8));
            }
        }
    }
}
