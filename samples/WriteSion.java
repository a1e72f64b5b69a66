import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;

/**
 * Writes a new SIONlib file of three tasks. SIONlib files cannot grow once written (their per-task tables sit in
 * front of and behind the data), so this sample creates a file rather than appending to one: the tasks stream into
 * a staging file, and the finished SION file is renamed into place when the file system closes.
 *
 * <pre>java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/WriteSion.java /tmp/new.sion</pre>
 */
public class WriteSion {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "new.sion");
        if (Files.exists(file)) {
            System.err.println(file + " exists: a SIONlib file is written once (choose a new name)");
            System.exit(1);
        }
        try (FileSystem fs = ContainerFileSystems.create(file, "sion", Map.of("blockSize", 4096))) {
            for (int task = 0; task < 3; task++) {
                // tasks are written in order, one at a time: /task000000, /task000001, ...
                try (OutputStream out = Files.newOutputStream(fs.getPath(String.format("/task%06d", task)))) {
                    for (int line = 0; line < 10 * (task + 1); line++) {
                        out.write(("task " + task + " line " + line + "\n").getBytes(StandardCharsets.US_ASCII));
                    }
                }
            }
            System.out.println("exists before close: " + Files.exists(file));
        }
        System.out.println("exists after close: " + Files.exists(file) + ", " + Files.size(file) + " bytes");

        try (FileSystem fs = ContainerFileSystems.open(file)) {
            System.out.println("tasks: " + Files.getAttribute(fs.getPath("/"), "sion:tasks"));
        }
    }
}
