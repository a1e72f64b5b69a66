package org.containerfs.scda;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.containerfs.spi.ChecksumMismatchException;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.Content;
import org.containerfs.spi.TruncatedDataException;

/**
 * One compressed item (a block, or one array element) shown decoded: base64 text in lines of 76
 * characters, each followed by a line break, of {@code size(8, big-endian) 'z' zlib-stream}
 * (paper 3.1). Decoding streams from the item's first byte, so a cursor keeps its place for
 * sequential reads; a read before the cursor starts again. Checked: the stored size equals the
 * declared U, the 'z' byte, the zlib stream (its Adler-32 by {@link Inflater}) ending after exactly U
 * bytes, and nothing after it. The end checks run when a read reaches the item's last byte.
 *
 * <p>Line breaks are found by position: a line holds a multiple of 4 characters, so a segment
 * ending in LF whose length is 1 mod 4 ends in a one-byte break prefix ({@code '='} as libsc writes
 * it, or {@code '\r'} for MIME; any byte when lenient, as sc_io_decode); a bare LF is taken as the
 * paper's literal Unix break.
 */
final class DecodedContent implements Content {
    static final int LINE = 76;

    private final ContainerChannel channel;
    private final long textOffset;
    private final long textLength;
    private final long size;
    private final boolean lenient;
    private final String label;
    private Cursor cursor;
    private boolean emptyChecked;

