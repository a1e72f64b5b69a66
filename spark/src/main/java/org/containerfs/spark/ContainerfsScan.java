package org.containerfs.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/** A planned read: lists the containers on the driver once, then hands Spark one partition per task. */
final class ContainerfsScan implements Scan, Batch {
    private final ReadOptions options;
    private final Column[] columns;
    private final RecordFilter filter;
    private InputPartition[] partitions;

    ContainerfsScan(ReadOptions options, Column[] columns, RecordFilter filter) {
        this.options = options;
        this.columns = columns;
        this.filter = filter;
    }

    @Override
    public StructType readSchema() {
        return Column.schemaOf(columns);
    }

    @Override
    public String description() {
        return "containerfs " + options.paths + " columns " + Arrays.stream(columns).map(c -> c.field)
                .collect(Collectors.joining(",", "[", "]")) + " pushed " + Arrays.toString(filter.filters());
    }

    /** Decided by the columns read, the same for every partition (Spark need not ask each). */
    @Override
    public ColumnarSupportMode columnarSupportMode() {
        return ContainerReaderFactory.columnar(options) ? ColumnarSupportMode.SUPPORTED
                : ColumnarSupportMode.UNSUPPORTED;
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        if (partitions == null) {
            SparkSession session = SparkSession.active();
            try {
                ContainerOpener.checkFormatsInstalled();
                List<ContainerPlanner.Listed> files = ContainerPlanner.list(options, hadoopConf(session),
                        filter.restrictedTo(EnumSet.of(Column.CONTAINER)));
                partitions = ContainerPlanner.partitions(files, options, session.sparkContext().defaultParallelism())
                        .toArray(new InputPartition[0]);
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }
        return partitions.clone();
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        SparkSession session = SparkSession.active();
        return new ContainerReaderFactory(
                JavaSparkContext.fromSparkContext(session.sparkContext()).broadcast(new HadoopConf(hadoopConf(session))),
                options, columns, filter);
    }

    /** The session's Hadoop configuration with this read's options in it, as Spark's file sources build it. */
    private Configuration hadoopConf(SparkSession session) {
        Configuration conf = new Configuration(session.sparkContext().hadoopConfiguration());
        options.all.forEach((k, v) -> {
            if (!k.equalsIgnoreCase("path") && !k.equalsIgnoreCase("paths")) {
                conf.set(k, v);
            }
        });
        return conf;
    }
}
