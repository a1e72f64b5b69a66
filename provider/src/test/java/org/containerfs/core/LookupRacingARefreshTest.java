package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.containerfs.storage.ContainerInput;
import org.containerfs.storage.InputIdentity;
import org.containerfs.storage.PathInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lookup of a name that a live container gained, racing a refresh run by another thread (the FUSE mount's
 * growth watcher refreshes the container every 100 ms): the other refresh comes after the lookup's miss and
 * before the lookup's own check of the container's size. The order is the test's, not the scheduler's: the
 * other refresh runs inside the input's {@code size()}, where the lookup holds no lock.
 */
class LookupRacingARefreshTest {
    @TempDir
    Path dir;

    /** A local file whose next {@code size()}, once {@link #beforeSize} is set, first runs that action. */
    static final class PausingInput implements ContainerInput {
        private final PathInput file;
        final AtomicReference<Runnable> beforeSize = new AtomicReference<>();

        PausingInput(PathInput file) {
            this.file = file;
        }

        @Override
        public URI uri() {
            return file.uri();
        }

        @Override
        public long size() throws IOException {
            Runnable action = beforeSize.getAndSet(null);
            if (action != null) {
                action.run();
            }
            return file.size();
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return file.read(dst, position);
        }

        @Override
        public InputIdentity identity() throws IOException {
            return file.identity();
        }

        @Override
        public ContainerInput sibling(String fileName) throws IOException {
            return file.sibling(fileName);
        }

        @Override
        public FileTime lastModified() throws IOException {
            return file.lastModified();
        }

        @Override
        public boolean remote() {
            return false;
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    private static void addMessage(Path container, String name) throws IOException {
        try (FileSystem writer = TestContainers.openWritable(container)) {
            Files.write(Files.createDirectory(writer.getPath(name)).resolve("rec01.bin"), new byte[16]);
        }
    }

    /**
     * Fails if the lookup went only by what its own refresh found: that refresh finds nothing new (the other
     * thread's took the growth), and the name, present on disk before the lookup began, was reported missing.
     */
    @Test
    void aNameThatAnotherThreadsRefreshFoundAfterTheMissIsFound() throws Exception {
        Path container = dir.resolve("live.lime");
        try (FileSystem writer = TestContainers.create(container)) {
            Files.write(Files.createDirectory(writer.getPath("/msg01")).resolve("rec01.bin"), new byte[16]);
        }
        PausingInput input = new PausingInput(PathInput.of(container));
        ExecutorService watcher = Executors.newSingleThreadExecutor();
        try (FileSystem fs = ContainerFileSystems.open(input, Map.of("indexCache", "off"))) {
            ContainerFileSystem cfs = (ContainerFileSystem) fs;
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                assertThat(s.map(p -> p.getFileName().toString()).toList()).containsExactly("msg01");
            }
            addMessage(container, "/msg02");
            AtomicReference<Boolean> otherFound = new AtomicReference<>();
            input.beforeSize.set(() -> {
                try {
                    otherFound.set(watcher.submit(cfs::refresh).get());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            BasicFileAttributes a = Files.readAttributes(fs.getPath("/msg02"), BasicFileAttributes.class);

            assertThat(a.isDirectory()).isTrue();
            assertThat(otherFound.get()).as("the other thread's refresh ran after the miss and found the growth")
                    .isTrue();
            assertThat(cfs.changes()).as("one refresh found the growth, the lookup's own found nothing").isEqualTo(1);
            assertThat(cfs.refresh()).isFalse();
        } finally {
            watcher.shutdownNow();
        }
    }
}
