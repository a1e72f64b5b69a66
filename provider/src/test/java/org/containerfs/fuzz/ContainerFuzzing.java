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
 * per-input time bound (@Timeout) catches hangs, and {@link #ALLOCATION_BOUND} catches allocation
 * driven by a declared length.
 */
public final class ContainerFuzzing {
    /**
     * Bytes one input may make this thread allocate in total, garbage included: the 64 MiB heap the
     * issue names. A bounded heap cannot be used for that ({@code -Xmx64m} is too small for Jazzer's
     * own agent), and a total is stricter than a live-heap cap: a length read from the input and used
     * to size an array before it is checked against the file size trips it at once.
     */
    static final long ALLOCATION_BOUND = 64L << 20;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

    private static final java.lang.management.ClassLoadingMXBean CLASSES =
            java.lang.management.ManagementFactory.getClassLoadingMXBean();

    private ContainerFuzzing() {}

    public static void openWalkAndRead(String format, String fileName, byte[] data, Map<String, ?> env) {
        withinAllocationBound(format + " input of " + data.length + " bytes", data.length,
                () -> walkAndRead(format, fileName, data, env));
    }

    /**
     * Runs {@code action} (which must be repeatable) and fails if it made this thread allocate more
     * than the bound allows. A run that loaded classes is run again and the repeat is judged: loading
     * (and, under Jazzer, instrumenting) a class allocates tens of MiB once, which is not the parser's doing.
     */
    static void withinAllocationBound(String what, int inputLength, Runnable action) {
        long allocated;
        int attempts = 0;
        long classesBefore;
        do {
            classesBefore = CLASSES.getTotalLoadedClassCount();
            long before = THREADS.getCurrentThreadAllocatedBytes();
            action.run();
            allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        } while (CLASSES.getTotalLoadedClassCount() != classesBefore && ++attempts < 3);
        long bound = ALLOCATION_BOUND + 64L * inputLength;
        if (allocated > bound) {
            throw new IllegalStateException(String.format("%s made the parser allocate %,d bytes (bound %,d)",
                    what, allocated, bound));
        }
    }

    private static void walkAndRead(String format, String fileName, byte[] data, Map<String, ?> env) {
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
