import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Opens an scda file (libsc's checkpoint format, used by p4est) as a file system: I and B sections are files, A
 * and V sections directories of element files. A compressed section is shown decoded, element by element.
 *
 * <pre>java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/ReadScda.java samples/scda/checkpoint.scda</pre>
 */
public class ReadScda {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "samples/scda/checkpoint.scda");
        try (FileSystem fs = FileSystems.newFileSystem(file)) {
            Path root = fs.getPath("/");
            // the file header (scda's F section): raw bytes, as libsc stores them
            Map<String, Object> header = Files.readAttributes(root, "scda:vendor,userString,sections");
            System.out.printf("container %s: vendor=\"%s\" userString=\"%s\" sections=%s%n", file,
                    text(header.get("vendor")), text(header.get("userString")), header.get("sections"));

            try (Stream<Path> sections = Files.list(root)) {
                for (Path section : (Iterable<Path>) sections::iterator) {
                    Map<String, Object> a = Files.readAttributes(section, "scda:type,userString,compressed");
                    System.out.printf("%-32s type=%s compressed=%s%n", section, a.get("type"), a.get("compressed"));
                    if (a.get("type").equals("B") || a.get("type").equals("I")) {
                        System.out.print("    " + Files.readString(section, StandardCharsets.US_ASCII).replace("\n", "\n    "));
                        System.out.println();
                    } else {
                        try (Stream<Path> elements = Files.list(section)) {
                            for (Path element : (Iterable<Path>) elements::iterator) {
                                System.out.printf("    %s: %d bytes%n", element.getFileName(), Files.size(element));
                            }
                        }
                    }
                }
            }

            // One element of an array section, read without touching the others.
            Path first = fs.getPath("/0002.A.global first quadrant/000001");
            if (Files.exists(first)) {
                long value = ByteBuffer.wrap(Files.readAllBytes(first)).order(ByteOrder.LITTLE_ENDIAN).getLong();
                System.out.println("\n" + first + " = " + value);
            }
        }
    }

    private static String text(Object raw) {
        return new String((byte[]) raw, StandardCharsets.UTF_8);
    }
}
