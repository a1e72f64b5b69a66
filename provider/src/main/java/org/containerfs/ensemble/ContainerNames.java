package org.containerfs.ensemble;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.containerfs.core.ContainerFileSystemProvider;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.storage.gzip.GzipInput;

/**
 * Which file names of the source are taken for containers, decided from the name alone so that a
 * listing reads no file: the installed formats' extensions ({@code .lime}, {@code .ildg}, {@code .gsd},
 * {@code .scda}, {@code .sion}, {@code .g3}), each also with {@code .gz} or {@code .gzip} after it (the
 * decompression layer reads any format from gzip, docs/compressed.md), case-insensitive, and optionally env
 * {@code containerNames}, a regular expression a whole file name must match ({@code conf\.[0-9]+} for
 * ensembles whose configurations have no extension). The magic bytes are checked later, on first use
 * of a container's inside.
 */
final class ContainerNames {
    /** A later file of a SIONlib multi-file set: the first file's name and six digits. */
    private static final Pattern SION_MEMBER = Pattern.compile("(.+\\.[sS][iI][oO][nN])\\.[0-9]{6}");

    private final List<String> suffixes = new ArrayList<>();
    private final Pattern extra;

    ContainerNames(String extraRegex) {
        for (ContainerFileSystemProvider p : ContainerFileSystems.providers()) {
            for (String ext : p.format().fileExtensions()) {
                suffixes.add("." + ext.toLowerCase(Locale.ROOT));
            }
        }
        try {
            this.extra = extraRegex == null || extraRegex.isEmpty() ? null : Pattern.compile(extraRegex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("env containerNames must be a regular expression: " + e.getMessage(), e);
        }
    }

    /** Whether a file of this name is shown as a container (if it is a regular file and not a set member). */
    boolean looksLikeContainer(String fileName) {
        if (sionSetOwner(fileName) != null) {
            return false;
        }
        String lower = GzipInput.innerName(fileName).toLowerCase(Locale.ROOT);
        for (String suffix : suffixes) {
            if (lower.endsWith(suffix) && lower.length() > suffix.length()) {
                return true;
            }
        }
        return extra != null && extra.matcher(fileName).matches();
    }

    /**
     * Whether a container of this name is one file: named with a format's extension that is not SIONlib's (whose
     * sets span several files). A name taken for a container only through env {@code containerNames} says nothing
     * of its format: false.
     */
    boolean singleFile(String fileName) {
        String lower = GzipInput.innerName(fileName).toLowerCase(Locale.ROOT);
        if (lower.endsWith(".sion")) {
            return false;
        }
        for (String suffix : suffixes) {
            if (lower.endsWith(suffix) && lower.length() > suffix.length()) {
                return true;
            }
        }
        return false;
    }

    /**
     * For {@code x.sion.000001}, the name of the set's first file ({@code x.sion}), which shows the
     * whole set; null for any other name.
     */
    static String sionSetOwner(String fileName) {
        // asked of every name of every path used: the regular expression only for names that end in ".NNNNNN"
        int n = fileName.length();
        if (n < 13 || fileName.charAt(n - 7) != '.' || !Character.isDigit(fileName.charAt(n - 1))) {
            return null;
        }
        var m = SION_MEMBER.matcher(fileName);
        return m.matches() ? m.group(1) : null;
    }
}
