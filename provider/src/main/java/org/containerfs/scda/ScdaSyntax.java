package org.containerfs.scda;

import java.nio.charset.StandardCharsets;

/**
 * The byte-level building blocks of scda: the fixed-length ("-") padding of user strings and count
 * entries, the modulo-32 ("=") data padding, both in the Unix form (byte-identical to libsc) and the
 * MIME form of the paper (Table 1). Parsing reports a violated rule as a string (null when the bytes
 * are fine), so that the caller can name the section and offset.
 */
final class ScdaSyntax {
    static final byte[] MAGIC = "scdata0".getBytes(StandardCharsets.US_ASCII);
    static final int FILE_HEADER = 128;
    static final int COMMON_HEADER = 64;
    static final int ENTRY = 32;
    static final int INLINE_DATA = 32;
    static final int USER_FIELD = 62;
    static final int VENDOR_FIELD = 24;
    static final int COUNT_FIELD = 30;
    /** libsc's and the paper's limit; libsc's reader accepts 59 behind a single dash (lenient). */
    static final int MAX_USER = 58;
    static final int MAX_USER_LENIENT = 59;
    static final int MAX_VENDOR = 20;
    static final int MAX_VENDOR_LENIENT = 22;
    static final int MAX_DIGITS = 26;

    /** The paper's magic user strings of the compression convention (section 3, version 00). */
    static final byte[] MAGIC_BLOCK = ascii("B compressed scda 00");
    static final byte[] MAGIC_ARRAY = ascii("A compressed scda 00");
    static final byte[] MAGIC_VARRAY = ascii("V compressed scda 00");

    private ScdaSyntax() {}

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    // ---- fixed-length padding -------------------------------------------------------------------

    /** {@code raw ' ' '-'... "-\n"} (Unix, libsc) or {@code raw ' ' '-'... "\r\n"} (MIME): exactly {@code length} bytes. */
    static byte[] fixedField(byte[] raw, int length, boolean mime) {
        if (raw.length > length - 4) {
            throw new IllegalArgumentException(raw.length + " bytes do not fit a " + length + "-byte field");
        }
        byte[] f = new byte[length];
        System.arraycopy(raw, 0, f, 0, raw.length);
        f[raw.length] = ' ';
        for (int i = raw.length + 1; i < length - 2; i++) {
            f[i] = '-';
        }
        f[length - 2] = (byte) (mime ? '\r' : '-');
        f[length - 1] = '\n';
        return f;
    }

    /**
     * The length of the raw part of a fixed-length field at {@code b[off..off+length)}, or a negative
     * value when the padding is wrong: -1 bad end, -2 no space before the dashes, -3 too few dashes.
     * Strict: the last two bytes are {@code "-\n"} or {@code "\r\n"} and at least one more dash
     * precedes them (so the padding has at least 4 bytes). Lenient, as libsc: only the final LF is
     * required and zero or more dashes may stand between it and the space; {@code "\r\n"} is taken too.
     */
    static int fixedRawLength(byte[] b, int off, int length, boolean lenient) {
        if (b[off + length - 1] != '\n') {
            return -1;
        }
        int i;
        int dashes = 0;
        byte q = b[off + length - 2];
        if (q == '\r') {
            i = off + length - 3;
        } else if (q == '-') {
            i = off + length - 3;
        } else if (lenient && q == ' ') {
            return length - 2; // libsc: zero dashes
        } else {
            return -1;
        }
        while (i >= off && b[i] == '-') {
            i--;
            dashes++;
        }
        if (i < off || b[i] != ' ') {
            return -2;
        }
        if (!lenient && dashes < 1) {
            return -3;
        }
        return i - off;
    }

    static String fixedRule(int code, int length, boolean lenient) {
        return switch (code) {
            case -1 -> lenient ? "a " + length + "-byte field ending in LF"
                    : "a " + length + "-byte field ending in \"-\\n\" (Unix) or \"\\r\\n\" (MIME)";
            case -2 -> "a space before the field's '-' padding";
            case -3 -> "at least 4 padding bytes (' ', dashes, line break) in a " + length + "-byte field";
            default -> "a valid fixed-length field";
        };
    }

    // ---- count entries -------------------------------------------------------------------------

    /** {@code ident ' '} + the decimal value in a 30-byte fixed field: 32 bytes. */
    static byte[] countEntry(char ident, long value, boolean mime) {
        byte[] e = new byte[ENTRY];
        e[0] = (byte) ident;
        e[1] = ' ';
        System.arraycopy(fixedField(ascii(Long.toUnsignedString(value)), COUNT_FIELD, mime), 0, e, 2, COUNT_FIELD);
        return e;
    }

