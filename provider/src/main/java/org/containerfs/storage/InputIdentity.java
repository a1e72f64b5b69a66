package org.containerfs.storage;

import java.net.URI;
import java.util.Objects;

/**
 * The identity of a container's bytes: its location, its length and a version tag (an S3 ETag, a
 * modification time in milliseconds, a generation number). Two equal identities promise equal bytes;
 * the persisted index cache is keyed by it.
 *
 * @param uri where the container lives, without credentials
 * @param size its length in bytes
 * @param version whatever the store changes whenever the bytes change ({@code ""} if it has nothing)
 */
public record InputIdentity(URI uri, long size, String version) {
    public InputIdentity {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(version, "version");
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size + " of " + uri);
        }
    }
}
