package org.containerfs.scda;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.Deflater;

/**
 * Streams one item through the paper's transform (3.1): {@code size(8, big-endian) 'z'} + zlib
 * stream, base64 in lines of 76 characters, each line (the last too) followed by a 2-byte break
 * ({@code "=\n"} as libsc's sc_io_encode, or {@code "\r\n"} for MIME). The size is unknown while
 * streaming, but its 9 bytes are exactly the first 12 base64 characters: they are written as a
 * placeholder and patched by the caller ({@link #prefixText}) at a fixed place.
 */
final class Encoder {
    private final TailOutput out;
    private final Deflater deflater;
    private final byte[] lineBreak;
    private final byte[] deflated = new byte[64 * 1024];
    private final byte[] text = new byte[64 * 1024 * 4 / 3 + 4096];
    private final byte[] carry = new byte[3];
    private int carryLen;
    private int lineChars;
    private long uncompressed;
    private final long start;

    private static final byte[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    Encoder(TailOutput out, int level, boolean mime) throws IOException {
        this.out = out;
        this.deflater = new Deflater(level);
        this.lineBreak = mime ? new byte[] {'\r', '\n'} : new byte[] {'=', '\n'};
        this.start = out.written();
        byte[] placeholder = new byte[12];
        java.util.Arrays.fill(placeholder, (byte) 'A');
        out.write(placeholder, 0, 12);
        lineChars = 12;
    }

    long uncompressed() {
        return uncompressed;
    }

    /** Text bytes written so far (the compressed size once finished). */
    long textLength() {
        return out.written() - start;
    }

    void write(ByteBuffer src) throws IOException {
        uncompressed += src.remaining();
        deflater.setInput(src);
        while (!deflater.needsInput()) {
            int n = deflater.deflate(deflated);
            emit(deflated, n);
        }
    }

    /** Ends the stream and the text; returns the compressed size (text length). */
    long finish() throws IOException {
        deflater.finish();
        while (!deflater.finished()) {
            int n = deflater.deflate(deflated);
            emit(deflated, n);
        }
        deflater.end();
        int t = 0;
        if (carryLen > 0) {
            int b0 = carry[0] & 0xFF;
            int b1 = carryLen > 1 ? carry[1] & 0xFF : 0;
            text[t++] = ALPHABET[b0 >> 2];
            text[t++] = ALPHABET[((b0 & 3) << 4) | (b1 >> 4)];
            text[t++] = carryLen > 1 ? ALPHABET[(b1 & 15) << 2] : (byte) '=';
            text[t++] = '=';
            lineChars += 4;
            carryLen = 0;
        }
        if (lineChars > 0) {
            text[t++] = lineBreak[0];
            text[t++] = lineBreak[1];
            lineChars = 0;
        }
        out.write(text, 0, t);
        return textLength();
    }

    void abandon() {
        deflater.end();
    }

    private void emit(byte[] b, int n) throws IOException {
        int t = 0;
        int i = 0;
        while (carryLen > 0 && carryLen < 3 && i < n) {
            carry[carryLen++] = b[i++];
        }
        if (carryLen == 3) {
            t = quad(carry, 0, t);
            carryLen = 0;
        }
        while (i + 3 <= n) {
            t = quad(b, i, t);
            i += 3;
            if (t > text.length - 8) {
                out.write(text, 0, t);
                t = 0;
            }
        }
        while (i < n) {
            carry[carryLen++] = b[i++];
        }
        out.write(text, 0, t);
    }

    private int quad(byte[] b, int i, int t) {
        int v = ((b[i] & 0xFF) << 16) | ((b[i + 1] & 0xFF) << 8) | (b[i + 2] & 0xFF);
        text[t++] = ALPHABET[v >>> 18];
        text[t++] = ALPHABET[(v >>> 12) & 63];
        text[t++] = ALPHABET[(v >>> 6) & 63];
        text[t++] = ALPHABET[v & 63];
        lineChars += 4;
        if (lineChars == DecodedContent.LINE) {
            text[t++] = lineBreak[0];
            text[t++] = lineBreak[1];
            lineChars = 0;
        }
        return t;
    }

    /** The 12 base64 characters of {@code size(8, big-endian) 'z'}. */
    static byte[] prefixText(long size) {
        byte[] p = new byte[9];
        for (int i = 0; i < 8; i++) {
            p[i] = (byte) (size >>> (56 - 8 * i));
        }
        p[8] = 'z';
        return java.util.Base64.getEncoder().encode(p);
    }
}
