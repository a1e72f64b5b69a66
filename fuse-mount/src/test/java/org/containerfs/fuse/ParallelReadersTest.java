package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.spi.FileSystemProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Eight cat processes read one record through one mount at the same time; each gets every byte. */
class ParallelReadersTest {
    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    static FileSystemProvider lime() {
        return FileSystemProvider.installedProviders().stream()
                .filter(p -> p.getScheme().equals("lime")).findFirst().orElseThrow();
    }

    @Test
    void eightConcurrentCatReadersAllSeeTheWholeRecord(@TempDir Path dir) throws Exception {
        Path container = dir.resolve("big.lime");
        byte[] payload = new byte[24 << 20];
        new Random(7).nextBytes(payload);
        try (FileSystem fs = lime().newFileSystem(container, Map.of("create", "true"))) {
            Files.createDirectory(fs.getPath("/msg01"));
            try (OutputStream out = Files.newOutputStream(fs.getPath("/msg01/rec01.big-binary"))) {
                out.write(payload);
            }
        }
        String want = FuseTestSupport.sha256(payload);
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(MountCommand.Engine.highlevel, container, mp, false)) {
            String file = m.path("/msg01/rec01.big-binary").toString();
            List<CompletableFuture<FuseTestSupport.Result>> readers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                readers.add(CompletableFuture.supplyAsync(() -> FuseTestSupport.run(Duration.ofSeconds(60),
                        List.of("sh", "-c", "cat \"$1\" | sha256sum", "sh", file)), FuseTestSupport.THREADS));
            }
            for (CompletableFuture<FuseTestSupport.Result> r : readers) {
                FuseTestSupport.Result result = r.join().ok();
                assertThat(result.out()).startsWith(want);
            }
            // RELEASE reaches the mount after close() has returned (asynchronously): give it a moment
            for (int i = 0; i < 100 && m.highLevel().operations().openHandles() > 0; i++) {
                Thread.sleep(20);
            }
            assertThat(m.highLevel().operations().openHandles()).isZero();
        }
    }
}