    DecodedContent(ContainerChannel channel, long textOffset, long textLength, long size, boolean lenient, String label) {
        this.channel = channel;
        this.textOffset = textOffset;
        this.textLength = textLength;
        this.size = size;
        this.lenient = lenient;
        this.label = label;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public synchronized int read(ByteBuffer dst, long position) throws IOException {
        if (position >= size) {
            if (size == 0 && !emptyChecked) {
                // an empty item still holds a prefix and a zlib stream: check them on the first read
                Cursor c = new Cursor();
                try {
                    c.finish();
                } finally {
                    c.inflater.end();
                }
                emptyChecked = true;
            }
            return -1;
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (cursor == null || cursor.produced > position) {
            if (cursor != null) {
                cursor.inflater.end();
            }
            cursor = new Cursor();
        }
        try {
            cursor.skipTo(position);
            int want = (int) Math.min(dst.remaining(), size - position);
            int oldLimit = dst.limit();
            dst.limit(dst.position() + want);
            int n;
            try {
                n = cursor.produce(dst);
            } finally {
                dst.limit(oldLimit);
            }
            if (cursor.produced == size) {
                cursor.finish();
            }
            return n;
        } catch (IOException | RuntimeException e) {
            cursor.inflater.end();
            cursor = null;
            throw e;
        }
    }

    private final class Cursor {
        final Inflater inflater = new Inflater();
        long produced;
        // text reading
        // buffers sized by the item, so that reading one small element stays cheap
        private final byte[] raw = new byte[(int) Math.min(64 * 1024, Math.max(textLength, 1))];
        private int rawLen;
        private int rawIdx;
        private long textPos;
        private final byte[] line = new byte[LINE + 2];
        private int lineLen;
        private boolean sawShortLine;
        private boolean sawPadding;
        // decoded stage-1 bytes
        private final byte[] dec = new byte[(int) Math.min(48 * 1024, textLength) + 64];
        private int decLen;
        private final byte[] prefix = new byte[9];
        private int prefixLen;
        private byte[] discard;

        ContainerFormatException error(String expected, String found) {
            return new ContainerFormatException(channel.name(), textOffset + Math.min(textPos, textLength),
                    label, expected, found);
        }

        void skipTo(long position) throws IOException {
            if (produced < position && discard == null) {
                discard = new byte[(int) Math.min(16 * 1024, position - produced)];
            }
            while (produced < position) {
                int step = (int) Math.min(discard.length, position - produced);
                produce(ByteBuffer.wrap(discard, 0, step));
            }
        }

        /** Inflates into dst until it is full; throws if the stream ends first. */
        int produce(ByteBuffer dst) throws IOException {
            int total = 0;
            while (dst.hasRemaining()) {
                if (inflater.needsInput()) {
                    if (!feed()) {
                        throw new TruncatedDataException(channel.name(), textOffset + textLength, label,
                                "a zlib stream of " + size + " bytes", "the encoded text ends after " + produced);
                    }
                }
                int n;
                try {
                    n = inflater.inflate(dst);
                } catch (DataFormatException e) {
                    throw inflateError(e);
                }
                total += n;
                produced += n;
                if (n == 0) {
                    if (inflater.finished()) {
                        throw error("a zlib stream of " + size + " bytes (the stored uncompressed size)",
                                "one that ends after " + produced);
                    }
                    if (inflater.needsDictionary()) {
                        throw error("a zlib stream without a preset dictionary", "one that needs a dictionary");
                    }
                }
            }
            return total;
        }

        /** After the last byte: the stream must end here (Adler-32 checked) and nothing may follow. */
        void finish() throws IOException {
            byte[] one = new byte[1];
            while (!inflater.finished()) {
                if (inflater.needsInput() && !feed()) {
                    throw new TruncatedDataException(channel.name(), textOffset + textLength, label,
                            "the end of the zlib stream and its Adler-32 after " + size + " bytes",
                            "the encoded text ends first");
                }
                int n;
                try {
                    n = inflater.inflate(one);
                } catch (DataFormatException e) {
                    throw inflateError(e);
                }
                if (n > 0) {
                    throw error("a zlib stream of " + size + " bytes (the stored uncompressed size)", "one that holds more");
                }
                if (n == 0 && inflater.needsDictionary()) {
                    throw error("a zlib stream without a preset dictionary", "one that needs a dictionary");
                }
            }
            if (prefixLen < 9) {
                throw error("the 9-byte prefix (size, 'z') before the zlib stream", "only " + prefixLen + " bytes");
            }
            if (inflater.getRemaining() > 0 || decodeMore() > 0) {
                throw error("nothing after the zlib stream's Adler-32 trailer", "more bytes");
            }
        }

        private ContainerFormatException inflateError(DataFormatException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("incorrect data check")) {
                return new ChecksumMismatchException(channel.name(), textOffset + textLength, label,
                        "the zlib stream's stored Adler-32 of the decoded bytes", "another value (" + m + ")");
            }
            return error("a valid zlib (RFC 1950) stream", "invalid data (" + m + ")");
        }

        /** Gives the inflater more input; false at the end of the text. */
        private boolean feed() throws IOException {
            while (true) {
                int n = decodeMore();
                if (n < 0) {
                    return false;
                }
                int from = 0;
                if (prefixLen < 9) {
                    int take = Math.min(9 - prefixLen, n);
                    System.arraycopy(dec, 0, prefix, prefixLen, take);
                    prefixLen += take;
                    from = take;
                    if (prefixLen == 9) {
                        checkPrefix();
                    }
                }
                if (n > from) {
                    inflater.setInput(dec, from, n - from);
                    return true;
                }
            }
        }

        private void checkPrefix() throws ContainerFormatException {
            long stored = 0;
            for (int i = 0; i < 8; i++) {
                stored = (stored << 8) | (prefix[i] & 0xFF);
            }
            if (stored != size) {
                throw error("the stored uncompressed size " + size + " (from the section's U entry)",
                        Long.toUnsignedString(stored));
            }
            if (prefix[8] != 'z') {
                throw error("the format byte 'z' after the uncompressed size", "0x" + Integer.toHexString(prefix[8] & 0xFF));
            }
        }

        /** Decodes the next lines into {@link #dec}; returns the byte count, or -1 at the end of the text. */
        private int decodeMore() throws IOException {
            decLen = 0;
            while (decLen < dec.length - 64) {
                if (rawIdx == rawLen) {
                    if (textPos == textLength) {
                        if (lineLen != 0) {
                            throw error("the encoded text to end with a line break", lineLen + " characters after the last one");
                        }
                        return decLen > 0 ? decLen : -1;
                    }
                    int want = (int) Math.min(raw.length, textLength - textPos);
                    ByteBuffer bb = ByteBuffer.wrap(raw, 0, want);
                    int got = channel.readUpTo(bb, textOffset + textPos);
                    if (got < want) {
                        throw new TruncatedDataException(channel.name(), textOffset + textPos + got, label,
                                "encoded text up to byte " + (textOffset + textLength),
                                "the file ends at byte " + (textOffset + textPos + got));
                    }
                    rawLen = got;
                    rawIdx = 0;
                }
                while (rawIdx < rawLen && decLen < dec.length - 64) {
                    byte c = raw[rawIdx++];
                    textPos++;
                    if (c == '\n') {
                        endLine();
                    } else {
                        if (lineLen == line.length) {
                            throw error("lines of at most 76 base64 characters, each followed by a line break",
                                    "a line of more than " + line.length + " characters");
                        }
                        line[lineLen++] = c;
                    }
                }
            }
            return decLen;
        }

        private void endLine() throws ContainerFormatException {
            int n = lineLen;
            lineLen = 0;
            if (n % 4 == 1) {
                byte br = line[n - 1];
                if (!lenient && br != '=' && br != '\r') {
                    throw error("a line break \"=\\n\", \"\\r\\n\" or \"\\n\" after each line",
                            "0x" + Integer.toHexString(br & 0xFF) + " before LF");
                }
                n--;
            } else if (n % 4 != 0) {
                throw error("lines of whole base64 quadruples (a multiple of 4 characters)", "a line of " + n);
            }
            if (n == 0) {
                throw error("a line of base64 characters before each line break", "an empty line");
            }
            if (n > LINE) {
                throw error("lines of at most 76 base64 characters", "a line of " + n);
            }
            if (sawShortLine || sawPadding) {
                throw error("only the last line shorter than 76 characters or holding '=' padding",
                        "another line after " + (sawPadding ? "a padded one" : "a short one"));
            }
            if (n < LINE) {
                sawShortLine = true;
            }
            for (int q = 0; q < n; q += 4) {
                int a = value(line[q]);
                int b = value(line[q + 1]);
                int c = line[q + 2] == '=' ? -2 : value(line[q + 2]);
                int d = line[q + 3] == '=' ? -2 : value(line[q + 3]);
                if (a < 0 || b < 0 || c == -1 || d == -1 || (c == -2 && d != -2) || ((c == -2 || d == -2) && q + 4 != n)) {
                    throw error("base64 characters (A-Z a-z 0-9 + /, '=' only at the end)", "\""
                            + new String(line, q, 4, java.nio.charset.StandardCharsets.ISO_8859_1) + "\"");
                }
                dec[decLen++] = (byte) ((a << 2) | (b >> 4));
                if (c >= 0) {
                    dec[decLen++] = (byte) ((b << 4) | (c >> 2));
                    if (d >= 0) {
                        dec[decLen++] = (byte) ((c << 6) | d);
                    }
                }
                if (c == -2 || d == -2) {
                    sawPadding = true;
                }
            }
        }
    }

    private static int value(byte c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (c == '+') {
            return 62;
        }
        if (c == '/') {
            return 63;
        }
        return -1;
    }
}
