package org.containerfs.spark;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** The columns of the fixed schema: one row per file of a container's tree. */
enum Column {
    /** The container's URI (the Hadoop path, qualified, without user info). */
    CONTAINER("container"),
    /** The file's path in the container's tree ({@code /msg01/rec01.xlf-info}). */
    PATH("path"),
    /** The container's format ({@code lime}, {@code gsd}, {@code scda}, {@code sion}, {@code g3}). */
    FORMAT("format"),
    /** The file's size in bytes, as listed. */
    SIZE("size"),
    /** The format's attribute view of the file, byte[] values as lower-case hex; null when it cannot be read. */
    ATTRIBUTES("attributes"),
    /** The file's bytes; read only when selected; null when they fail their check (see {@link #DAMAGE}). */
    CONTENT("content"),
    /**
     * What is wrong with the file's bytes (a failed checksum, bytes missing), null when they read back sound.
     * Selecting it reads the bytes (that is the check); a row is there whether or not its bytes are sound.
     */
    DAMAGE("damage");

    /** The schema every containerfs read has. */
    static final StructType SCHEMA = new StructType(new StructField[] {
        DataTypes.createStructField(Column.CONTAINER.field, DataTypes.StringType, false),
        DataTypes.createStructField(Column.PATH.field, DataTypes.StringType, false),
        DataTypes.createStructField(Column.FORMAT.field, DataTypes.StringType, false),
        DataTypes.createStructField(Column.SIZE.field, DataTypes.LongType, false),
        DataTypes.createStructField(Column.ATTRIBUTES.field,
                DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType, false), true),
        DataTypes.createStructField(Column.CONTENT.field, DataTypes.BinaryType, true),
        DataTypes.createStructField(Column.DAMAGE.field, DataTypes.StringType, true),
    });

    final String field;

    /** Whether pushed filters may look at the column: it is known from the listing, before any byte of the file. */
    boolean listed() {
        return this == CONTAINER || this == PATH || this == FORMAT || this == SIZE;
    }

    Column(String field) {
        this.field = field;
    }

    /** The schema of {@code columns}, in their order (what a scan reads). */
    static StructType schemaOf(Column[] columns) {
        StructField[] fields = new StructField[columns.length];
        for (int i = 0; i < columns.length; i++) {
            fields[i] = SCHEMA.fields()[columns[i].ordinal()];
        }
        return new StructType(fields);
    }

    static Column of(String field) {
        for (Column c : values()) {
            if (c.field.equalsIgnoreCase(field)) {
                return c;
            }
        }
        throw new IllegalArgumentException("containerfs has no column " + field + "; it has " + SCHEMA.simpleString());
    }
}
