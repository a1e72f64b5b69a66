package org.containerfs.g3;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decoded values of the simple G3 types. {@link G3Blobs#decode} produces them from blob bytes,
 * {@link G3Blobs#encode} turns them into blob bytes identical to what spt3g writes.
 */
public sealed interface G3Value {

    /** The C++ class name stored in the blob's polymorphic header. */
    String typeName();

    record IntValue(long value) implements G3Value {
        public String typeName() {
            return "G3Int";
        }
    }

    record DoubleValue(double value) implements G3Value {
        public String typeName() {
            return "G3Double";
        }
    }

    record BoolValue(boolean value) implements G3Value {
        public String typeName() {
            return "G3Bool";
        }
    }

    /** A G3String; spt3g stores bytes, which are decoded as UTF-8 here (and encoded back the same way). */
    record StringValue(String value) implements G3Value {
        public StringValue {
            Objects.requireNonNull(value);
        }

        public String typeName() {
            return "G3String";
        }
    }

    /** A G3Time: ticks of 10 ns since the Unix epoch. */
    record TimeValue(long ticks) implements G3Value {
        public String typeName() {
            return "G3Time";
        }
    }

    record VectorDouble(double[] values) implements G3Value {
        public String typeName() {
            return "G3VectorDouble";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof VectorDouble v && Arrays.equals(values, v.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return "VectorDouble" + Arrays.toString(values);
        }
    }

    /**
     * A G3VectorInt. Decoding accepts class versions 1 (32-bit elements) and 2 (the narrowest of
     * 8/16/32/64 bits); encoding writes version 2 with the narrowest width that holds every value, as
     * spt3g does.
     */
    record VectorInt(long[] values) implements G3Value {
        public String typeName() {
            return "G3VectorInt";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof VectorInt v && Arrays.equals(values, v.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return "VectorInt" + Arrays.toString(values);
        }
    }

    record VectorString(List<String> values) implements G3Value {
        public VectorString {
            values = List.copyOf(values);
        }

        public String typeName() {
            return "G3VectorString";
        }
    }

    /** A G3MapDouble; spt3g stores it sorted by key bytes, and encoding sorts the same way. */
    record MapDouble(Map<String, Double> values) implements G3Value {
        public MapDouble {
            values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
        }

        public String typeName() {
            return "G3MapDouble";
        }
    }

    /**
     * An uncompressed G3Timestream (class version 4 when encoded; versions 2 to 4 decoded; FLAC-compressed
     * ones are not decoded). {@code dataType} is spt3g's: 0 double, 1 float (both in {@code values}),
     * 2 int32, 3 int64 (both in {@code integers}); the other array is null.
     */
    record Timestream(int units, long startTicks, long stopTicks, int dataType, double[] values, long[] integers)
            implements G3Value {
        public static final int DOUBLE = 0;
        public static final int FLOAT = 1;
        public static final int INT32 = 2;
        public static final int INT64 = 3;

        public Timestream {
            if (dataType < 0 || dataType > 3) {
                throw new IllegalArgumentException("timestream data type is 0 to 3, got " + dataType);
            }
            if ((dataType <= FLOAT) != (values != null) || (dataType >= INT32) != (integers != null)) {
                throw new IllegalArgumentException("data type " + dataType + " needs "
                        + (dataType <= FLOAT ? "values" : "integers") + " and only those");
            }
        }

        public static Timestream ofDoubles(int units, long startTicks, long stopTicks, double[] values) {
            return new Timestream(units, startTicks, stopTicks, DOUBLE, values, null);
        }

        public String typeName() {
            return "G3Timestream";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Timestream t && units == t.units && startTicks == t.startTicks
                    && stopTicks == t.stopTicks && dataType == t.dataType && Arrays.equals(values, t.values)
                    && Arrays.equals(integers, t.integers);
        }

        @Override
        public int hashCode() {
            return Objects.hash(units, startTicks, stopTicks, dataType, Arrays.hashCode(values),
                    Arrays.hashCode(integers));
        }
    }
}
