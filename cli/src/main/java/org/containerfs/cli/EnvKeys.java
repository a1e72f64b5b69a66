package org.containerfs.cli;

import java.util.List;
import java.util.Locale;

/**
 * The env keys that something reads (the core, the formats, the S3 module), so that a typo given to {@code --env}
 * is named rather than silently doing nothing. EnvKeysTest checks the list against the keys the sources read.
 */
final class EnvKeys {
    private EnvKeys() {}

    static final List<String> KNOWN = List.of(
            // core
            "accessMode", "create", "format", "strict", "refresh", "sync", "indexCache", "indexCacheMinSize",
            "blockCache", "blockCacheBytes", "blockCacheBlockSize", "blockCacheReadAhead", "blockCacheAlignment",
            "blockCacheThreads",
            // a directory as one tree (docs/ensemble.md)
            "cacheContainers", "containerNames",
            // the decompression layer (docs/compressed.md; gzipSpan and gzipNative too, listed with G3)
            "gzipWindowMemory",
            // GSD
            "hoomd", "application", "schema", "schemaVersion",
            // scda
            "lenient", "decode", "encode", "encodeLevel", "vendor", "userString", "lineBreak",
            // SIONlib
            "chunks", "recover", "blockSize", "prefix", "fsblksize", "endianness",
            // G3
            "verify", "gzipSpan", "gzipIndex", "gzipIndexDir", "gzipNative", "maxFrameBytes",
            // S3
            "s3.endpoint", "s3.region", "s3.pathStyle", "s3.connectTimeout", "s3.requestTimeout", "s3.totalTimeout",
            "s3.openReadBytes",
            // trees of many containers (a directory, an S3 prefix)
            "cacheContainers", "cacheBytes", "containerNames", "s3.listCacheEntries", "s3.listPageKeys");

    /** Null when {@code key} is read by something, else the warning that names it and the nearest known key. */
    static String warning(String key) {
        if (KNOWN.contains(key) || key.startsWith("containerfs.")) { // containerfs.*: test hooks of the core
            return null;
        }
        return "--env " + key + " is not an option of containerfs, its formats or S3, so it changes nothing; did you "
                + "mean " + nearest(key) + "?";
    }

    /** The known key fewest single-character edits away (case ignored), the first of equals. */
    static String nearest(String key) {
        String best = KNOWN.get(0);
        int bestDistance = Integer.MAX_VALUE;
        for (String known : KNOWN) {
            int d = distance(key.toLowerCase(Locale.ROOT), known.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = known;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance, one row at a time. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
