package org.containerfs.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.vectorized.ColumnVectorUtils;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads the records of a container slice as column batches (the {@link RecordCursor} does the walking), written straight into
 * Spark's on-heap vectors, which are reused from batch to batch. A batch holds the records of one container
 * slice only, so {@code container} and {@code format} are one constant per batch, never a value per row (as are
 * the partition columns, the file's values from its directories, after the record columns); a
 * batch ends at {@code columnarBatchSize} records or, with content selected, once it holds
 * {@link #MAX_BATCH_CONTENT} bytes of it (large records never pile up in memory).
 */
final class ContainerBatchReader implements SliceReader<ColumnarBatch> {
    /** A batch stops growing once its content reaches this (it always holds at least one record). */
    static final long MAX_BATCH_CONTENT = 32L << 20;

    private final RecordCursor cursor;
    private final Column[] columns;
    private final int batchSize;
    private final StructType partitionSchema;
    private final InternalRow partitionValues;
    private ColumnVector[] vectors;
    /** Made with the first record (a slice without rows allocates nothing), reused for every batch after it. */
    private ColumnarBatch batch;

    ContainerBatchReader(ContainerSlice slice, Configuration conf, ReadOptions options, Column[] columns,
            RecordFilter filter, StructType partitionSchema, InternalRow partitionValues) {
        this.cursor = new RecordCursor(slice, conf, options, columns, filter);
        this.columns = columns;
        this.batchSize = options.columnarBatchSize;
        this.partitionSchema = partitionSchema;
        this.partitionValues = partitionValues;
    }

    /**
     * The vectors, for at most as many records as the slice has left (many small containers read by one task do not
     * each allocate vectors for a whole batch); the constants set once.
     */
    private void allocate() {
        int capacity = (int) Math.max(1, Math.min(batchSize, 1 + cursor.remaining()));
        vectors = new ColumnVector[columns.length + partitionSchema.length()];
        for (int c = 0; c < columns.length; c++) {
            Column column = columns[c];
            if (column == Column.CONTAINER || column == Column.FORMAT) {
                ConstantColumnVector constant = new ConstantColumnVector(capacity, DataTypes.StringType);
                constant.setUtf8String(column == Column.CONTAINER ? cursor.container() : cursor.format());
                vectors[c] = constant;
            } else {
                vectors[c] = new OnHeapColumnVector(capacity, Column.SCHEMA.fields()[column.ordinal()].dataType());
            }
        }
        for (int p = 0; p < partitionSchema.length(); p++) {
            ConstantColumnVector value = new ConstantColumnVector(capacity, partitionSchema.fields()[p].dataType());
            ColumnVectorUtils.populate(value, partitionValues, p);
            vectors[columns.length + p] = value;
        }
        batch = new ColumnarBatch(vectors);
    }

    @Override
    public boolean next() throws IOException {
        if (!cursor.next()) {
            return false;
        }
        if (batch == null) {
            allocate();
        }
        for (int c = 0; c < columns.length; c++) {
            if (vectors[c] instanceof WritableColumnVector v) {
                v.reset();
            }
        }
        int rows = 0;
        long content = 0;
        while (true) {
            content += write(rows++);
            if (rows == batchSize || content >= MAX_BATCH_CONTENT) {
                break;
            }
            if (!cursor.next()) {
                break;
            }
        }
        batch.setNumRows(rows);
        return true;
    }

    /** Writes the cursor's record as row {@code row} of the batch; returns the content bytes it holds. */
    private long write(int row) {
        long content = 0;
        for (int c = 0; c < columns.length; c++) {
            switch (columns[c]) {
                case CONTAINER, FORMAT -> { }     // constants of the batch
                case PATH -> ((WritableColumnVector) vectors[c]).putByteArray(row,
                        cursor.path().getBytes(StandardCharsets.UTF_8));
                case SIZE -> ((WritableColumnVector) vectors[c]).putLong(row, cursor.size());
                case ATTRIBUTES -> putAttributes((WritableColumnVector) vectors[c], row, cursor.attributes());
                case CONTENT -> {
                    byte[] bytes = cursor.content();
                    if (bytes == null) {
                        ((WritableColumnVector) vectors[c]).putNull(row);
                    } else {
                        ((WritableColumnVector) vectors[c]).putByteArray(row, bytes, 0, bytes.length);
                        content = bytes.length;
                    }
                }
                case DAMAGE -> {
                    String damage = cursor.damage();
                    if (damage == null) {
                        ((WritableColumnVector) vectors[c]).putNull(row);
                    } else {
                        byte[] text = damage.getBytes(StandardCharsets.UTF_8);
                        ((WritableColumnVector) vectors[c]).putByteArray(row, text, 0, text.length);
                    }
                }
            }
        }
        return content;
    }

    private static void putAttributes(WritableColumnVector map, int row, Map<String, Object> attributes) {
        if (attributes == null) {
            map.putNull(row);
            return;
        }
        WritableColumnVector keys = (WritableColumnVector) map.getChild(0);
        WritableColumnVector values = (WritableColumnVector) map.getChild(1);
        int offset = keys.getElementsAppended();
        for (Map.Entry<String, Object> e : attributes.entrySet()) {
            byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] value = RecordCursor.text(e.getValue()).getBytes(StandardCharsets.UTF_8);
            keys.appendByteArray(key, 0, key.length);
            values.appendByteArray(value, 0, value.length);
        }
        map.putArray(row, offset, attributes.size());
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    @Override
    public void close() throws IOException {
        try {
            cursor.close();
        } finally {
            if (batch != null) {
                batch.close();
            }
        }
    }
}
