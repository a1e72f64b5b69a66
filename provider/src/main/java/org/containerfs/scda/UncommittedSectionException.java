package org.containerfs.scda;

import org.containerfs.spi.ContainerFormatException;

/**
 * The tail starts with a section whose type byte is still the writer's placeholder {@code '?'}:
 * an append that was stopped before its commit point. Nothing in it is committed; the next append
 * truncates it away.
 */
final class UncommittedSectionException extends ContainerFormatException {
    UncommittedSectionException(String file, long offset, String context, String expected, String found) {
        super(file, offset, context, expected, found);
    }
}
