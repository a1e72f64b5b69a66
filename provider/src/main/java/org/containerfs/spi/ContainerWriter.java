package org.containerfs.spi;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.util.Map;

/**
 * A format's append logic. The core calls it, under its exclusive lock, for every mutation the
 * NIO API asks for; anything a format cannot express as an append is refused with an
 * {@link java.nio.file.AccessDeniedException} whose message says what is allowed.
 *
 * <p>Attributes given at creation arrive as a map of {@code view:name} (e.g. {@code gsd:type}) to value.
 */
public interface ContainerWriter extends Closeable {

    /** {@code mkdir}: a new message, frame, array section... under its canonical next name. */
    void createDirectory(Node parent, String name, Map<String, Object> attributes) throws IOException;

    /**
     * Refuses, with the exception {@link #createFile} would throw, a name this container cannot take as a
     * new file in {@code parent} in its present state (a closed message, not the next number, a malformed
     * name), changing nothing. The one place a format says which names it accepts: {@code createFile}
     * applies it first, and the core answers {@code ContainerFileSystemProvider.checkNewFile} with it, so
     * a tool that stages a file (the FUSE mount) refuses the name at once instead of at its commit.
     * A refusal for a name no container of the format could ever hold is an {@link InvalidNameException}.
     * Transient states (another file still being written) are {@code createFile}'s own refusals.
     */
    void checkNewFile(Node parent, String name, Map<String, Object> attributes) throws IOException;

    /**
     * A new file: returns the sink its bytes stream into. The unit is committed (durable against a
     * process kill) when the sink is closed, or, for formats with staged units (a GSD frame), when
     * the unit is committed.
     */
    WritableByteChannel createFile(Node parent, String name, Map<String, Object> attributes) throws IOException;

    /** {@code Files.setAttribute}: e.g. an explicit commit ({@code gsd:commit}). Refused by default. */
    default void setAttribute(Node node, String attribute, Object value) throws IOException {
        throw new java.nio.file.AccessDeniedException(node.name(), null,
                "attribute " + attribute + " cannot be set; " + allowedWrites());
    }

    /** One sentence for error messages: what this format lets a user write. */
    String allowedWrites();

    /** Commits whatever is staged; called when the file system closes. */
    @Override
    void close() throws IOException;
}
