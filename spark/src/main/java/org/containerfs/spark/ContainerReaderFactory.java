package org.containerfs.spark;

import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Made on the driver, shipped with every task: what a task needs to read its containers. */
final class ContainerReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    private final Broadcast<HadoopConf> conf;
    private final ReadOptions options;
    private final Column[] columns;
    private final RecordFilter filter;

    ContainerReaderFactory(Broadcast<HadoopConf> conf, ReadOptions options, Column[] columns, RecordFilter filter) {
        this.conf = conf;
        this.options = options;
        this.columns = columns.clone();
        this.filter = filter;
    }

    /** Every partition of a scan reads the same way: batches where they measure faster for its columns. */
    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return columnar(options, columns);
    }

    /**
     * Whether a read of {@code columns} goes in batches: as the {@code columnar} option says, else for the
     * columns that measured faster that way (docs/spark.md): the cheap ones, {@code container}, {@code path},
     * {@code format}, {@code size} (and none at all, as {@code count()}).
     */
    static boolean columnar(ReadOptions options, Column[] columns) {
        if (options.columnar != null) {
            return options.columnar;
        }
        for (Column c : columns) {
            if (c == Column.ATTRIBUTES || c == Column.CONTENT) {
                return false;
            }
        }
        return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return new ContainerBatchReader(((ContainerPartition) partition).slices(), conf.value().get(), options, columns,
                filter);
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        return new ContainerRowReader(((ContainerPartition) partition).slices(), conf.value().get(), options, columns,
                filter);
    }
}
