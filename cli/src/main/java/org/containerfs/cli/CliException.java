package org.containerfs.cli;

/** A failure whose message is complete for the user (no exception class name, no stack trace). */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    CliException(String message) {
        this(message, 1);
    }

    CliException(String message, int status) {
        super(message);
        this.status = status;
    }

    int status() {
        return status;
    }
}
