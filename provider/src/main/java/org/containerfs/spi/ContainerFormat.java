package org.containerfs.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A container format plug-in. The core does all NIO plumbing (paths, channels, attribute views,
 * the file system lifecycle); a format only knows its bytes.
 *
 * <ul>
 *   <li>{@link #probe} recognises the format from the first bytes of a file;</li>
 *   <li>{@link #open} scans the container's index and returns a {@link Container}: a tree of
 *       {@link Node}s whose files expose their bytes as {@link Content};</li>
 *   <li>{@link #create} initialises a new, empty container (for {@code create=true});</li>
 *   <li>{@link Container#openWriter()} returns the format's append logic.</li>
 * </ul>
 */
public interface ContainerFormat {

    /** Lower-case name: the URI scheme, the attribute view name and the {@code format} env value. */
    String name();

    /** File name endings (without dot) that select this format when a new container is created. */
    List<String> fileExtensions();

    /**
     * Whether {@code head} (the first bytes of the file, at most {@link #PROBE_BYTES}, fewer for a
     * short file) starts a container of this format. Must not throw on any input.
     */
    boolean probe(ByteBuffer head, String fileName);

    /** Scans the container behind {@code source}. Must not read record data, only its index. */
    Container open(ContainerSource source) throws IOException;

    /**
     * Opens the container from an index snapshot made by {@link Container#exportIndex()} when the
     * container was {@code snapshotSize} bytes long, then scans only the bytes after what the snapshot
     * covers, as {@link Container#refresh()} does. The core has established that the container's first
     * {@code snapshotSize} bytes are still those the snapshot describes (equal identity, or for a
     * container grown since, equal sampled bytes before {@code snapshotSize}).
     *
     * <p>The snapshot passed the cache's checksum, which catches damage but not a crafted entry: the
     * format checks that it is consistent before trusting it (offsets in order and within
     * {@code snapshotSize}, counts bounded by the snapshot's length, ids in range) and throws
     * {@link ContainerFormatException} saying what is wrong; the core then scans. Returns null when the
     * snapshot cannot serve this open (other options, a stream that cannot grow in place, strict mode
     * with recorded damage): the core then calls {@link #open}. The default has no snapshots.
     */
    default Container openFromIndex(ContainerSource source, ByteBuffer snapshot, long snapshotSize) throws IOException {
        return null;
    }

    /**
     * Writes whatever an empty container of this format holds (a file header, say) into the empty
     * file behind {@code source}, then opens it. The default suits formats whose empty container is
     * an empty file.
     */
    default Container create(ContainerSource source) throws IOException {
        return open(source);
    }

    /**
     * For a format that cannot grow a container in place and instead assembles a new one beside its
     * target, renaming it into place when the file system closes (SIONlib): the name of a sibling
     * staging file. For a target that does not exist, the core then creates and locks that sibling
     * instead of the target, and hands it to {@link #create} as the source's channel (emptied or not:
     * leftovers are a dead writer's, since the lock is held); {@link ContainerSource#path()} stays the
     * target, which does not exist until the format's commit. Null (the default): the core creates
     * the empty target itself.
     */
    default String creationStagingName(String targetFileName) {
        return null;
    }

    int PROBE_BYTES = 4096;
}
