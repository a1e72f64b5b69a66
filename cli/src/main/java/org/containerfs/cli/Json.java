package org.containerfs.cli;

import java.lang.reflect.Array;
import java.nio.file.attribute.FileTime;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;

/**
 * JSON text for the {@code --json} output (RFC 8259). Writing needs no library: values are maps, lists, strings,
 * numbers, booleans and null, and strings are escaped here ({@code "}, {@code \}, control characters, and lone
 * surrogates, which no UTF-8 encoder can write). Raw bytes ({@code byte[]} attributes such as {@code lime:type})
 * become lower-case hex strings; a non-finite number becomes its text in a string.
 */
final class Json {
    private static final HexFormat HEX = HexFormat.of();

    private Json() {}

    static String of(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value);
        return sb.toString();
    }

    static void write(StringBuilder sb, Object value) {
        if (value == null) {
            sb.append("null");
        } else if (value instanceof Boolean b) {
            sb.append(b);
        } else if (value instanceof Double d && !Double.isFinite(d) || value instanceof Float f && !Float.isFinite(f)) {
            string(sb, value.toString());
        } else if (value instanceof Number n) {
            sb.append(n);
        } else if (value instanceof byte[] bytes) {
            string(sb, HEX.formatHex(bytes));
        } else if (value instanceof Map<?, ?> map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                string(sb, String.valueOf(e.getKey()));
                sb.append(':');
                write(sb, e.getValue());
            }
            sb.append('}');
        } else if (value instanceof Collection<?> c) {
            sb.append('[');
            boolean first = true;
            for (Object o : c) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                write(sb, o);
            }
            sb.append(']');
        } else if (value.getClass().isArray()) {
            sb.append('[');
            for (int i = 0; i < Array.getLength(value); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                write(sb, Array.get(value, i));
            }
            sb.append(']');
        } else if (value instanceof FileTime t) {
            string(sb, t.toString());
        } else {
            string(sb, value.toString());
        }
    }

    static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    boolean loneSurrogate = Character.isHighSurrogate(c)
                            ? i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))
                            : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
                    if (c < 0x20 || c == 0x7F || loneSurrogate) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
