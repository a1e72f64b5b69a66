package org.containerfs.spi;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** The {@code env} map given to {@code newFileSystem}, with typed look-ups (values may be strings or typed). */
public final class FormatOptions {
    private final Map<String, ?> env;

    public FormatOptions(Map<String, ?> env) {
        this.env = env == null ? Map.of() : Collections.unmodifiableMap(new HashMap<>(env));
    }

    public Map<String, ?> asMap() {
        return env;
    }

    public boolean has(String key) {
        return env.containsKey(key);
    }

    public boolean getBoolean(String key, boolean defaultValue) {
        Object v = env.get(key);
        if (v == null) {
            return defaultValue;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = v.toString().trim();
        if (s.equalsIgnoreCase("true")) {
            return true;
        }
        if (s.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("env option " + key + " must be true or false, got '" + s + "'");
    }

    public long getLong(String key, long defaultValue) {
        Object v = env.get(key);
        if (v == null) {
            return defaultValue;
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        try {
            return Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("env option " + key + " must be an integer, got '" + v + "'");
        }
    }

    public String getString(String key, String defaultValue) {
        Object v = env.get(key);
        return v == null ? defaultValue : v.toString();
    }
}
