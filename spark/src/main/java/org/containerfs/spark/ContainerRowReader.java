package org.containerfs.spark;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Reads the records of a container slice as rows, the partition columns (the file's values from its
 * directories) after the record columns (the {@link RecordCursor} does the walking). Rows go through one reused
 * {@link UnsafeProjection}: nothing per row but the row's own values. Used when the read asks for rows
 * (batches are the default: {@link ContainerfsFileFormat#supportBatch}).
 */
final class ContainerRowReader implements SliceReader<InternalRow> {
    private final RecordCursor cursor;
    private final Column[] columns;
    private final GenericInternalRow values;
    private final UnsafeProjection projection;
    private InternalRow row;

    ContainerRowReader(ContainerSlice slice, Configuration conf, ReadOptions options, Column[] columns,
            RecordFilter filter, StructType partitionSchema, InternalRow partitionValues) {
        this.cursor = new RecordCursor(slice, conf, options, columns, filter);
        this.columns = columns;
        this.values = new GenericInternalRow(columns.length + partitionSchema.length());
        StructType schema = Column.schemaOf(columns);
        for (int p = 0; p < partitionSchema.length(); p++) {
            StructField field = partitionSchema.fields()[p];
            values.update(columns.length + p, partitionValues.get(p, field.dataType()));
            schema = schema.add(field);
        }
        this.projection = UnsafeProjection.create(schema);
    }

    @Override
    public boolean next() throws IOException {
        if (!cursor.next()) {
            return false;
        }
        for (int c = 0; c < columns.length; c++) {
            values.update(c, switch (columns[c]) {
                case CONTAINER -> cursor.container();
                case PATH -> UTF8String.fromString(cursor.path());
                case FORMAT -> cursor.format();
                case SIZE -> cursor.size();
                case ATTRIBUTES -> cursor.attributes() == null ? null : attributes(cursor.attributes());
                case CONTENT -> cursor.content();
                case DAMAGE -> cursor.damage() == null ? null : UTF8String.fromString(cursor.damage());
            });
        }
        row = projection.apply(values);
        return true;
    }

    private static ArrayBasedMapData attributes(Map<String, Object> attributes) {
        Object[] keys = new Object[attributes.size()];
        Object[] vals = new Object[attributes.size()];
        int i = 0;
        for (Map.Entry<String, Object> e : attributes.entrySet()) {
            keys[i] = UTF8String.fromString(e.getKey());
            vals[i] = UTF8String.fromString(RecordCursor.text(e.getValue()));
            i++;
        }
        return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(vals));
    }

    @Override
    public InternalRow get() {
        return row;
    }

    @Override
    public void close() throws IOException {
        cursor.close();
    }
}
