package org.containerfs.core;

import java.util.regex.PatternSyntaxException;

/** Translates a glob (as {@link java.nio.file.FileSystem#getPathMatcher} defines it) to a regex. */
final class Globs {
    private Globs() {}

    static String toRegex(String glob) {
        StringBuilder re = new StringBuilder("^");
        boolean inGroup = false;
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '\\' -> {
                    if (++i >= glob.length()) {
                        throw new PatternSyntaxException("trailing escape", glob, i - 1);
                    }
                    re.append(Pattern.quote(glob.charAt(i)));
                }
                case '*' -> {
                    if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                        re.append(".*");
                        i++;
                    } else {
                        re.append("[^/]*");
                    }
                }
                case '?' -> re.append("[^/]");
                case '{' -> {
                    if (inGroup) {
                        throw new PatternSyntaxException("nested groups", glob, i);
                    }
                    re.append("(?:");
                    inGroup = true;
                }
                case '}' -> {
                    if (inGroup) {
                        re.append(')');
                        inGroup = false;
                    } else {
                        re.append("\\}");
                    }
                }
                case ',' -> re.append(inGroup ? "|" : ",");
                case '[' -> {
                    int end = glob.indexOf(']', i + 1);
                    if (end < 0) {
                        throw new PatternSyntaxException("missing ']'", glob, i);
                    }
                    String body = glob.substring(i + 1, end);
                    boolean negated = body.startsWith("!");
                    if (negated) {
                        body = body.substring(1);
                    }
                    // "[^/]" first, then the set: a negated set such as [!a] must still never match '/'
                    // ("[^a&&[^/]]" would negate the intersection and match it).
                    re.append("[[^/]&&[").append(negated ? "^" : "")
                            .append(classBody(body)).append("]]");
                    i = end;
                }
                default -> re.append(Pattern.quote(c));
            }
        }
        if (inGroup) {
            throw new PatternSyntaxException("missing '}'", glob, glob.length());
        }
        return re.append('$').toString();
    }

    /** A bracket expression's characters and ranges, with the characters regex classes treat specially escaped. */
    private static String classBody(String body) {
        StringBuilder sb = new StringBuilder(body.length() + 4);
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\' || c == '[' || c == '^' || c == '&') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static final class Pattern {
        static String quote(char c) {
            return "\\.^$|?*+()[]{}".indexOf(c) >= 0 ? "\\" + c : String.valueOf(c);
        }
    }
}
