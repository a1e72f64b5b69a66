import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Appends one LIME message of two records to a file, creating the file first if it does not exist.
 * Run it twice on the same file to see the second message appended after the first.
 *
 * <pre>java -cp provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar samples/AppendLime.java /tmp/new.lime</pre>
 *
 * A record is committed when its stream is closed: a writer killed earlier leaves every closed record intact.
 */
public class AppendLime {
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "new.lime");

        // create=true makes a new container; an existing one is opened for appending with accessMode=readWrite.
        Map<String, ?> env = Files.exists(file) ? Map.of("accessMode", "readWrite") : Map.of("create", true);
        // The lime: URI names the format. (FileSystems.newFileSystem(file, env) would ask the JDK's zip provider
        // first, and with create=true it would make a new file a zip archive.)
        URI uri = URI.create("lime:" + file.toAbsolutePath().toUri());
        try (FileSystem fs = FileSystems.newFileSystem(uri, env)) {
            Path root = fs.getPath("/");
            long messages;
            try (Stream<Path> s = Files.list(root)) {
                messages = s.count();
            }

            // A new message is the directory with the next number; its records are recNN.<type>.
            Path message = root.resolve(String.format("msg%02d", messages + 1));
            Files.createDirectory(message);

            Files.writeString(message.resolve("rec01.sample-xml"),
                    "<?xml version=\"1.0\"?><sample message=\"" + (messages + 1) + "\"/>", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE_NEW);

            // Bytes stream into the container as they are written; closing the stream commits the record.
            try (OutputStream out = Files.newOutputStream(message.resolve("rec02.sample-binary-data"),
                    StandardOpenOption.CREATE_NEW)) {
                byte[] block = new byte[4096];
                for (int i = 0; i < 16; i++) {
                    java.util.Arrays.fill(block, (byte) i);
                    out.write(block);
                }
            }
            System.out.println("appended " + message + " to " + file);
        }

        // Read it back.
        try (FileSystem fs = FileSystems.newFileSystem(file);
                Stream<Path> tree = Files.walk(fs.getPath("/"))) {
            tree.filter(Files::isRegularFile).forEach(p -> {
                try {
                    System.out.printf("%-32s %6d bytes  me=%s%n", p, Files.size(p), Files.getAttribute(p, "lime:me"));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
    }
}
