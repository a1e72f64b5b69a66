package org.containerfs.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** The one comparison of the suite: a door's answer against the reference's, through the door's aspects. */
final class Comparison {
    private Comparison() {}

    /** How many differing paths a message lists after the first. */
    private static final int SHOWN = 8;

    /**
     * Null when the door's answer equals the reference's as the door can see it; otherwise a message naming
     * the door, the input, the first differing path and both answers there.
     */
    static String difference(String door, Input input, Answer reference, Answer answer, Set<Aspect> aspects) {
        Answer expected = reference.seenThrough(aspects);
        Answer actual = answer.seenThrough(aspects);
        String where = "door " + door + " disagrees with nio on " + input + " (" + input.variant() + " of corpus file "
                + input.format() + "/" + input.corpusName() + ")";
        if (expected.refused() != actual.refused()) {
            return where + ": nio " + (expected.refused() ? "refuses to open it" : "opens it (" + expected + ")")
                    + ", " + door + " " + (actual.refused() ? "refuses to open it" : "opens it (" + actual + ")");
        }
        TreeSet<String> paths = new TreeSet<>(expected.entries().keySet());
        paths.addAll(actual.entries().keySet());
        List<String> differing = new ArrayList<>();
        for (String path : paths) {
            if (!Objects.equals(expected.entries().get(path), actual.entries().get(path))) {
                differing.add(path);
            }
        }
        if (differing.isEmpty()) {
            return null;
        }
        String first = differing.get(0);
        StringBuilder message = new StringBuilder(where).append(": first differing path ").append(first)
                .append(": nio: ").append(describe(expected, first)).append("; ").append(door).append(": ")
                .append(describe(actual, first)).append(" (").append(differing.size()).append(" of ")
                .append(paths.size()).append(" paths differ");
        for (String path : differing.subList(1, Math.min(differing.size(), SHOWN + 1))) {
            message.append("; ").append(path).append(": nio ").append(describe(expected, path)).append(" / ")
                    .append(door).append(' ').append(describe(actual, path));
        }
        return message.append(differing.size() > SHOWN + 1 ? "; ...)" : ")").toString();
    }

    private static String describe(Answer answer, String path) {
        Answer.Entry e = answer.entries().get(path);
        return e == null ? "absent" : e.toString();
    }
}
