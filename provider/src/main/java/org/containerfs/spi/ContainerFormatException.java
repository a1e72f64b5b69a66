package org.containerfs.spi;

import java.io.IOException;

/**
 * Bad input. Formats throw this or a subclass for anything wrong with a container's bytes.
 *
 * <p>Every message has one shape, built here from its parts so that no call site can word it
 * differently:
 *
 * <pre>{@code <file> at byte <offset>: [<context>: ]expected <expected>, found <found>}</pre>
 *
 * for example {@code run.gsd at byte 8: file header: expected an index of 32-byte slots from byte 256 on
 * inside the file of 3000 bytes, found 128 slots at byte 256, which end at byte 4352}. {@code expected} says what the format requires
 * there, {@code found} what the bytes actually hold (a value, a count, or where the file ends);
 * {@code context} (optional) names the part of the container, such as {@code "entry 12"} or
 * {@code "task 3"}. There is deliberately no constructor that takes free text.
 */
public class ContainerFormatException extends IOException {
    private final String file;
    private final long offset;
    private final String context;
    private final String expected;
    private final String found;

    /**
     * @param file the container file's name as the user gave it
     * @param offset the byte offset in that file where the problem is
     * @param context the part of the container, or null for none (then the message has no context)
     * @param expected what the format requires at that offset (not null or blank)
     * @param found what the bytes hold instead (not null or blank)
     */
    public ContainerFormatException(String file, long offset, String context, String expected, String found) {
        super(message(file, offset, context, expected, found));
        this.file = file;
        this.offset = offset;
        this.context = context == null || context.isBlank() ? null : context;
        this.expected = expected;
        this.found = found;
    }

    public ContainerFormatException(String file, long offset, String context, String expected, String found,
            Throwable cause) {
        this(file, offset, context, expected, found);
        initCause(cause);
    }

    /** The one message shape; public so that other reports (verify's damage lines) can use it too. */
    public static String message(String file, long offset, String context, String expected, String found) {
        if (expected == null || expected.isBlank()) {
            throw new IllegalArgumentException("a format error must say what was expected");
        }
        if (found == null || found.isBlank()) {
            throw new IllegalArgumentException("a format error must say what was found");
        }
        StringBuilder sb = new StringBuilder().append(file).append(" at byte ").append(offset).append(": ");
        if (context != null && !context.isBlank()) {
            sb.append(context).append(": ");
        }
        return sb.append("expected ").append(expected).append(", found ").append(found).toString();
    }

    public String file() {
        return file;
    }

    public long offset() {
        return offset;
    }

    /** The part of the container the offset lies in, or null. */
    public String context() {
        return context;
    }

    /** What the format requires at {@link #offset()}. */
    public String expected() {
        return expected;
    }

    /** What the bytes at {@link #offset()} hold instead. */
    public String found() {
        return found;
    }
}
