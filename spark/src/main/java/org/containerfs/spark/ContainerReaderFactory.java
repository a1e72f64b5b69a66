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

    /** Every partition of a scan reads the same way. */
    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return columnar(options);
    }

    /**
     * Whether a read goes in batches: unless the {@code columnar} option says {@code false}. Batches measured
     * at least as fast as rows for every query shape of the bench (count, listing, attributes, content;
     * docs/spark.md).
     */
    static boolean columnar(ReadOptions options) {
        return options.columnar;
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
