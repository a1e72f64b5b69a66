package org.containerfs.spi;

/** Stored and computed checksums differ (G3 frame CRC, scda Adler-32, ...). */
public class ChecksumMismatchException extends ContainerFormatException {
    public ChecksumMismatchException(String file, long offset, String context, String expected, String found) {
        super(file, offset, context, expected, found);
    }
}
