package org.containerfs.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringContains;
import org.apache.spark.sql.sources.StringEndsWith;
import org.apache.spark.sql.sources.StringStartsWith;

/**
 * The pushed filters of a read, evaluated on a record's {@code container}, {@code path}, {@code format} and
 * {@code size} before anything else of it is read. Supported: =, <=>, IN, IS NOT NULL, STARTS WITH, ENDS
 * WITH, CONTAINS on the three string columns, the comparisons on {@code size}, and AND, OR, NOT of
 * supported filters. Every filter accepted is applied completely, so Spark does not evaluate it again.
 */
final class RecordFilter implements Serializable {
    private static final long serialVersionUID = 1L;

    /** What a filter looks at; {@code size} is asked for only when a filter needs it. */
    interface Record {
        String container();

        String path();

        String format();

        long size();
    }

    private final Filter[] filters;

    RecordFilter(Filter[] filters) {
        this.filters = filters.clone();
    }

    /** Whether Spark may hand {@code filter} to us entirely. */
    static boolean supported(Filter filter) {
        if (filter instanceof And f) {
            return supported(f.left()) && supported(f.right());
        }
        if (filter instanceof Or f) {
            return supported(f.left()) && supported(f.right());
        }
        if (filter instanceof Not f) {
            return supported(f.child());
        }
        if (filter instanceof IsNotNull f) {
            Column c = column(f.attribute());
            return c != null && c.listed();
        }
        if (filter instanceof EqualTo f) {
            return comparable(f.attribute(), f.value());
        }
        if (filter instanceof EqualNullSafe f) {
            return comparable(f.attribute(), f.value());
        }
        if (filter instanceof In f) {
            for (Object v : f.values()) {
                if (!comparable(f.attribute(), v)) {
                    return false;
                }
            }
            return true;
        }
        if (filter instanceof StringStartsWith f) {
            return isString(f.attribute());
        }
        if (filter instanceof StringEndsWith f) {
            return isString(f.attribute());
        }
        if (filter instanceof StringContains f) {
            return isString(f.attribute());
        }
        if (filter instanceof GreaterThan f) {
            return comparable(f.attribute(), f.value());
        }
        if (filter instanceof GreaterThanOrEqual f) {
            return comparable(f.attribute(), f.value());
        }
        if (filter instanceof LessThan f) {
            return comparable(f.attribute(), f.value());
        }
        if (filter instanceof LessThanOrEqual f) {
            return comparable(f.attribute(), f.value());
        }
        return false;
    }

    boolean isEmpty() {
        return filters.length == 0;
    }

    /** Whether a filter asks for {@code size} (then the reader looks it up for every record). */
    boolean needsSize() {
        for (Filter f : filters) {
            for (String ref : f.references()) {
                if (column(ref) == Column.SIZE) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the record passes every filter. */
    boolean accepts(Record record) {
        for (Filter f : filters) {
            if (!evaluate(f, record)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The filters (top-level conjuncts) that look only at the columns in {@code known}: what can be decided
     * before a container is opened (container) or before its records are listed (container and format).
     */
    RecordFilter restrictedTo(Set<Column> known) {
        List<Filter> out = new ArrayList<>();
        for (Filter f : filters) {
            Set<Column> refs = new HashSet<>();
            for (String ref : f.references()) {
                refs.add(column(ref));
            }
            if (known.containsAll(refs)) {
                out.add(f);
            }
        }
        return new RecordFilter(out.toArray(new Filter[0]));
    }

    private static boolean evaluate(Filter filter, Record r) {
        if (filter instanceof And f) {
            return evaluate(f.left(), r) && evaluate(f.right(), r);
        }
        if (filter instanceof Or f) {
            return evaluate(f.left(), r) || evaluate(f.right(), r);
        }
        if (filter instanceof Not f) {
            return !evaluate(f.child(), r);
        }
        if (filter instanceof IsNotNull) {
            return true;    // a listed column is never null
        }
        if (filter instanceof EqualTo f) {
            return equal(f.attribute(), f.value(), r);
        }
        if (filter instanceof EqualNullSafe f) {
            return equal(f.attribute(), f.value(), r);
        }
        if (filter instanceof In f) {
            for (Object v : f.values()) {
                if (equal(f.attribute(), v, r)) {
                    return true;
                }
            }
            return false;
        }
        if (filter instanceof StringStartsWith f) {
            return string(f.attribute(), r).startsWith(f.value());
        }
        if (filter instanceof StringEndsWith f) {
            return string(f.attribute(), r).endsWith(f.value());
        }
        if (filter instanceof StringContains f) {
            return string(f.attribute(), r).contains(f.value());
        }
        if (filter instanceof GreaterThan f) {
            return compare(f.attribute(), f.value(), r) > 0;
        }
        if (filter instanceof GreaterThanOrEqual f) {
            return compare(f.attribute(), f.value(), r) >= 0;
        }
        if (filter instanceof LessThan f) {
            return compare(f.attribute(), f.value(), r) < 0;
        }
        if (filter instanceof LessThanOrEqual f) {
            return compare(f.attribute(), f.value(), r) <= 0;
        }
        throw new IllegalStateException("filter " + filter + " was not accepted for pushdown");
    }

    private static boolean equal(String attribute, Object value, Record r) {
        if (value == null) {
            return false;
        }
        if (column(attribute) == Column.SIZE) {
            return r.size() == ((Number) value).longValue();
        }
        return string(attribute, r).equals(value);
    }

    /** Column value compared with a literal (Spark's order: strings by UTF-8 bytes, as UTF8String does). */
    private static int compare(String attribute, Object value, Record r) {
        Column c = column(attribute);
        if (c == Column.SIZE) {
            return Long.compare(r.size(), ((Number) value).longValue());
        }
        return org.apache.spark.unsafe.types.UTF8String.fromString(string(attribute, r))
                .compareTo(org.apache.spark.unsafe.types.UTF8String.fromString((String) value));
    }

    private static String string(String attribute, Record r) {
        return switch (column(attribute)) {
            case CONTAINER -> r.container();
            case PATH -> r.path();
            case FORMAT -> r.format();
            default -> throw new IllegalStateException(attribute + " is not a string column");
        };
    }

    private static boolean comparable(String attribute, Object value) {
        Column c = column(attribute);
        if (c == Column.SIZE) {
            return value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte;
        }
        return isString(attribute) && value instanceof String;
    }

    private static boolean isString(String attribute) {
        Column c = column(attribute);
        return c == Column.CONTAINER || c == Column.PATH || c == Column.FORMAT;
    }

    private static Column column(String attribute) {
        for (Column c : Column.values()) {
            if (c.field.equalsIgnoreCase(attribute)) {
                return c;
            }
        }
        return null;
    }
}
