import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;

/**
 * Appends sections to an scda file (creating it first if there is none): a block (B) section, committed when its
 * stream closes, and a compressed variable-size array (V) section of two elements, committed when the file system
 * closes. Section names are NNNN.<type>.<user string>, NNNN being the next section number.
 *
 * <pre>cp samples/scda/checkpoint.scda /tmp/run.scda
 * java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/AppendScda.java /tmp/run.scda</pre>
 */
public class AppendScda {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "run.scda");
        Map<String, Object> env = Map.of("vendor", "AppendScda sample", "userString", "appended by a sample");
        try (FileSystem fs = ContainerFileSystems.create(file, "scda", env)) {
            long next;
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                next = s.count();
            }
            Path block = fs.getPath(String.format("/%04d.B.restart note", next));
            Files.writeString(block, "restarted at step " + 1000 * next + "\n", StandardCharsets.US_ASCII);

            FileAttribute<Boolean> compressed = ContainerFileSystems.attribute("scda:encode", true);
            Path array = Files.createDirectory(fs.getPath(String.format("/%04d.V.rank output", next + 1)), compressed);
            Files.writeString(array.resolve("000000"), "rank 0 ".repeat(20), StandardCharsets.US_ASCII);
            Files.writeString(array.resolve("000001"), "rank 1 ".repeat(30), StandardCharsets.US_ASCII);
            System.out.println("appended " + block + " and " + array + " to " + file);
        }

        try (FileSystem fs = ContainerFileSystems.open(file)) {
            System.out.println("sections now: " + Files.getAttribute(fs.getPath("/"), "scda:sections"));
        }
    }
}
