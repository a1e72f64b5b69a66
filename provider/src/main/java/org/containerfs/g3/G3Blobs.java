package org.containerfs.g3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.containerfs.spi.ContainerFormatException;
import org.containerfs.spi.Names;
import org.containerfs.spi.UnsupportedVersionException;

/**
 * Typed access to blobs of the simple G3 types: {@link #decode} reads a key file's bytes into a
 * {@link G3Value} (strictly: the decoder must end exactly where the blob ends), {@link #encode}
 * builds the blob spt3g would write for a value (little-endian cereal, byte for byte), so a frame
 * can be written without knowing cereal:
 *
 * <pre>{@code
 * Files.createDirectory(fs.getPath("/000003.Scan"));
 * G3Blobs.write(fs.getPath("/000003.Scan"), "Elevation", new G3Value.DoubleValue(45.0));
 * Files.setAttribute(fs.getPath("/000003.Scan"), "g3:commit", true); // or mkdir the next frame, or close
 * }</pre>
 */
public final class G3Blobs {
    private static final int POINTER_FIRST = 0x80000001;

    private G3Blobs() {}

    /** The file name of a key in a frame directory (the tree's name codec applied to its UTF-8 bytes). */
    public static String keyName(String key) {
        return Names.component(key.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads a key file and decodes it; empty if its type is not one of the simple types. */
    public static Optional<G3Value> read(Path keyFile) throws IOException {
        return decode(Files.readAllBytes(keyFile), keyFile.toString());
    }

    /** Encodes {@code value} into the file for {@code key} in a staged frame directory. */
    public static Path write(Path frameDirectory, String key, G3Value value) throws IOException {
        Path file = frameDirectory.resolve(keyName(key));
        Files.write(file, encode(value));
        return file;
    }

    public static Optional<G3Value> decode(byte[] blob) throws ContainerFormatException {
        return decode(blob, "blob");
    }

    /**
     * Decodes a blob of a simple type. Returns empty for other types (and FLAC-compressed timestreams);
     * throws if a simple type's bytes do not decode to exactly the blob's length.
     */
    public static Optional<G3Value> decode(byte[] blob, String label) throws ContainerFormatException {
        BlobHeader h = BlobHeader.parse(ByteBuffer.wrap(blob));
        if (h == null) {
            throw new ContainerFormatException(label, 0, null,
                    "a cereal polymorphic pointer header (endian flag, id 0x80000001, class name)", startOf(blob));
        }
        In in = new In(blob, h.order(), h.fieldsStart(), label);
        long v = h.classVersion();
        G3Value value;
        switch (h.typeName()) {
            case "G3Int" -> {
                in.base(v, 1);
                value = new G3Value.IntValue(in.i64());
            }
            case "G3Double" -> {
                in.base(v, 1);
                value = new G3Value.DoubleValue(in.f64());
            }
            case "G3Bool" -> {
                in.base(v, 1);
                int b = in.u8();
                if (b > 1) {
                    throw in.error(in.pos - 1, "a bool (0 or 1)", Integer.toString(b));
                }
                value = new G3Value.BoolValue(b == 1);
            }
            case "G3String" -> {
                in.base(v, 1);
                value = new G3Value.StringValue(in.string());
            }
            case "G3Time" -> {
                in.base(v, 1);
                value = new G3Value.TimeValue(in.i64());
            }
            case "G3VectorDouble" -> {
                in.base(v, 1);
                int n = in.count(8);
                double[] d = new double[n];
                for (int i = 0; i < n; i++) {
                    d[i] = in.f64();
                }
                value = new G3Value.VectorDouble(d);
            }
            case "G3VectorInt" -> {
                in.base(v, 2);
                int bits = 32;
                if (v >= 2) {
                    bits = in.i32();
                    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
                        throw in.error(in.pos - 4, "store_bits 8, 16, 32 or 64", Integer.toString(bits));
                    }
                }
                int n = in.count(bits / 8);
                long[] d = new long[n];
                for (int i = 0; i < n; i++) {
                    d[i] = switch (bits) {
                        case 8 -> (byte) in.u8();
                        case 16 -> in.i16();
                        case 32 -> in.i32();
                        default -> in.i64();
                    };
                }
                value = new G3Value.VectorInt(d);
            }
            case "G3VectorString" -> {
                in.base(v, 1);
                int n = in.count(8);
                List<String> s = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    s.add(in.string());
                }
                value = new G3Value.VectorString(s);
            }
            case "G3MapDouble" -> {
                in.base(v, 1);
                int n = in.count(16);
                Map<String, Double> m = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    String k = in.string();
                    m.put(k, in.f64());
                }
                value = new G3Value.MapDouble(m);
            }
            case "G3Timestream" -> {
                if (v < 2) {
                    return Optional.empty(); // start/stop lived in the enclosing map before version 2
                }
                in.base(v, 4);
                int units = in.i32();
                long timeVersion = in.u32();
                if (timeVersion > 1) {
                    throw new UnsupportedVersionException(label, in.pos - 4, null, "G3Time class version 1",
                            Long.toString(timeVersion));
                }
                long start = in.i64();
                long stop = in.i64();
                int flac = in.u8();
                if (flac != 0) {
                    return Optional.empty();
                }
                int type = v >= 3 ? in.i32() : G3Value.Timestream.DOUBLE;
                double[] d = null;
                long[] l = null;
                switch (type) {
                    case 0 -> {
                        d = new double[in.count(8)];
                        for (int i = 0; i < d.length; i++) {
                            d[i] = in.f64();
                        }
                    }
                    case 1 -> {
                        d = new double[in.count(4)];
                        for (int i = 0; i < d.length; i++) {
                            d[i] = Float.intBitsToFloat(in.i32());
                        }
                    }
                    case 2 -> {
                        l = new long[in.count(4)];
                        for (int i = 0; i < l.length; i++) {
                            l[i] = in.i32();
                        }
                    }
                    case 3 -> {
                        l = new long[in.count(8)];
                        for (int i = 0; i < l.length; i++) {
                            l[i] = in.i64();
                        }
                    }
                    default -> throw in.error(in.pos - 4, "a timestream data type 0 to 3", Integer.toString(type));
                }
                value = new G3Value.Timestream(units, start, stop, type, d, l);
            }
            default -> {
                return Optional.empty();
            }
        }
        if (in.pos != blob.length) {
            throw in.error(in.pos, "the end of the " + h.typeName() + " blob (strict decoding)",
                    (blob.length - in.pos) + (blob.length - in.pos == 1 ? " more byte" : " more bytes"));
        }
        return Optional.of(value);
    }

    /** The blob spt3g writes for {@code value}: little-endian, class versions as in the current library. */
    public static byte[] encode(G3Value value) {
        Out o = new Out();
        o.u8(1);
        o.i32(POINTER_FIRST);
        o.bytes(value.typeName().getBytes(StandardCharsets.US_ASCII));
        o.i32(POINTER_FIRST);
        if (value instanceof G3Value.IntValue x) {
            o.versions(1);
            o.i64(x.value());
        } else if (value instanceof G3Value.DoubleValue x) {
            o.versions(1);
            o.f64(x.value());
        } else if (value instanceof G3Value.BoolValue x) {
            o.versions(1);
            o.u8(x.value() ? 1 : 0);
        } else if (value instanceof G3Value.StringValue x) {
            o.versions(1);
            o.bytes(x.value().getBytes(StandardCharsets.UTF_8));
        } else if (value instanceof G3Value.TimeValue x) {
            o.versions(1);
            o.i64(x.ticks());
        } else if (value instanceof G3Value.VectorDouble x) {
            o.versions(1);
            o.i64(x.values().length);
            for (double d : x.values()) {
                o.f64(d);
            }
        } else if (value instanceof G3Value.VectorInt x) {
            o.versions(2);
            int bits = storeBits(x.values());
            o.i32(bits);
            o.i64(x.values().length);
            for (long l : x.values()) {
                switch (bits) {
                    case 8 -> o.u8((int) l);
                    case 16 -> o.i16((int) l);
                    case 32 -> o.i32((int) l);
                    default -> o.i64(l);
                }
            }
        } else if (value instanceof G3Value.VectorString x) {
            o.versions(1);
            o.i64(x.values().size());
            for (String s : x.values()) {
                o.bytes(s.getBytes(StandardCharsets.UTF_8));
            }
        } else if (value instanceof G3Value.MapDouble x) {
            o.versions(1);
            // std::map<std::string, double> iterates in byte order of the keys
            List<byte[]> keys = new ArrayList<>();
            Map<byte[], Double> byBytes = new java.util.IdentityHashMap<>();
            for (Map.Entry<String, Double> e : x.values().entrySet()) {
                byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
                keys.add(k);
                byBytes.put(k, e.getValue());
            }
            keys.sort(Arrays::compareUnsigned);
            o.i64(keys.size());
            for (byte[] k : keys) {
                o.bytes(k);
                o.f64(byBytes.get(k));
            }
        } else if (value instanceof G3Value.Timestream x) {
            o.versions(4);
            o.i32(x.units());
            o.i32(1); // G3Time's class version: its first occurrence in this archive
            o.i64(x.startTicks());
            o.i64(x.stopTicks());
            o.u8(0); // not FLAC-compressed
            o.i32(x.dataType());
            switch (x.dataType()) {
                case 0 -> {
                    o.i64(x.values().length);
                    for (double d : x.values()) {
                        o.f64(d);
                    }
                }
                case 1 -> {
                    o.i64(x.values().length);
                    for (double d : x.values()) {
                        o.i32(Float.floatToRawIntBits((float) d));
                    }
                }
                case 2 -> {
                    o.i64(x.integers().length);
                    for (long l : x.integers()) {
                        o.i32((int) l);
                    }
                }
                default -> {
                    o.i64(x.integers().length);
                    for (long l : x.integers()) {
                        o.i64(l);
                    }
                }
            }
        }
        return o.toArray();
    }

    /** spt3g's G3VectorInt v2 compaction: the narrowest of 8/16/32/64 bits that holds every value. */
    static int storeBits(long[] values) {
        int bits = 8;
        for (long l : values) {
            if (l != (byte) l && bits < 16) {
                bits = 16;
            }
            if (l != (short) l && bits < 32) {
                bits = 32;
            }
            if (l != (int) l) {
                return 64;
            }
        }
        return bits;
    }

    /** The first bytes of a blob in hex, for a message. */
    private static String startOf(byte[] blob) {
        if (blob.length == 0) {
            return "an empty blob";
        }
        StringBuilder sb = new StringBuilder("a blob of " + blob.length + " bytes starting");
        for (int i = 0; i < Math.min(blob.length, 8); i++) {
            sb.append(String.format(" %02x", blob[i] & 0xFF));
        }
        return sb.toString();
    }

    private static final class In {
        final byte[] b;
        final ByteBuffer buf;
        final String label;
        int pos;

        In(byte[] b, ByteOrder order, int pos, String label) {
            this.b = b;
            this.buf = ByteBuffer.wrap(b).order(order);
            this.pos = pos;
            this.label = label;
        }

        ContainerFormatException error(int at, String expected, String found) {
            return new ContainerFormatException(label, at, null, expected, found);
        }

        void need(int n, String what) throws ContainerFormatException {
            if (b.length - pos < n) {
                throw new ContainerFormatException(label, pos, null, what + " (" + n + " bytes)",
                        "the blob ends after " + (b.length - pos));
            }
        }

        /** Checks the concrete class version, then reads the G3FrameObject base version word. */
        void base(long version, long newest) throws ContainerFormatException {
            if (version > newest || version < 1) {
                throw new UnsupportedVersionException(label, pos - 4, null, "a class version from 1 to " + newest,
                        Long.toString(version));
            }
            long baseVersion = u32();
            if (baseVersion != 1) {
                throw new UnsupportedVersionException(label, pos - 4, null, "G3FrameObject class version 1",
                        Long.toString(baseVersion));
            }
        }

        int u8() throws ContainerFormatException {
            need(1, "a byte");
            return b[pos++] & 0xFF;
        }

        short i16() throws ContainerFormatException {
            need(2, "a 16-bit integer");
            short v = buf.getShort(pos);
            pos += 2;
            return v;
        }

        int i32() throws ContainerFormatException {
            need(4, "a 32-bit integer");
            int v = buf.getInt(pos);
            pos += 4;
            return v;
        }

        long u32() throws ContainerFormatException {
            return i32() & 0xFFFFFFFFL;
        }

        long i64() throws ContainerFormatException {
            need(8, "a 64-bit integer");
            long v = buf.getLong(pos);
            pos += 8;
            return v;
        }

        double f64() throws ContainerFormatException {
            return Double.longBitsToDouble(i64());
        }

        /** A u64 element count, checked against the bytes left before anything is allocated. */
        int count(int minElementBytes) throws ContainerFormatException {
            int at = pos;
            long n = i64();
            long left = b.length - pos;
            if (n < 0 || n > left / Math.max(1, minElementBytes)) {
                throw error(at, "an element count that fits the " + left + " bytes left", Long.toUnsignedString(n));
            }
            return (int) n;
        }

        String string() throws ContainerFormatException {
            int n = count(1);
            String s = new String(b, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }
    }

    private static final class Out {
        private ByteBuffer buf = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

        private void room(int n) {
            if (buf.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n))
                        .order(ByteOrder.LITTLE_ENDIAN);
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
        }

        void versions(int classVersion) {
            i32(classVersion);
            i32(1); // base class G3FrameObject
        }

        void u8(int v) {
            room(1);
            buf.put((byte) v);
        }

        void i16(int v) {
            room(2);
            buf.putShort((short) v);
        }

        void i32(int v) {
            room(4);
            buf.putInt(v);
        }

        void i64(long v) {
            room(8);
            buf.putLong(v);
        }

        void f64(double v) {
            room(8);
            buf.putDouble(v);
        }

        void bytes(byte[] b) {
            i64(b.length);
            room(b.length);
            buf.put(b);
        }

        byte[] toArray() {
            return Arrays.copyOf(buf.array(), buf.position());
        }
    }
}
