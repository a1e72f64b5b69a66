package org.containerfs.spi;

/** The container declares a format version this implementation does not read. */
public class UnsupportedVersionException extends ContainerFormatException {
    public UnsupportedVersionException(String file, long offset, String expected) {
        super(file, offset, expected);
    }
}
