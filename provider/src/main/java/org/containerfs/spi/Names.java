package org.containerfs.spi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The one name codec of the tree contract (docs/tree.md): raw name bytes from a container become a path component.
 * {@code %}, {@code /}, {@code \}, control bytes and bytes of invalid UTF-8 become {@code %HH};
 * everything else stays. Components longer than 255 UTF-8 bytes are cut and made unique with a hash.
 */
public final class Names {
    /** Linux NAME_MAX: the longest component a FUSE mount can show. */
    public static final int MAX_COMPONENT_BYTES = 255;
    private static final int CUT_BYTES = 220;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Names() {}

    /** A name that is a whole component on its own (G3 key, GSD name part): also maps "", "." and "..". */
    public static String component(byte[] raw) {
        if (raw.length == 0) {
            return "%";
        }
        String encoded;
        if (raw.length == 1 && raw[0] == '.') {
            encoded = "%2E";
        } else if (raw.length == 2 && raw[0] == '.' && raw[1] == '.') {
            encoded = "%2E%2E";
        } else {
            encoded = encodeBytes(raw);
        }
        return limitLength("", encoded, raw);
    }

    /** {@code prefix.<name>} (e.g. {@code rec02.<type>}); an empty name drops the dot. */
    public static String prefixed(String prefix, byte[] raw) {
        if (raw.length == 0) {
            return prefix;
        }
        return limitLength(prefix + ".", encodeBytes(raw), raw);
    }

    /** Decodes an encoded name back to its raw bytes, or null if it was shortened (the hash form). */
    public static byte[] decode(String encoded) {
        if (encoded.equals("%")) {
            return new byte[0];
        }
        if (encoded.contains("%%")) {
            return null;
        }
        byte[] utf8 = encoded.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(utf8.length);
        for (int i = 0; i < utf8.length; i++) {
            if (utf8[i] == '%') {
                if (i + 2 >= utf8.length) {
                    throw new IllegalArgumentException("bad escape in name '" + encoded + "'");
                }
                int hi = Character.digit(utf8[i + 1], 16);
                int lo = Character.digit(utf8[i + 2], 16);
                if (hi < 0 || lo < 0) { // Integer.parseInt would take "%+1" as byte 1
                    throw new IllegalArgumentException("bad escape in name '" + encoded + "'");
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else {
                out.write(utf8[i]);
            }
        }
        return out.toByteArray();
    }

    /** The byte rules alone (no special components, no length limit). */
    public static String encodeBytes(byte[] raw) {
        StringBuilder sb = new StringBuilder(raw.length + 8);
        int i = 0;
        while (i < raw.length) {
            int b = raw[i] & 0xFF;
            if (b < 0x80) {
                if (b < 0x20 || b == 0x7F || b == '%' || b == '/' || b == '\\') {
                    escape(sb, b);
                } else {
                    sb.append((char) b);
                }
                i++;
                continue;
            }
            int len = validUtf8Length(raw, i);
            if (len == 0) {
                escape(sb, b);
                i++;
            } else {
                sb.append(new String(raw, i, len, StandardCharsets.UTF_8));
                i += len;
            }
        }
        return sb.toString();
    }

    private static void escape(StringBuilder sb, int b) {
        sb.append('%').append(HEX[b >> 4]).append(HEX[b & 0xF]);
    }

    /** Length of the well-formed UTF-8 sequence starting at {@code i} (lead byte >= 0x80), or 0. */
    private static int validUtf8Length(byte[] raw, int i) {
        int b0 = raw[i] & 0xFF;
        int len;
        int min;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            len = 2;
            min = 0x80;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            len = 3;
            min = 0x800;
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            len = 4;
            min = 0x10000;
        } else {
            return 0;
        }
        if (i + len > raw.length) {
            return 0;
        }
        int cp = b0 & (0x7F >> len);
        for (int k = 1; k < len; k++) {
            int c = raw[i + k] & 0xFF;
            if ((c & 0xC0) != 0x80) {
                return 0;
            }
            cp = (cp << 6) | (c & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return 0;
        }
        return len;
    }

    private static String limitLength(String prefix, String encoded, byte[] raw) {
        String whole = prefix + encoded;
        if (utf8Length(whole) <= MAX_COMPONENT_BYTES) {
            return whole;
        }
        StringBuilder cut = new StringBuilder(prefix);
        int bytes = utf8Length(prefix);
        int i = 0;
        while (i < encoded.length()) {
            int cp = encoded.codePointAt(i);
            // a %HH escape is kept whole: three ASCII characters
            int step = cp == '%' ? 3 : Character.charCount(cp);
            int stepBytes = cp == '%' ? 3 : utf8Length(encoded.substring(i, i + step));
            if (bytes + stepBytes > CUT_BYTES) {
                break;
            }
            cut.append(encoded, i, i + step);
            bytes += stepBytes;
            i += step;
        }
        return cut + "%%" + sha256Hex(raw).substring(0, 32);
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    public static String sha256Hex(byte[] data) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(data);
            StringBuilder sb = new StringBuilder(64);
            for (byte b : d) {
                sb.append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
            }
            return sb.toString().toLowerCase(java.util.Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code prefix + number} zero-padded to {@code width} digits, growing past it (msg05, msg100). */
    public static String indexed(String prefix, long number, int width) {
        return indexed(prefix, number, width, "");
    }

    /**
     * {@code indexed(prefix, number, width) + suffix}, made in one step: listings make a name per entry.
     * A number with at least {@code width} digits (nearly all of a large directory) is one string
     * concatenation, which the JDK sizes and fills in a single allocation: 2.5 times faster than filling a
     * char or byte array here and copying it into the String.
     */
    public static String indexed(String prefix, long number, int width, String suffix) {
        if (number >= 0 && (width <= 1 || (width <= POWERS_OF_TEN.length && number >= POWERS_OF_TEN[width - 1]))) {
            return prefix + number + suffix;
        }
        String digits = Long.toString(number);
        return prefix + "0".repeat(Math.max(0, width - digits.length())) + digits + suffix;
    }

    /** 10^0 ... 10^18: a number of at least k digits is at least POWERS_OF_TEN[k - 1]. */
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    /**
     * Parses the number of a canonical indexed name ({@code msg05} with prefix "msg", width 2), or
     * returns -1 if {@code name} is not exactly the canonical form (so "msg5" and "msg005" are not names).
     */
    public static long parseIndexed(String name, String prefix, int width) {
        return parseIndexed(name, name.length(), prefix, width);
    }

    /** As {@link #parseIndexed(String, String, int)} for the first {@code end} characters of {@code name}. */
    public static long parseIndexed(String name, int end, String prefix, int width) {
        if (!name.startsWith(prefix)) {
            return -1;
        }
        int n = end - prefix.length();
        if (n < Math.max(width, 1) || n > 18) {
            return -1;
        }
        long v = 0;
        for (int i = prefix.length(); i < end; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        // Canonical means what indexed() would print: zero-padded to exactly the width, or wider
        // without a leading zero. Checked in place: this runs for every path lookup.
        boolean canonical = n == width || n == 1 || name.charAt(prefix.length()) != '0';
        return canonical ? v : -1;
    }
}
