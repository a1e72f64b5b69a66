package org.containerfs.g3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native .g3.gz scan without a second core (it then inflates inline instead of on a thread of
 * its own): a child JVM limited to one processor opens the same file and must see the same bytes of
 * every key as this JVM, through restart points of its own.
 */
class G3GzipOneCoreTest {
    private static final Map<String, Object> ENV = Map.of("gzipSpan", 64 * 1024L);

    @TempDir
    Path tmp;

    /** Child: prints the scan kind, the restart point count, then a digest of every key's bytes. */
    public static void main(String[] args) throws Exception {
        System.out.println(String.join("\n", describe(Path.of(args[0]))));
    }

    static List<String> describe(Path gz) throws Exception {
        List<String> out = new ArrayList<>();
        try (FileSystem z = G3TestSupport.open(gz, ENV)) {
            out.add("scan " + Files.getAttribute(z.getPath("/"), "g3:gzipScan"));
            out.add("points " + Files.getAttribute(z.getPath("/"), "g3:restartPoints"));
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            List<Path> frames;
            try (Stream<Path> s = Files.list(z.getPath("/"))) {
                frames = s.collect(Collectors.toList());
            }
            java.util.Collections.reverse(frames); // backwards: every read starts from a restart point
            for (Path f : frames) {
                try (Stream<Path> keys = Files.list(f)) {
                    for (Path k : keys.collect(Collectors.toList())) {
                        sha.update(Files.readAllBytes(k));
                    }
                }
            }
            out.add("keys " + HexFormat.of().formatHex(sha.digest()));
        }
        return out;
    }

    @Test
    void oneCoreScansInlineWithTheSamePointsAndBytes() throws Exception {
        Random random = new Random(5);
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (int f = 0; f < 60; f++) {
            byte[] noise = new byte[8000 + random.nextInt(8000)];
            random.nextBytes(noise);
            byte[] text = ("frame " + f + " ").repeat(500).getBytes(StandardCharsets.US_ASCII);
            stream.writeBytes(G3TestSupport.frame(ByteOrder.LITTLE_ENDIAN, 'S', List.of("Noise".getBytes(), "Text".getBytes()),
                    List.of(noise, text)));
        }
        Path gz = tmp.resolve("one-core.g3.gz");
        try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(stream.toByteArray());
        }
        List<String> here = describe(gz);
        assertThat(here.get(0)).isEqualTo("scan native");

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-XX:ActiveProcessorCount=1", "-XX:TieredStopAtLevel=1", "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), G3GzipOneCoreTest.class.getName(), gz.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> there;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            there = r.lines().collect(Collectors.toList());
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();
        // the same scan and bytes; the points may differ a little, since with a second core the next
        // block search starts ahead, from where the stream should be a span later
        assertThat(there).hasSize(3);
        assertThat(there.get(0)).isEqualTo(here.get(0));
        assertThat(there.get(2)).isEqualTo(here.get(2));
        assertThat(Integer.parseInt(there.get(1).substring("points ".length()))).isGreaterThan(4);
    }
}
