package org.containerfs.scda;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.containerfs.spi.ContainerChannel;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.TruncatedDataException;
import org.containerfs.spi.UnsupportedVersionException;

/**
 * The section table of an scda file, built by walking the section headers from byte 128 (scda has
 * no index of its own). Per raw section: offset, type, user string, N and E (for V: the data total
 * S); per logical section (a compressed pair is one): its first raw section, its type and the
 * uncompressed size U. Data is never read; each B, A and V padding is checked with one small read
 * (often inside the header window). The V size entries are walked at open to find the section's end
 * and parsed again on first element access.
 */
final class ScdaIndex {
    static final byte UNCOMMITTED = '?';

    final String file;
    final boolean lenient;
    final boolean decode;

    byte[] vendor;
    byte[] userString;

    private long[] rawOffset = new long[16];
    private byte[] rawType = new byte[16];
    private int[] rawUser = new int[16];
    private long[] rawN = new long[16];
    private long[] rawE = new long[16];
    private int raws;

    private int[] logicalRaw = new int[16];
    private byte[] logicalType = new byte[16];
    private boolean[] logicalCompressed = new boolean[16];
    private long[] logicalU = new long[16];
    private int logicals;

    private final List<byte[]> users = new ArrayList<>();
    private final Map<String, Integer> userIds = new HashMap<>();
    private final Map<Integer, long[]> elementStarts = new ConcurrentHashMap<>();
    private final Map<Integer, long[]> decodedSizes = new ConcurrentHashMap<>();

    /** End of the last good section: where the next section starts. */
    private long next = ScdaSyntax.FILE_HEADER;
    private ContainerFormatException damage;
    private boolean tornTail;
    private boolean headerDone;

    ScdaIndex(String file, boolean lenient, boolean decode) {
        this.file = file;
        this.lenient = lenient;
        this.decode = decode;
    }

    // ---- accessors -----------------------------------------------------------------------------

    int logicals() {
        return logicals;
    }

    int raws() {
        return raws;
    }

    long next() {
        return next;
    }

    /** The first problem after the last good section, or null. */
    ContainerFormatException damage() {
        return damage;
    }

    /** Whether the damage is a torn append (a truncated last section, or our uncommitted placeholder). */
    boolean tornTail() {
        return tornTail;
    }

    int firstRaw(int l) {
        return logicalRaw[l];
    }

    /** The raw section holding the data: the second of a compressed pair. */
    int dataRaw(int l) {
        return logicalRaw[l] + (logicalCompressed[l] ? 1 : 0);
    }

    char type(int l) {
        return (char) logicalType[l];
    }

    boolean compressed(int l) {
        return logicalCompressed[l];
    }

    /** Uncompressed size of a compressed block or of each element of a compressed fixed-size array. */
    long uncompressed(int l) {
        return logicalU[l];
    }

    byte[] user(int l) {
        return users.get(rawUser[dataRaw(l)]);
    }

    char rawType(int r) {
        return (char) rawType[r];
    }

    byte[] rawUser(int r) {
        return users.get(rawUser[r]);
    }

    long rawOffset(int r) {
        return rawOffset[r];
    }

    long rawN(int r) {
        return rawN[r];
    }

    /** E of a B or A section, 32 for I, the data total S for V. */
    long rawE(int r) {
        return rawE[r];
    }

    long rawHeaderLength(int r) {
        return switch (rawType[r]) {
            case 'I' -> ScdaSyntax.COMMON_HEADER;
            case 'B' -> ScdaSyntax.COMMON_HEADER + ScdaSyntax.ENTRY;
            case 'A' -> ScdaSyntax.COMMON_HEADER + 2L * ScdaSyntax.ENTRY;
            default -> ScdaSyntax.COMMON_HEADER + ScdaSyntax.ENTRY + ScdaSyntax.ENTRY * rawN[r];
        };
    }

    long rawDataOffset(int r) {
        return rawOffset[r] + rawHeaderLength(r);
    }

    long rawDataLength(int r) {
        return switch (rawType[r]) {
            case 'I' -> ScdaSyntax.INLINE_DATA;
            case 'A' -> rawN[r] * rawE[r];
            default -> rawE[r];
        };
    }

    int rawPadding(int r) {
        return rawType[r] == 'I' ? 0 : ScdaSyntax.padLength(rawDataLength(r));
    }

    long rawEnd(int r) {
        return rawDataOffset(r) + rawDataLength(r) + rawPadding(r);
    }

