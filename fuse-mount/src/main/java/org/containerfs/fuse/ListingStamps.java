package org.containerfs.fuse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * How a mount knows, without listing a directory, that its listing is the one it listed before: a value that
 * moves whenever the listing may have changed, or none (then it lists). A directory of containers has one for
 * every directory a container shows ({@code EnsembleFileSystem.listingStamp}: one {@code stat} of the container's
 * file), so a second {@code ls -lR} of the mount reopens no container (see
 * {@link NioLowLevelOperations#stampListings}).
 */
public interface ListingStamps {
    /** The stamp of directory {@code dir} now, or empty where there is no cheap one. */
    OptionalLong stamp(Path dir) throws IOException;
}
