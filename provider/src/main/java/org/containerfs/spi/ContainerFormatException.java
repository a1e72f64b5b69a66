package org.containerfs.spi;

import java.io.IOException;

/**
 * Bad input: the message names the container file, the byte offset and what was expected there.
 * Formats throw this or a subclass for anything wrong with a container's bytes.
 */
public class ContainerFormatException extends IOException {
    private final String file;
    private final long offset;

    public ContainerFormatException(String file, long offset, String expected) {
        super(file + " at byte " + offset + ": " + expected);
        this.file = file;
        this.offset = offset;
    }

    public ContainerFormatException(String file, long offset, String expected, Throwable cause) {
        this(file, offset, expected);
        initCause(cause);
    }

    public String file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
