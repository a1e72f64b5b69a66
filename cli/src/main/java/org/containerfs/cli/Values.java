package org.containerfs.cli;

import java.lang.reflect.Array;
import java.util.Collection;
import java.util.Map;
import java.util.StringJoiner;
import org.containerfs.spi.Names;

/** Attribute values as text: raw bytes through the tree's name codec, text with control bytes escaped. */
final class Values {
    private Values() {}

    static String show(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof byte[] bytes) {
            return Names.encodeBytes(bytes);
        }
        if (value instanceof Collection<?> c) {
            StringJoiner j = new StringJoiner(",");
            c.forEach(v -> j.add(show(v)));
            return j.toString();
        }
        if (value.getClass().isArray()) {
            StringJoiner j = new StringJoiner(",");
            for (int i = 0; i < Array.getLength(value); i++) {
                j.add(show(Array.get(value, i)));
            }
            return j.toString();
        }
        return Errors.safe(value.toString());
    }

    /** True when a value says nothing in a compact listing: false, empty text, empty collection. */
    static boolean isBlank(Object value) {
        return value == null
                || Boolean.FALSE.equals(value)
                || (value instanceof CharSequence s && s.isEmpty())
                || (value instanceof Collection<?> c && c.isEmpty())
                || (value instanceof Map<?, ?> m && m.isEmpty());
    }

    /**
     * The compact {@code ls -l} form of a node's format attributes: {@code key=value} pairs, a true flag as its
     * bare key, false flags and empty values left out, and the length left out where it repeats the size column.
     * With {@code explicit} (attributes the user named) every attribute is shown as {@code key=value}.
     */
    static String compact(Map<String, Object> attributes, long size, boolean explicit) {
        StringJoiner j = new StringJoiner(" ");
        for (Map.Entry<String, Object> e : attributes.entrySet()) {
            String key = e.getKey();
            Object v = e.getValue();
            if (explicit) {
                j.add(key + "=" + quoted(show(v)));
                continue;
            }
            if (isBlank(v)) {
                continue;
            }
            if ((key.equals("length") || key.equals("size")) && v instanceof Number n && n.longValue() == size) {
                continue;
            }
            if (Boolean.TRUE.equals(v)) {
                j.add(key);
                continue;
            }
            j.add(key + "=" + quoted(show(v)));
        }
        return j.toString();
    }

    private static String quoted(String text) {
        return text.isEmpty() || text.contains(" ") ? '"' + text + '"' : text;
    }
}
