package org.containerfs.sion;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A writer process killed with SIGKILL before close leaves no target file, and the next create works. */
class SionKilledWriterTest {
    @TempDir
    Path dir;

    /** Run in a separate JVM: stages one whole task and half of another, then waits to be killed. */
    public static final class Victim {
        public static void main(String[] args) throws Exception {
            FileSystem fs = SionWriterTest.sion().newFileSystem(Paths.get(args[0]),
                    Map.of("create", "true", "blockSize", 512));
            Files.write(fs.getPath("/task000000"), new byte[1000]);
            OutputStream half = Files.newOutputStream(fs.getPath("/task000001"));
            half.write(new byte[300]);
            half.flush();
            System.out.println("ready");
            System.out.flush();
            Thread.sleep(60_000);
        }
    }

    @Test
    @Timeout(30)
    void sigkillBeforeCloseLeavesNoTargetAndTheNextCreateSucceeds() throws Exception {
        Path target = dir.resolve("victim.sion");
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                Victim.class.getName(), target.toString()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("ready");
            p.destroyForcibly(); // SIGKILL on Linux
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Files.exists(target)).isFalse();
        assertThat(Files.size(dir.resolve(".victim.sion.sion-staging"))).isEqualTo(1300);

        try (FileSystem fs = SionWriterTest.sion().newFileSystem(target, Map.of("create", "true", "blockSize", 512))) {
            Files.write(fs.getPath("/task000000"), new byte[] {42});
        }
        try (FileSystem fs = SionWriterTest.sion().newFileSystem(target, Map.of())) {
            assertThat(Files.readAllBytes(fs.getPath("/task000000"))).containsExactly(42);
            assertThat(Files.getAttribute(fs.getPath("/"), "sion:tasks")).isEqualTo(1);
        }
        try (var s = Files.list(dir)) {
            assertThat(s.map(f -> f.getFileName().toString())).containsExactly("victim.sion");
        }
    }
}
