import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Opens a LIME file as a file system, lists its tree, and reads records: their attributes, a whole
 * small XML record, and a few bytes from the middle of the largest record by a positional read.
 *
 * <pre>java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/ReadLime.java samples/lime/ildg.lime</pre>
 */
public class ReadLime {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "samples/lime/ildg.lime");

        // No format named: the provider is found by the file's magic bytes.
        try (FileSystem fs = FileSystems.newFileSystem(file)) {
            Path root = fs.getPath("/");
            System.out.println("container " + file + ": " + Files.readAttributes(root, "lime:*"));

            List<Path> records = new ArrayList<>();
            try (Stream<Path> tree = Files.walk(root)) {
                tree.skip(1).forEach(p -> {
                    if (Files.isDirectory(p)) {
                        System.out.println(p + "/");
                    } else {
                        records.add(p);
                        System.out.printf("%-45s %8d bytes%n", p, size(p));
                    }
                });
            }
            if (records.isEmpty()) {
                return;
            }

            // The lime attribute view: the record header's fields.
            Path first = records.get(0);
            Map<String, Object> header = Files.readAttributes(first, "lime:*");
            String type = new String((byte[]) header.get("type"), StandardCharsets.UTF_8);
            System.out.printf("%n%s: type=%s mb=%s me=%s length=%s dataOffset=%s%n", first, type,
                    header.get("mb"), header.get("me"), header.get("length"), header.get("dataOffset"));

            // A small record read whole ...
            System.out.println(Files.readString(first, StandardCharsets.UTF_8));

            // ... and a large one read in part: the channel reads straight from the container at any position.
            Path largest = records.get(0);
            for (Path p : records) {
                if (size(p) > size(largest)) {
                    largest = p;
                }
            }
            try (SeekableByteChannel ch = Files.newByteChannel(largest)) {
                ByteBuffer buf = ByteBuffer.allocate(16);
                ch.position(ch.size() / 2).read(buf);
                StringBuilder hex = new StringBuilder();
                for (int i = 0; i < buf.position(); i++) {
                    hex.append(String.format("%02x ", buf.get(i)));
                }
                System.out.printf("%n%s, %d bytes from byte %d: %s%n", largest, buf.position(), ch.size() / 2, hex);
            }
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
