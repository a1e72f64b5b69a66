package org.containerfs.spi;

import java.nio.file.AccessDeniedException;

/**
 * A name no container of the format can hold (not {@code recNN.<type>} in LIME, a malformed
 * {@code %}-escape, a type longer than the format allows), as opposed to a well-formed name the
 * container refuses in its present state (a closed message, not the next number). An
 * {@link AccessDeniedException}, as every refused mutation is, so callers that catch that see no
 * change; the FUSE mount answers it with EINVAL rather than EACCES.
 */
public class InvalidNameException extends AccessDeniedException {
    private static final long serialVersionUID = 1L;

    public InvalidNameException(String name, String reason) {
        super(name, null, reason);
    }
}
