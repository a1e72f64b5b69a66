package org.containerfs.spark;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.GlobFilter;
import org.apache.hadoop.fs.GlobPattern;
import org.apache.hadoop.fs.Path;

/**
 * Whether a SIONlib member file ({@code x.sion.000001}) is read by the same load as its set's first file
 * ({@code x.sion}): then the first file's tasks give the set's rows and the member gives none. A task sees one file
 * of Spark's listing, not the listing, so this is decided from what the task knows: the first file must exist
 * beside the member, pass {@code pathGlobFilter}, and be selected by the load paths when Spark passes them as
 * options (one load path, a table's location); with several load paths (which Spark does not pass on), a first
 * file beside the member counts as read.
 */
final class SetMembers {
    private SetMembers() {}

    /** How SIONlib names the members of a multi-file set: the first file's name, a dot, the file number (%06d). */
    private static final Pattern SION_MEMBER = Pattern.compile("(.+)\\.(\\d{6,})");

    static boolean firstFileInLoad(FileSystem fs, Path member, ReadOptions options) throws IOException {
        Matcher m = SION_MEMBER.matcher(member.getName());
        if (!m.matches() || m.group(2).matches("0+") || member.getParent() == null) {
            return false;
        }
        Path first = new Path(member.getParent(), m.group(1));
        if (options.pathGlobFilter != null && !new GlobFilter(options.pathGlobFilter).accept(first)) {
            return false;
        }
        if (!fs.exists(first)) {
            return false;
        }
        if (options.paths.isEmpty()) {
            return true;
        }
        Path qualified = fs.makeQualified(first);
        for (String given : options.paths) {
            if (selects(fs.makeQualified(new Path(given)), qualified)) {
                return true;
            }
        }
        return false;
    }

    /** Whether load path {@code load} (a file, a directory or a glob) reaches {@code file}. */
    private static boolean selects(Path load, Path file) {
        String pattern = load.toUri().getPath();
        boolean glob = pattern.chars().anyMatch(c -> "*?[{".indexOf(c) >= 0);
        for (Path p = file; p != null; p = p.getParent()) {
            String candidate = p.toUri().getPath();
            if (glob ? new GlobPattern(pattern).matches(candidate) : candidate.equals(pattern)) {
                return true;
            }
        }
        return false;
    }
}
