package org.containerfs.fuse;

/** FUSE cannot be used on this machine: the message says what to install or enable. */
public final class FuseUnavailableException extends Exception {
    public FuseUnavailableException(String message) {
        super(message);
    }

    public FuseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
