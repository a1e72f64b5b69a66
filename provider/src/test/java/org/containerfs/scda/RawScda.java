package org.containerfs.scda;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.Deflater;

/**
 * Builds scda bytes by hand, following scda.md directly (not the provider's writer), so that tests
 * can make exactly the bytes they want: quirks, MIME padding, damaged compressed items.
 */
final class RawScda {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    RawScda(String vendor, String user) {
        ascii("scdata0 ");
        out.writeBytes(field(bytes(vendor), 24));
        ascii("F ");
        out.writeBytes(field(bytes(user), 62));
        out.writeBytes(pad(0, -1));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private void ascii(String s) {
        out.writeBytes(bytes(s));
    }

    /** Unix fixed-length field: raw, ' ', dashes, '\n'. */
    static byte[] field(byte[] raw, int length) {
        byte[] f = new byte[length];
        Arrays.fill(f, (byte) '-');
        System.arraycopy(raw, 0, f, 0, raw.length);
        f[raw.length] = ' ';
        f[length - 1] = '\n';
        return f;
    }

    static byte[] entry(char ident, String digits) {
        byte[] e = new byte[32];
        e[0] = (byte) ident;
        e[1] = ' ';
        System.arraycopy(field(bytes(digits), 30), 0, e, 2, 30);
        return e;
    }

    static byte[] pad(long n, int last) {
        int p = (int) ((32 - n % 32) % 32);
        if (p < 7) {
            p += 32;
        }
        byte[] b = new byte[p];
        Arrays.fill(b, (byte) '=');
        if (!(n > 0 && last == '\n')) {
            b[0] = '\n';
        }
        b[p - 2] = '\n';
        b[p - 1] = '\n';
        return b;
    }

    RawScda raw(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    RawScda inline(String user, byte[] data32) {
        out.write('I');
        out.write(' ');
        out.writeBytes(field(bytes(user), 62));
        out.writeBytes(data32);
        return this;
    }

    RawScda block(String user, byte[] data) {
        return block(user, String.valueOf(data.length), data, pad(data.length, data.length == 0 ? -1 : data[data.length - 1]));
    }

    RawScda block(String user, String countDigits, byte[] data, byte[] padding) {
        out.write('B');
        out.write(' ');
        out.writeBytes(field(bytes(user), 62));
        out.writeBytes(entry('E', countDigits));
        out.writeBytes(data);
        out.writeBytes(padding);
        return this;
    }

    RawScda varray(String user, byte[]... elements) {
        out.write('V');
        out.write(' ');
        out.writeBytes(field(bytes(user), 62));
        out.writeBytes(entry('N', String.valueOf(elements.length)));
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (byte[] e : elements) {
            out.writeBytes(entry('E', String.valueOf(e.length)));
            data.writeBytes(e);
        }
        byte[] d = data.toByteArray();
        out.writeBytes(d);
        out.writeBytes(pad(d.length, d.length == 0 ? -1 : d[d.length - 1]));
        return this;
    }

    RawScda array(String user, int e, byte[]... elements) {
        out.write('A');
        out.write(' ');
        out.writeBytes(field(bytes(user), 62));
        out.writeBytes(entry('N', String.valueOf(elements.length)));
        out.writeBytes(entry('E', String.valueOf(e)));
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (byte[] x : elements) {
            data.writeBytes(x);
        }
        byte[] d = data.toByteArray();
        out.writeBytes(d);
        out.writeBytes(pad(d.length, d.length == 0 ? -1 : d[d.length - 1]));
        return this;
    }

    /** A compressed block pair (paper eq. 8) whose text is given. */
    RawScda compressedBlock(String user, long u, byte[] text) {
        inline("B compressed scda 00", entry('U', String.valueOf(u)));
        return block(user, text);
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    /** Stage 1 of the paper: size (8, big-endian), 'z', zlib stream. */
    static byte[] stage1(byte[] data) {
        Deflater d = new Deflater(9);
        d.setInput(data);
        d.finish();
        byte[] buf = new byte[data.length + 64];
        int n = 0;
        while (!d.finished()) {
            n += d.deflate(buf, n, buf.length - n);
        }
        d.end();
        byte[] s = new byte[9 + n];
        for (int i = 0; i < 8; i++) {
            s[i] = (byte) ((long) data.length >>> (56 - 8 * i));
        }
        s[8] = 'z';
        System.arraycopy(buf, 0, s, 9, n);
        return s;
    }

    /** Stage 2: base64 in lines of 76 characters, each followed by {@code lineBreak}. */
    static byte[] stage2(byte[] stage1, String lineBreak) {
        String b64 = Base64.getEncoder().encodeToString(stage1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < b64.length(); i += 76) {
            sb.append(b64, i, Math.min(b64.length(), i + 76)).append(lineBreak);
        }
        return bytes(sb.toString());
    }
}