    /** The logical index of raw section r (for attributes). */
    int logicalOf(int r) {
        int lo = 0;
        int hi = logicals - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (logicalRaw[mid] <= r) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    // ---- scanning ------------------------------------------------------------------------------

    /**
     * Walks the headers from {@link #next} to the end of the file: the whole file at open, the new
     * tail on refresh or after a commit. A damaged tail is not consumed, so a later scan looks at it
     * again. Problems with the file header always throw.
     */
    void scan(ContainerChannel channel) throws IOException {
        long size = channel.size();
        if (!headerDone) {
            readFileHeader(channel, size);
            headerDone = true;
        }
        damage = null;
        tornTail = false;
        HeaderReader reader = new HeaderReader(channel, size);
        long pos = next;
        while (pos < size) {
            try {
                Raw a = parseRaw(reader, pos, logicals, null);
                int magic = decode ? magicKind(a) : 0;
                if (magic == 0) {
                    addRaw(a);
                    addLogical(raws - 1, a.type, false, -1);
                    pos = a.end;
                    continue;
                }
                if (a.end >= size) {
                    // Not a torn append of ours (our commit point is the pair's first byte), so this is
                    // reported as damage that an append does not silently remove: the lone section may be
                    // another writer's committed raw section (open with decode=false to see it).
                    throw new ContainerFormatException(file, a.end, section(logicals), "the second raw section of the "
                            + "compressed pair announced by " + (char) a.type + " section \""
                            + new String(a.user, StandardCharsets.US_ASCII) + "\"", "the file ends at byte " + size);
                }
                Raw b = parseRaw(reader, a.end, logicals, "second raw section of a compressed pair");
                long u = checkPair(reader, a, b, magic);
                addRaw(a);
                addRaw(b);
                addLogical(raws - 2, (byte) magic, true, u);
                pos = b.end;
            } catch (ContainerFormatException e) {
                damage = e;
                tornTail = e instanceof TruncatedDataException || e instanceof UncommittedSectionException;
                break;
            } catch (EOFException e) {
                // the file shrank while we read it
                damage = new TruncatedDataException(file, pos, section(logicals), "the whole section",
                        "the file ends while it is read (" + e.getMessage() + ")");
                tornTail = true;
                break;
            }
        }
        next = pos;
    }

    String section(int logical) {
        return "section " + logical;
    }

    private void readFileHeader(ContainerChannel channel, long size) throws IOException {
        byte[] h = new byte[ScdaSyntax.FILE_HEADER];
        int got = channel.readUpTo(ByteBuffer.wrap(h), 0);
        int m = Math.min(got, 7);
        for (int i = 0; i < m; i++) {
            if (h[i] != ScdaSyntax.MAGIC[i]) {
                if (m == 7 && i >= 5 && startsWith(h, "scdat") && isHex(h[5]) && isHex(h[6]) && h[5] >= 'a') {
                    throw new UnsupportedVersionException(file, 5, "file header F", "the magic \"scdata0\" (scda format "
                            + "version 0xa0, the only one libsc and this reader know)", "\""
                            + new String(h, 0, 7, StandardCharsets.US_ASCII) + "\" (version 0x" + (char) h[5] + (char) h[6] + ")");
                }
                throw new ContainerFormatException(file, i, "file header F", "the magic \"scdata0\"", ScdaSyntax.show(h, 0, m));
            }
        }
        if (got < ScdaSyntax.FILE_HEADER) {
            throw new TruncatedDataException(file, got, "file header F", "128 bytes", "the file ends at byte " + got);
        }
        if (h[7] != ' ') {
            throw new ContainerFormatException(file, 7, "file header F", "a space after the magic", ScdaSyntax.show(h, 7, 1));
        }
        int vl = ScdaSyntax.fixedRawLength(h, 8, ScdaSyntax.VENDOR_FIELD, lenient);
        if (vl < 0) {
            throw new ContainerFormatException(file, 8, "file header F: vendor string field",
                    ScdaSyntax.fixedRule(vl, ScdaSyntax.VENDOR_FIELD, lenient), ScdaSyntax.show(h, 8, ScdaSyntax.VENDOR_FIELD));
        }
        int vmax = lenient ? ScdaSyntax.MAX_VENDOR_LENIENT : ScdaSyntax.MAX_VENDOR;
        if (vl > vmax) {
            throw new ContainerFormatException(file, 8, "file header F", "a vendor string of at most " + vmax
                    + " bytes" + (lenient ? "" : " (env lenient=true accepts up to 22, as libsc does)"), vl + " bytes");
        }
        vendor = Arrays.copyOfRange(h, 8, 8 + vl);
        if (h[32] != 'F' || h[33] != ' ') {
            throw new ContainerFormatException(file, 32, "file header F", "\"F \" at byte 32", ScdaSyntax.show(h, 32, 2));
        }
        userString = parseUser(h, 34, 34, "file header F");
        String rule = ScdaSyntax.checkPadding(h, 96, 32, 0, -1, lenient);
        if (rule != null) {
            throw new ContainerFormatException(file, 96, "file header F", rule, ScdaSyntax.show(h, 96, 32));
        }
    }

    private static boolean startsWith(byte[] b, String s) {
        for (int i = 0; i < s.length(); i++) {
            if (b[i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isHex(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }

    private byte[] parseUser(byte[] b, int at, long fileOffset, String where) throws ContainerFormatException {
        int len = ScdaSyntax.fixedRawLength(b, at, ScdaSyntax.USER_FIELD, lenient);
        if (len < 0) {
            throw new ContainerFormatException(file, fileOffset, where + ": user string field",
                    ScdaSyntax.fixedRule(len, ScdaSyntax.USER_FIELD, lenient), ScdaSyntax.show(b, at, ScdaSyntax.USER_FIELD));
        }
        int max = lenient ? ScdaSyntax.MAX_USER_LENIENT : ScdaSyntax.MAX_USER;
        if (len > max) {
            throw new ContainerFormatException(file, fileOffset, where, "a user string of at most " + max + " bytes"
                    + (lenient ? "" : " (env lenient=true accepts 59 behind one dash, as libsc does)"), len + " bytes");
        }
        return Arrays.copyOfRange(b, at, at + len);
    }

    /** One raw section as parsed from its header. */
    private static final class Raw {
        long offset;
        byte type;
        byte[] user;
        long n;
        long e;
        long end;
    }

    private Raw parseRaw(HeaderReader reader, long pos, int logical, String role) throws IOException {
        String where = section(logical) + (role == null ? "" : " (" + role + ")");
        long size = reader.size();
        if (size - pos < ScdaSyntax.COMMON_HEADER) {
            byte first = reader.buffer()[reader.at(pos, 1)];
            if (first == UNCOMMITTED) {
                throw new UncommittedSectionException(file, pos, where, "a committed section",
                        (size - pos) + " bytes of an uncommitted append (type byte '?' of a header a writer did not finish)");
            }
            throw new TruncatedDataException(file, pos, where, "a 64-byte section header",
                    "the file ends at byte " + size);
        }
        int i = reader.at(pos, ScdaSyntax.COMMON_HEADER);
        byte[] b = reader.buffer();
        byte t = b[i];
        if (t == UNCOMMITTED && b[i + 1] == ' ') {
            throw new UncommittedSectionException(file, pos, where, "a committed section", "an uncommitted append "
                    + "(type byte '?': a writer stopped before its commit point; the next append removes it)");
        }
        if (t != 'I' && t != 'B' && t != 'A' && t != 'V') {
            throw new ContainerFormatException(file, pos, where, "a section type I, B, A or V", ScdaSyntax.show(b, i, 1));
        }
        if (b[i + 1] != ' ') {
            throw new ContainerFormatException(file, pos + 1, where, "a space after the section type",
                    ScdaSyntax.show(b, i + 1, 1));
        }
        Raw r = new Raw();
        r.offset = pos;
        r.type = t;
        r.user = parseUser(b, i + 2, pos + 2, where + " (" + (char) t + ")");
        where = where + " (" + (char) t + ")";
        long data;
        long dataLength;
        switch (t) {
            case 'I' -> {
                if (size - pos < ScdaSyntax.COMMON_HEADER + ScdaSyntax.INLINE_DATA) {
                    throw new TruncatedDataException(file, pos + 64, where, "32 bytes of inline data from byte "
                            + (pos + 64), "the file ends at byte " + size);
                }
                r.e = ScdaSyntax.INLINE_DATA;
                r.end = pos + 96;
                return r;
            }
            case 'B' -> {
                r.e = entry(reader, pos + 64, 'E', where, "the block size");
                data = pos + 96;
                dataLength = r.e;
            }
            case 'A' -> {
                r.n = entry(reader, pos + 64, 'N', where, "the element count");
                r.e = entry(reader, pos + 96, 'E', where, "the element size");
                data = pos + 128;
                if (r.e != 0 && r.n > (size - data) / r.e) {
                    throw new TruncatedDataException(file, data, where, r.n + " elements of " + r.e + " bytes from byte "
                            + data, "the file ends at byte " + size);
                }
                dataLength = r.n * r.e;
            }
            default -> {
                r.n = entry(reader, pos + 64, 'N', where, "the element count");
                long entries = pos + 96;
                // entries are parsed one by one (a hostile N stops at the first entry past the end of the file)
                long s = 0;
                for (long k = 0; k < r.n; k++) {
                    long ek = entry(reader, entries + ScdaSyntax.ENTRY * k, 'E', where, "the size of element " + k);
                    s += ek;
                    if (ek > size || s > size) {
                        throw new TruncatedDataException(file, entries + ScdaSyntax.ENTRY * k, where, "element sizes that fit in "
                                + "the file's " + size + " bytes", "sizes up to element " + k + " that add up to "
                                + Long.toUnsignedString(s));
                    }
                }
                r.e = s;
                data = entries + ScdaSyntax.ENTRY * r.n;
                dataLength = s;
            }
        }
        r.end = checkData(reader, where, data, dataLength);
        return r;
    }

    /** Parses a 32-byte count entry; values that cannot fit any file come back as Long.MAX_VALUE. */
    private long entry(HeaderReader reader, long at, char ident, String where, String what) throws IOException {
        long size = reader.size();
        if (size - at < ScdaSyntax.ENTRY) {
            throw new TruncatedDataException(file, at, where, "the 32-byte count entry '" + ident + "' (" + what + ")",
                    "the file ends at byte " + size);
        }
        int j = reader.at(at, ScdaSyntax.ENTRY);
        byte[] b = reader.buffer();
        if (b[j] != ident || b[j + 1] != ' ') {
            throw new ContainerFormatException(file, at, where, "the count entry \"" + ident + " \" (" + what + ")",
                    ScdaSyntax.show(b, j, 2));
        }
        int len = ScdaSyntax.fixedRawLength(b, j + 2, ScdaSyntax.COUNT_FIELD, lenient);
        if (len < 0) {
            throw new ContainerFormatException(file, at + 2, where + ": count entry " + ident,
                    ScdaSyntax.fixedRule(len, ScdaSyntax.COUNT_FIELD, lenient), ScdaSyntax.show(b, j + 2, ScdaSyntax.COUNT_FIELD));
        }
        long v;
        try {
            v = ScdaSyntax.parseCount(b, j + 2, len, lenient);
        } catch (NumberFormatException e) {
            throw new ContainerFormatException(file, at + 2, where + ": count entry " + ident + " (" + what + ")",
                    e.getMessage(), ScdaSyntax.show(b, j + 2, len));
        }
        return v < 0 ? Long.MAX_VALUE : v;
    }

    /** Checks that data and padding fit the file and that the padding is right; returns the section end. */
    private long checkData(HeaderReader reader, String where, long data, long length) throws IOException {
        long size = reader.size();
        if (length > size - data) {
            throw new TruncatedDataException(file, size, where, length + " data bytes from byte " + data,
                    "the file ends at byte " + size);
        }
        int p = ScdaSyntax.padLength(length);
        long padAt = data + length;
        if (p > size - padAt) {
            throw new TruncatedDataException(file, size, where, p + " bytes of data padding from byte " + padAt,
                    "the file ends at byte " + size);
        }
        int lead = length > 0 ? 1 : 0;
        int k = reader.at(padAt - lead, p + lead);
        byte[] b = reader.buffer();
        int last = length > 0 ? b[k] & 0xFF : -1;
        String rule = ScdaSyntax.checkPadding(b, k + lead, p, length, last, lenient);
        if (rule != null) {
            throw new ContainerFormatException(file, padAt, where, rule, ScdaSyntax.show(b, k + lead, p));
        }
        return padAt + p;
    }

    /** 'B', 'A' or 'V' if the raw section opens a compressed pair (paper section 3), else 0. */
    private static int magicKind(Raw a) {
        if (a.type == 'I' && Arrays.equals(a.user, ScdaSyntax.MAGIC_BLOCK)) {
            return 'B';
        }
        if (a.type == 'I' && Arrays.equals(a.user, ScdaSyntax.MAGIC_ARRAY)) {
            return 'A';
        }
        if (a.type == 'A' && Arrays.equals(a.user, ScdaSyntax.MAGIC_VARRAY)) {
            return 'V';
        }
        return 0;
    }

    /** Both raw sections must conform once the first matched (paper 3); returns U (-1 for V). */
    private long checkPair(HeaderReader reader, Raw a, Raw b, int kind) throws IOException {
        String where = section(logicals) + " (compressed " + (char) kind + ")";
        char want = kind == 'B' ? 'B' : 'V';
        if (b.type != want) {
            throw new ContainerFormatException(file, b.offset, where, "a " + want + " section after the \""
                    + new String(a.user, StandardCharsets.US_ASCII) + "\" section", "type " + (char) b.type);
        }
        if (kind == 'V') {
            if (a.e != ScdaSyntax.ENTRY) {
                throw new ContainerFormatException(file, a.offset + 96, where,
                        "U entries of 32 bytes (E = 32) in the \"V compressed scda 00\" array", "E = " + a.e);
            }
            if (a.n != b.n) {
                throw new ContainerFormatException(file, b.offset + 64, where, "the V section's element count equal to the "
                        + a.n + " U entries before it", "N = " + b.n);
            }
            return -1;
        }
        return entry(reader, a.offset + 64, 'U', where, "the uncompressed size");
    }

    private int userId(byte[] user) {
        String key = new String(user, StandardCharsets.ISO_8859_1);
        Integer id = userIds.get(key);
        if (id == null) {
            id = users.size();
            users.add(user);
            userIds.put(key, id);
        }
        return id;
    }

    private void addRaw(Raw r) {
        if (raws == rawOffset.length) {
            int cap = Math.max(16, raws * 2);
            rawOffset = Arrays.copyOf(rawOffset, cap);
            rawType = Arrays.copyOf(rawType, cap);
            rawUser = Arrays.copyOf(rawUser, cap);
            rawN = Arrays.copyOf(rawN, cap);
            rawE = Arrays.copyOf(rawE, cap);
        }
        rawOffset[raws] = r.offset;
        rawType[raws] = r.type;
        rawUser[raws] = userId(r.user);
        rawN[raws] = r.n;
        rawE[raws] = r.e;
        raws++;
    }

    private void addLogical(int firstRaw, byte type, boolean compressed, long u) {
        if (logicals == logicalRaw.length) {
            int cap = Math.max(16, logicals * 2);
            logicalRaw = Arrays.copyOf(logicalRaw, cap);
            logicalType = Arrays.copyOf(logicalType, cap);
            logicalCompressed = Arrays.copyOf(logicalCompressed, cap);
            logicalU = Arrays.copyOf(logicalU, cap);
        }
        logicalRaw[logicals] = firstRaw;
        logicalType[logicals] = type;
        logicalCompressed[logicals] = compressed;
        logicalU[logicals] = u;
        logicals++;
    }

    // ---- element tables (lazy) ----------------------------------------------------------------

    /** Element count of an A or V logical section. */
    long count(int l) {
        return rawN[dataRaw(l)];
    }

    /** Start of each element relative to the data offset of the data section, N+1 entries (V only). */
    long[] elementStarts(ContainerChannel channel, int l) throws IOException {
        long[] cached = elementStarts.get(l);
        if (cached != null) {
            return cached;
        }
        int r = dataRaw(l);
        long[] sizes = readEntries(channel, rawOffset[r] + 96, rawN[r], 'E');
        long[] starts = new long[sizes.length + 1];
        for (int i = 0; i < sizes.length; i++) {
            starts[i + 1] = starts[i] + sizes[i];
        }
        elementStarts.put(l, starts);
        return starts;
    }

    /** The U_i of a compressed V (the first raw section's data). */
    long[] decodedSizes(ContainerChannel channel, int l) throws IOException {
        long[] cached = decodedSizes.get(l);
        if (cached != null) {
            return cached;
        }
        int r = firstRaw(l);
        long[] u = readEntries(channel, rawDataOffset(r), rawN[r], 'U');
        decodedSizes.put(l, u);
        return u;
    }

    private long[] readEntries(ContainerChannel channel, long from, long n, char ident) throws IOException {
        if (n > Integer.MAX_VALUE - 8) {
            throw new ContainerFormatException(file, from, null, "at most 2^31 elements in one array section for element access",
                    n + " elements");
        }
        long[] out = new long[(int) n];
        HeaderReader reader = new HeaderReader(channel, channel.size());
        for (int k = 0; k < n; k++) {
            out[k] = entry(reader, from + (long) ScdaSyntax.ENTRY * k, ident, "element table", "entry " + k);
        }
        return out;
    }

    /** Drops growth slack after the open scan. */
    void trim() {
        int r = Math.max(raws, 1);
        rawOffset = Arrays.copyOf(rawOffset, r);
        rawType = Arrays.copyOf(rawType, r);
        rawUser = Arrays.copyOf(rawUser, r);
        rawN = Arrays.copyOf(rawN, r);
        rawE = Arrays.copyOf(rawE, r);
        int l = Math.max(logicals, 1);
        logicalRaw = Arrays.copyOf(logicalRaw, l);
        logicalType = Arrays.copyOf(logicalType, l);
        logicalCompressed = Arrays.copyOf(logicalCompressed, l);
        logicalU = Arrays.copyOf(logicalU, l);
    }
}
