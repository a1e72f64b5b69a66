package org.containerfs.cli;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.ReadOnlyFileSystemException;

/** One readable line for an exception: what failed and why, without class names where the type says it. */
final class Errors {
    private Errors() {}

    static String describe(Throwable t) {
        if ((t instanceof UncheckedIOException || t instanceof DirectoryIteratorException) && t.getCause() != null) {
            t = t.getCause();
        }
        String message = switch (t) {
            case CliException c -> c.getMessage();
            case NoSuchFileException e -> fileProblem(e, "no such file or directory");
            case FileAlreadyExistsException e -> fileProblem(e, "already exists");
            case AccessDeniedException e -> fileProblem(e, "access denied");
            case NotDirectoryException e -> fileProblem(e, "not a directory");
            case FileSystemException e -> fileProblem(e, e.getClass().getSimpleName());
            case ReadOnlyFileSystemException e -> "the file system is read-only";
            case ProviderNotFoundException e -> "not a container of a supported format" + detail(e);
            case OutOfMemoryError e -> "out of memory (raise -Xmx): " + e.getMessage();
            default -> t.getMessage() == null || t.getMessage().isBlank()
                    ? t.getClass().getSimpleName()
                    : (t instanceof java.io.IOException || t instanceof IllegalArgumentException
                            || t instanceof UnsupportedOperationException ? "" : t.getClass().getSimpleName() + ": ")
                            + t.getMessage();
        };
        return safe(message);
    }

    private static String fileProblem(FileSystemException e, String what) {
        StringBuilder sb = new StringBuilder();
        if (e.getFile() != null) {
            sb.append(e.getFile());
            if (e.getOtherFile() != null) {
                sb.append(" -> ").append(e.getOtherFile());
            }
            sb.append(": ");
        }
        sb.append(e.getReason() != null ? e.getReason() : what);
        return sb.toString();
    }

    private static String detail(Throwable t) {
        return t.getMessage() == null ? "" : ": " + t.getMessage();
    }

    /** Control characters (from file names or container bytes) must not reach the terminal raw. */
    static String safe(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || (c >= 0x7F && c < 0xA0);
            if (control && sb == null) {
                sb = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (sb != null) {
                if (control) {
                    sb.append(String.format("%%%02X", (int) c));
                } else {
                    sb.append(c);
                }
            }
        }
        return sb == null ? s : sb.toString();
    }
}
