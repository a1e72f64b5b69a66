package org.containerfs.spark;

import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

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

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        return new ContainerRowReader(((ContainerPartition) partition).slices(), conf.value().get(), options, columns,
                filter);
    }
}
