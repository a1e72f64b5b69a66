package org.containerfs.fuzz;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;

/**
 * What every format's fuzz target does with an input: open it as a container of that format (on
 * jimfs), walk the tree, read every attribute and every byte. Only IOExceptions may escape; the
 * per-input time bound and -Xmx64m (see scripts/fuzz) catch hangs and length-driven allocation.
 */
public final class ContainerFuzzing {
    private ContainerFuzzing() {}

    public static void openWalkAndRead(String format, String fileName, byte[] data, Map<String, ?> env) {
        try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
            Path file = mem.getPath("/" + fileName);
            Files.write(file, data);
            java.util.HashMap<String, Object> all = new java.util.HashMap<>(env);
            all.put("format", format);
            try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(file, all);
                    Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                byte[] buf = new byte[8192];
                for (Path p : (Iterable<Path>) walk::iterator) {
                    Files.readAttributes(p, format + ":*");
                    if (Files.isRegularFile(p)) {
                        try (InputStream in = Files.newInputStream(p)) {
                            while (in.read(buf) > 0) {
                                // read everything
                            }
                        } catch (IOException expected) {
                            // damaged content: reported per file, the walk goes on
                        }
                    }
                }
            }
        } catch (IOException | java.io.UncheckedIOException expected) {
            // bad input is reported as an IOException: that is the contract
        }
    }
}
