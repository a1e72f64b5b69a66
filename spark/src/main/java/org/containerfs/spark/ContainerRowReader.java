package org.containerfs.spark;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Reads a task's records as rows (the {@link RecordCursor} does the walking). Rows go through one reused
 * {@link UnsafeProjection}: nothing per row but the row's own values. Used when the read asks for rows
 * ({@code columnar=false}); batches are the default ({@link ContainerReaderFactory#columnar}).
 */
final class ContainerRowReader implements PartitionReader<InternalRow> {
    private final RecordCursor cursor;
    private final Column[] columns;
    private final GenericInternalRow values;
    private final UnsafeProjection projection;
    private InternalRow row;

    ContainerRowReader(List<ContainerSlice> slices, Configuration conf, ReadOptions options, Column[] columns,
            RecordFilter filter) {
        this.cursor = new RecordCursor(slices, conf, options, columns, filter);
        this.columns = columns;
        this.values = new GenericInternalRow(columns.length);
        this.projection = UnsafeProjection.create(Column.schemaOf(columns));
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