    /**
     * The value of the digits {@code b[off..off+len)}. Strict: 1..26 decimal digits without leading
     * zeros. Lenient: what {@code sscanf("%llu")} takes (leading white space, a sign, leading zeros,
     * trailing junk; overflow gives 2^64-1). Returns the value as an unsigned long, or throws
     * {@link NumberFormatException} whose message is the violated rule.
     */
    static long parseCount(byte[] b, int off, int len, boolean lenient) {
        if (!lenient) {
            if (len < 1 || len > MAX_DIGITS) {
                throw new NumberFormatException("1 to 26 decimal digits");
            }
            if (len > 1 && b[off] == '0') {
                throw new NumberFormatException("a decimal number without leading zeros (env lenient=true accepts them, as libsc does)");
            }
            for (int i = off; i < off + len; i++) {
                if (b[i] < '0' || b[i] > '9') {
                    throw new NumberFormatException("decimal digits only");
                }
            }
            return saturatingParse(b, off, off + len);
        }
        if (len > MAX_DIGITS) {
            throw new NumberFormatException("at most 26 characters (longer ones overflow libsc's buffer)");
        }
        int i = off;
        int end = off + len;
        while (i < end && isSpace(b[i])) {
            i++;
        }
        boolean negative = false;
        if (i < end && (b[i] == '+' || b[i] == '-')) {
            negative = b[i] == '-';
            i++;
        }
        int digitsStart = i;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        if (i == digitsStart) {
            throw new NumberFormatException("a decimal number");
        }
        long v = saturatingParse(b, digitsStart, i);
        return negative && v != -1L ? -v : v;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** Unsigned decimal parse that saturates at 2^64-1 (strtoull's ERANGE result). */
    private static long saturatingParse(byte[] b, int from, int to) {
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = b[i] - '0';
            long hi = Math.multiplyHigh(v, 10) + ((v >> 63) & 10); // unsigned high word of v*10
            long lo = v * 10;
            if (hi != 0) {
                return -1L;
            }
            long sum = lo + d;
            if (Long.compareUnsigned(sum, lo) < 0) {
                return -1L;
            }
            v = sum;
        }
        return v;
    }

    // ---- data padding ----------------------------------------------------------------------------

    /** Length p (7..38) of the data padding after {@code n} bytes. */
    static int padLength(long n) {
        int p = (int) ((32 - Long.remainderUnsigned(n, 32)) % 32);
        return p < 7 ? p + 32 : p;
    }

    /** The padding after {@code n} data bytes whose last byte is {@code last} (ignored for n = 0). */
    static byte[] dataPadding(long n, int last, boolean mime) {
        int p = padLength(n);
        byte[] pad = new byte[p];
        boolean lf = n > 0 && last == '\n';
        java.util.Arrays.fill(pad, (byte) '=');
        if (mime) {
            if (!lf) {
                pad[0] = '\r';
                pad[1] = '\n';
            }
            pad[p - 4] = '\r';
            pad[p - 3] = '\n';
            pad[p - 2] = '\r';
            pad[p - 1] = '\n';
        } else {
            if (!lf) {
                pad[0] = '\n';
            }
            pad[p - 2] = '\n';
            pad[p - 1] = '\n';
        }
        return pad;
    }

    /**
     * Checks the data padding {@code b[off..off+p)} after {@code n} data bytes ending in {@code last};
     * returns null or the rule. Strict: exactly the Unix or the MIME form for this data. Lenient
     * (libsc, plus MIME): the LF-first start is accepted after LF-terminated data as well.
     */
    static String checkPadding(byte[] b, int off, int p, long n, int last, boolean lenient) {
        boolean lf = n > 0 && last == '\n';
        boolean mime = b[off + p - 2] == '\r';
        int fillFrom;
        int fillTo;
        if (mime) {
            if (b[off + p - 4] != '\r' || b[off + p - 3] != '\n' || b[off + p - 1] != '\n') {
                return "the MIME data padding to end in \"\\r\\n\\r\\n\"";
            }
            fillTo = p - 4;
            if (b[off] == '=' && b[off + 1] == '=') {
                if (!lf) {
                    return "the data padding to start with a line break, because the data does not end in LF";
                }
            } else if (b[off] == '\r' && b[off + 1] == '\n') {
                if (lf && !lenient) {
                    return "the data padding to start with \"==\" after data ending in LF (env lenient=true accepts a line break, as libsc does)";
                }
            } else {
                return "the data padding to start with \"==\" or \"\\r\\n\"";
            }
            fillFrom = 2;
        } else {
            if (b[off + p - 2] != '\n' || b[off + p - 1] != '\n') {
                return "the data padding to end in \"\\n\\n\"";
            }
            fillTo = p - 2;
            if (b[off] == '=') {
                if (!lf) {
                    return "the data padding to start with LF, because the data does not end in LF";
                }
            } else if (b[off] == '\n') {
                if (lf && !lenient) {
                    return "the data padding to start with '=' after data ending in LF (env lenient=true accepts LF, as libsc does)";
                }
            } else {
                return "the data padding to start with '=' or LF";
            }
            fillFrom = 1;
        }
        for (int i = fillFrom; i < fillTo; i++) {
            if (b[off + i] != '=') {
                return "'=' at padding byte " + i;
            }
        }
        return null;
    }

    /** Printable rendering of raw bytes for messages. */
    static String show(byte[] b, int off, int len) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = off; i < off + Math.min(len, 40); i++) {
            int c = b[i] & 0xFF;
            if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
                sb.append((char) c);
            } else {
                sb.append(String.format("\\x%02X", c));
            }
        }
        if (len > 40) {
            sb.append("...");
        }
        return sb.append('"').toString();
    }
}
