package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.spi.ContainerFormatException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 29: every format error says where (file, byte offset), what was expected there and what was
 * found instead. Each corpus file of a format is damaged in many ways (cut at header boundaries and
 * at eighths of its length, one byte inverted every 8 bytes of its first 256 and at 16 places spread
 * over the rest) and opened strictly, walked and read whole; every {@link ContainerFormatException}
 * any step throws must read {@code <file> at byte <N>: [<context>: ]expected <...>, found <...>}.
 */
class DamagedVariantMessagesTest {
    /** The one shape of a format error message (see docs/nio-contract.md, "Errors"). */
    static final Pattern SHAPE = Pattern.compile("^.+ at byte \\d+: (.+: )?expected .+, found .+$", Pattern.DOTALL);

    private static final int[] CUTS = {1, 3, 4, 7, 8, 16, 24, 31, 32, 33, 48, 51, 52, 60, 64, 96, 100, 127, 128, 143,
        144, 200, 255, 256, 300};

    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "sion", "g3"})
    void everyFormatErrorOfADamagedCorpusFileSaysExpectedAndFound(String format) throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(HostileInputsTest.corpus().resolve(format))) {
            files = s.filter(p -> !p.toString().endsWith(".tsv") && !p.toString().endsWith(".md")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        List<String> bad = new ArrayList<>();
        TreeSet<String> seen = new TreeSet<>();
        int checked = 0;
        for (Path file : files) {
            byte[] original = Files.readAllBytes(file);
            String name = file.getFileName().toString();
            for (byte[] variant : variants(original)) {
                for (ContainerFormatException e : openWalkAndRead(format, name, variant)) {
                    checked++;
                    String m = e.getMessage();
                    // one line per distinct wording (the numbers vary between variants)
                    seen.add(m.replaceAll("\\d+", "#"));
                    if (!SHAPE.matcher(m).matches() || e.expected() == null || e.found() == null
                            || e.expected().contains(", found ") || e.expected().contains(", but ")) {
                        bad.add(name + ": " + m);
                    }
                }
            }
        }
        if (Boolean.getBoolean("printMessages")) { // -DargLine=-DprintMessages=true: every wording, to read them
            seen.forEach(System.out::println);
        }
        assertThat(bad).as("messages not in the shape '<file> at byte N: [context: ]expected ..., found ...'").isEmpty();
        // not vacuous: the damage reached the formats' checks, and in more than one way
        assertThat(checked).as("format errors seen for %s", format).isGreaterThanOrEqualTo(20);
        assertThat(seen).as("distinct messages for %s", format).hasSizeGreaterThanOrEqualTo(5);
    }

    static List<byte[]> variants(byte[] original) {
        List<byte[]> out = new ArrayList<>();
        int n = original.length;
        TreeSet<Integer> cuts = new TreeSet<>();
        for (int c : CUTS) {
            cuts.add(c);
        }
        for (int k = 1; k < 8; k++) {
            cuts.add((int) ((long) n * k / 8));
        }
        cuts.add(n - 1);
        for (int c : cuts) {
            if (c > 0 && c < n) {
                out.add(Arrays.copyOf(original, c));
            }
        }
        TreeSet<Integer> flips = new TreeSet<>();
        for (int at = 0; at < Math.min(n, 256); at += 8) {
            flips.add(at);
        }
        for (int k = 0; k < 16; k++) {
            flips.add((int) ((long) n * k / 16));
        }
        for (int at : flips) {
            if (at < n) {
                byte[] b = original.clone();
                b[at] ^= (byte) 0xFF;
                out.add(b);
            }
        }
        return out;
    }

    /** The format errors of a strict open, a walk and a read of every file (a failed read does not end the walk). */
    static List<ContainerFormatException> openWalkAndRead(String format, String name, byte[] data) throws IOException {
        List<ContainerFormatException> errors = new ArrayList<>();
        try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
            Path file = mem.getPath("/" + name);
            Files.write(file, data);
            try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(file,
                    Map.of("format", format, "strict", true));
                    Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                byte[] buf = new byte[8192];
                for (Path p : (Iterable<Path>) walk::iterator) {
                    try {
                        Files.readAttributes(p, format + ":*");
                        if (Files.isRegularFile(p)) {
                            try (InputStream in = Files.newInputStream(p)) {
                                while (in.read(buf) > 0) {
                                    // read everything
                                }
                            }
                        }
                    } catch (IOException | UncheckedIOException e) {
                        collect(e, errors);
                    }
                }
            } catch (IOException | UncheckedIOException | UnsupportedOperationException e) {
                collect(e, errors);
            }
        }
        return errors;
    }

    private static void collect(Throwable t, List<ContainerFormatException> into) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof ContainerFormatException e) {
                into.add(e);
                return;
            }
        }
    }
}
