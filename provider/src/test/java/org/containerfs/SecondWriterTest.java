package org.containerfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * For every writable format: while one JVM holds a container open for writing, a second writer from
 * this JVM is refused with a clear error (the core's file lock), never interleaved; once the first
 * writer closes, the second gets in.
 */
class SecondWriterTest {
    @TempDir
    Path tmp;

    /** The env that opens {@code format}'s container for writing (SION: a new file, its only write mode). */
    static Map<String, Object> writeEnv(String format, boolean first) {
        Map<String, Object> env = new HashMap<>();
        env.put("format", format);
        if (format.equals("lime") || !first && !format.equals("sion")) {
            env.put("accessMode", "readWrite");
        } else {
            env.put("create", "true");
        }
        return env;
    }

    /** Child: opens args[1] (format args[0]) for writing, prints "ready", holds it until stdin closes. */
    public static void main(String[] args) throws Exception {
        try (FileSystem fs = ContainerFileSystems.provider(args[0]).newFileSystem(Paths.get(args[1]), writeEnv(args[0], true))) {
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the writer until the parent closes our stdin
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lime", "gsd", "scda", "g3", "sion"})
    void aSecondWriterFromAnotherJvmIsRefusedUntilTheFirstCloses(String format) throws Exception {
        Path file = tmp.resolve("c." + format);
        if (format.equals("lime")) {
            Files.copy(Paths.get(System.getProperty("containerfs.corpus", "src/test/resources/corpus"),
                    "lime", "s02_lime_writer_test1.lime"), file);
        }
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), SecondWriterTest.class.getName(), format, file.toString())
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");

            Throwable refused = catchThrowable(() -> {
                try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(file, writeEnv(format, false))) {
                    // not reached
                }
            });
            assertThat(refused).as(format).isInstanceOf(FileSystemException.class);
            assertThat(refused.getMessage()).as(format).contains("already open for writing").contains("one writer at a time");
        } finally {
            child.getOutputStream().close();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(child.exitValue()).isZero();
        // the lock went with the first writer
        Map<String, Object> env = writeEnv(format, false);
        if (format.equals("sion")) {
            Files.delete(file);
        }
        try (FileSystem fs = ContainerFileSystems.provider(format).newFileSystem(file, env)) {
            assertThat(Files.isDirectory(fs.getPath("/"))).isTrue();
        }
    }
}
