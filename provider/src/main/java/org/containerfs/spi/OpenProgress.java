package org.containerfs.spi;

import java.util.Map;

/**
 * Told how far the opening scan of a container has read, so a tool can show progress while a big
 * container is indexed (the first open of a {@code .g3.gz} inflates the whole stream, say). Pass an
 * instance in the env map under {@link #ENV_KEY}; the core reports every read the format makes
 * while it opens the container, whatever the format. Called on the opening thread; keep it cheap.
 *
 * <pre>{@code
 * OpenProgress shown = (bytes, total) -> System.err.printf("\rindexed %d of %d bytes", bytes, total);
 * FileSystem fs = FileSystems.newFileSystem(path, Map.of(OpenProgress.ENV_KEY, shown));
 * }</pre>
 */
@FunctionalInterface
public interface OpenProgress {
    /** The env key whose value is an {@code OpenProgress}. */
    String ENV_KEY = "progress";

    /**
     * {@code bytes}: the furthest byte of the container read so far (it only grows); {@code total}:
     * the container's size when the open began.
     */
    void scanned(long bytes, long total);

    /** The opening scan ended (the open succeeded or failed); no report follows. */
    default void finished() {}

    /** The listener in {@code env}, or null (absent, or not an {@code OpenProgress}). */
    static OpenProgress in(Map<String, ?> env) {
        return env != null && env.get(ENV_KEY) instanceof OpenProgress p ? p : null;
    }
}
