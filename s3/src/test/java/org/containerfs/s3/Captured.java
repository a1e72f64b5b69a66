package org.containerfs.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Everything the S3 tests saw (messages, attributes, listings, command output), appended to
 * {@code target/s3-captured.txt}: SecretScanTest, run after them, greps it for the secret key.
 */
public final class Captured {
    public static final Path FILE = Path.of(System.getProperty("s3.captured", "target/s3-captured.txt"));

    private Captured() {}

    public static synchronized void note(String text) {
        try {
            Files.writeString(FILE, (text == null ? "null" : text) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Notes the message of every exception in the chain, with the causes' messages. */
    public static void note(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            note(c.getClass().getName() + ": " + c.getMessage());
        }
    }
}
