package org.containerfs.gsd;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.UnsupportedVersionException;

/** The 256-byte GSD file header, the 32-byte index entry layout and the chunk type table. */
final class GsdHeader {
    static final long MAGIC = 0x65DF65DF65DF65DFL;
    static final int SIZE = 256;
    static final int ENTRY_SIZE = 32;
    static final int NAME_SLOT = 64;
    static final int V1_MAX_NAME = NAME_SLOT - 1;
    static final int MAX_NAMES = 0xFFFF; // ids are u16 and 0xFFFF is reserved by gsd
    /** A fresh file's layout, as gsd_initialize_file makes it: index of 128 slots, 1 KiB name list. */
    static final int INITIAL_INDEX_ENTRIES = 128;
    static final int INITIAL_NAMELIST_BYTES = 1024;

    static final int V0_3 = version(0, 3);
    static final int V1_0 = version(1, 0);
    static final int V2_0 = version(2, 0);
    static final int V2_1 = version(2, 1);
    static final int V3_0 = version(3, 0);

    static final int TYPE_CHARACTER = 11;
    private static final String[] TYPE_NAMES = {null, "uint8", "uint16", "uint32", "uint64", "int8", "int16",
        "int32", "int64", "float", "double", "character"};
    private static final int[] TYPE_SIZES = {0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 1};

    long indexLocation;
    long indexAllocated;
    long namelistLocation;
    long namelistAllocated; // in 64-byte units
    int schemaVersion;
    int version;
    byte[] application = new byte[0];
    byte[] schema = new byte[0];

    static int version(int major, int minor) {
        return major << 16 | minor;
    }

    static String versionString(int v) {
        return (v >>> 16) + "." + (v & 0xFFFF);
    }

    /** Names 0.3 and 1.x use 64-byte name slots and an index in write order; 2.x packs names and sorts. */
    boolean v1Layout() {
        return version < V2_0;
    }

    static int typeSize(int type) {
        return type >= 1 && type < TYPE_SIZES.length ? TYPE_SIZES[type] : 0;
    }

    static String typeName(int type) {
        return type >= 1 && type < TYPE_NAMES.length ? TYPE_NAMES[type] : "unknown(" + type + ")";
    }

    /** A type given as a name ("float", "int32", "character"/"char") or an id (9, "9"); -1 if none. */
    static int parseType(Object value) {
        if (value instanceof Number n) {
            int id = n.intValue();
            return typeSize(id) > 0 && n.longValue() == id ? id : -1;
        }
        String s = String.valueOf(value).trim().toLowerCase(Locale.ROOT);
        for (int i = 1; i < TYPE_NAMES.length; i++) {
            if (TYPE_NAMES[i].equals(s)) {
                return i;
            }
        }
        switch (s) {
            case "char":
                return TYPE_CHARACTER;
            case "float32":
                return 9;
            case "float64":
                return 10;
            default:
                break;
        }
        try {
            return parseType(Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** "{@code count} {@code unit} at byte {@code at}, which end at byte E", all read as unsigned 64-bit. */
    private static String span(long count, int bytesEach, String unit, long at) {
        BigInteger end = new BigInteger(Long.toUnsignedString(at))
                .add(new BigInteger(Long.toUnsignedString(count)).multiply(BigInteger.valueOf(bytesEach)));
        return Long.toUnsignedString(count) + " " + unit + " at byte " + Long.toUnsignedString(at) + ", which end at byte " + end;
    }

    static GsdHeader parse(ByteBuffer raw, String file, long fileSize) throws ContainerFormatException {
        if (raw.remaining() < SIZE) {
            throw new ContainerFormatException(file, 0, null, "a 256-byte GSD header", "a file of " + fileSize + " bytes");
        }
        ByteBuffer b = raw.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int p = b.position();
        long magic = b.getLong(p);
        if (magic != MAGIC) {
            throw new ContainerFormatException(file, 0, "file header", "the GSD magic 0x65df65df65df65df",
                    String.format("0x%016x", magic));
        }
        GsdHeader h = new GsdHeader();
        h.indexLocation = b.getLong(p + 8);
        h.indexAllocated = b.getLong(p + 16);
        h.namelistLocation = b.getLong(p + 24);
        h.namelistAllocated = b.getLong(p + 32);
        h.schemaVersion = b.getInt(p + 40);
        h.version = b.getInt(p + 44);
        h.application = cString(b, p + 48, 64);
        h.schema = cString(b, p + 112, 64);
        if (h.version != V0_3 && (Integer.compareUnsigned(h.version, V1_0) < 0 || Integer.compareUnsigned(h.version, V3_0) >= 0)) {
            throw new UnsupportedVersionException(file, 44, "file header", "a GSD file layer version 0.3 or 1.0 <= v < 3.0",
                    versionString(h.version));
        }
        // Every length is checked against the file size before anything is allocated.
        if (h.indexLocation < SIZE || h.indexAllocated < 0 || h.indexAllocated > (fileSize - SIZE) / ENTRY_SIZE
                || h.indexLocation > fileSize - h.indexAllocated * ENTRY_SIZE) {
            throw new ContainerFormatException(file, 8, "file header", "an index of 32-byte slots from byte " + SIZE
                    + " on inside the file of " + fileSize + " bytes", span(h.indexAllocated, ENTRY_SIZE, "slots", h.indexLocation));
        }
        if (h.namelistLocation < SIZE || h.namelistAllocated <= 0 || h.namelistAllocated > (fileSize - SIZE) / NAME_SLOT
                || h.namelistLocation > fileSize - h.namelistAllocated * NAME_SLOT) {
            throw new ContainerFormatException(file, 24, "file header", "a name list of at least one 64-byte unit from byte "
                    + SIZE + " on inside the file of " + fileSize + " bytes",
                    span(h.namelistAllocated, NAME_SLOT, "units", h.namelistLocation));
        }
        return h;
    }

    private static byte[] cString(ByteBuffer b, int at, int max) {
        int n = 0;
        while (n < max && b.get(at + n) != 0) {
            n++;
        }
        byte[] s = new byte[n];
        b.get(at, s);
        return s;
    }

    ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, MAGIC);
        b.putLong(8, indexLocation);
        b.putLong(16, indexAllocated);
        b.putLong(24, namelistLocation);
        b.putLong(32, namelistAllocated);
        b.putInt(40, schemaVersion);
        b.putInt(44, version);
        b.put(48, application, 0, Math.min(63, application.length));
        b.put(112, schema, 0, Math.min(63, schema.length));
        return b;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** "1.4" or "1" or a packed integer: a schema version as gsd_make_version packs it. */
    static int parseVersion(Object value) {
        if (value instanceof Number n) {
            return n.intValue();
        }
        String s = String.valueOf(value).trim();
        int dot = s.indexOf('.');
        try {
            if (dot < 0) {
                return version(Integer.parseInt(s), 0);
            }
            return version(Integer.parseInt(s.substring(0, dot)), Integer.parseInt(s.substring(dot + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("env option schemaVersion must be major.minor, got '" + s + "'");
        }
    }
}
