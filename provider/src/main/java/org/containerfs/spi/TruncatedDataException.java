package org.containerfs.spi;

/** A read reached bytes that the container declares but does not hold (the file ends early). */
public class TruncatedDataException extends ContainerFormatException {
    public TruncatedDataException(String file, long offset, String context, String expected, String found) {
        super(file, offset, context, expected, found);
    }
}
