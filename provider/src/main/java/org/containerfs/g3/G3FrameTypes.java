package org.containerfs.g3;

import java.util.Locale;

/**
 * Frame type codes and their names in the tree (tree-mapping.md): standard one-character codes by
 * name, other printable-ASCII codes as {@code adhoc-<chars>}, anything else as {@code 0xHHHHHHHH}.
 */
public final class G3FrameTypes {
    private static final String STANDARD = "THOSMIWCGPELRZN";
    private static final String[] NAMES = {
        "Timepoint", "Housekeeping", "Observation", "Scan", "Map", "InstrumentStatus", "Wiring", "Calibration",
        "GcpSlow", "PipelineInfo", "Ephemeris", "LightCurve", "Statistics", "EndProcessing", "None"
    };

    private G3FrameTypes() {}

    /** The directory-name part for a type code. */
    public static String name(int code) {
        if (code >= 0 && code < 128) {
            int i = STANDARD.indexOf(code);
            if (i >= 0) {
                return NAMES[i];
            }
        }
        String chars = adhocChars(code);
        if (chars != null) {
            return "adhoc-" + chars;
        }
        return String.format(Locale.ROOT, "0x%08X", code);
    }

    /**
     * The characters of an ad-hoc code: its non-zero bytes, most significant first, if they are
     * right-justified printable ASCII (no zero byte after a non-zero one); else null.
     */
    static String adhocChars(int code) {
        StringBuilder sb = new StringBuilder(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            int b = (code >>> shift) & 0xFF;
            if (b == 0) {
                if (sb.length() > 0) {
                    return null;
                }
                continue;
            }
            if (b < 0x20 || b > 0x7E || b == '/' || b == '%' || b == '\\') {
                return null;
            }
            sb.append((char) b);
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    /** The code for a type name as shown in the tree, or null if {@code name} is not one. */
    public static Integer parse(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(name)) {
                return (int) STANDARD.charAt(i);
            }
        }
        if (name.startsWith("adhoc-")) {
            String chars = name.substring(6);
            if (chars.isEmpty() || chars.length() > 4) {
                return null;
            }
            int code = 0;
            for (int i = 0; i < chars.length(); i++) {
                code = (code << 8) | chars.charAt(i);
            }
            return name(code).equals(name) ? code : null;
        }
        if (name.length() == 10 && name.startsWith("0x")) {
            try {
                int code = Integer.parseUnsignedInt(name.substring(2), 16);
                return name(code).equals(name) ? code : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** The code of a 1- to 4-character ad-hoc type as spt3g builds it (first character most significant). */
    public static int adhoc(String chars) {
        if (chars.isEmpty() || chars.length() > 4) {
            throw new IllegalArgumentException("an ad-hoc frame type has 1 to 4 characters: '" + chars + "'");
        }
        int code = 0;
        for (int i = 0; i < chars.length(); i++) {
            char c = chars.charAt(i);
            if (c > 0x7E || c < 0x20) {
                throw new IllegalArgumentException("an ad-hoc frame type is printable ASCII: '" + chars + "'");
            }
            code = (code << 8) | c;
        }
        return code;
    }
}
