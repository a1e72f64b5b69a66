package org.containerfs.spi;

/** The container declares a format version this implementation does not read. */
public class UnsupportedVersionException extends ContainerFormatException {
    public UnsupportedVersionException(String file, long offset, String context, String expected, String found) {
        super(file, offset, context, expected, found);
    }
}
