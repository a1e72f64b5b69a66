package org.containerfs.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.OutputWriterFactory;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.AtomicType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.Option;
import scala.collection.Iterator;
import scala.collection.immutable.Map;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * containerfs as a Spark file source, short name {@code containerfs}: {@code spark.read.format("containerfs")
 * .load(paths...)}, {@code SELECT * FROM containerfs.`/data/ensemble`}, {@code CREATE TABLE t USING containerfs
 * LOCATION '...'}. One row per file in every container found under the paths (a LIME record, a GSD chunk, an scda
 * section or element, a SIONlib task stream, a G3 key), in the fixed schema {@link Column#SCHEMA}, followed by the
 * partition columns Spark discovers in {@code key=value} directories.
 *
 * <p>Spark does the file source's part, as for Parquet or {@code binaryFile}: listing (its file index, in parallel
 * above its threshold, its file-status cache), {@code pathGlobFilter}, {@code recursiveFileLookup},
 * {@code modifiedBefore}/{@code modifiedAfter}, partition discovery and pruning ({@code basePath}),
 * {@code ignoreCorruptFiles}/{@code ignoreMissingFiles}, splitting large files into byte ranges and packing small
 * ones into tasks, {@code input_file_name()} and {@code _metadata}. This class does the container's part: each
 * task gets a file or a byte range of one and reads the records whose header lies in it, evaluating the pushed
 * filters on {@code container}, {@code path}, {@code format} and {@code size} before reading anything else
 * (docs/spark.md).
 */
public final class ContainerfsFileFormat implements FileFormat, DataSourceRegister, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** The session setting choosing column batches ({@code true}, the default) or rows for containerfs scans. */
    public static final String COLUMNAR_CONF = "spark.containerfs.columnar";

    @Override
    public String shortName() {
        return "containerfs";
    }

    @Override
    public String toString() {
        return "containerfs";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ContainerfsFileFormat;
    }

    @Override
    public int hashCode() {
        return ContainerfsFileFormat.class.hashCode();
    }

    /** The fixed schema, whatever the files (an empty directory has it too); fails when no format is installed. */
    @Override
    public Option<StructType> inferSchema(SparkSession session, Map<String, String> options, Seq<FileStatus> files) {
        try {
            ContainerOpener.checkFormatsInstalled();
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
        return Option.apply(Column.SCHEMA);
    }

    @Override
    public OutputWriterFactory prepareWrite(SparkSession session, Job job, Map<String, String> options,
            StructType dataSchema) {
        throw new UnsupportedOperationException("containerfs is a read-only data source: write the rows with another "
                + "format (parquet, ...), or containers with the containerfs NIO provider");
    }

    /** Every container may be cut into byte ranges: a range reads the records whose header lies in it. */
    @Override
    public boolean isSplitable(SparkSession session, Map<String, String> options, Path path) {
        return true;
    }

    /**
     * Column batches unless {@link #COLUMNAR_CONF} is {@code false}: measured at least as fast as rows for every
     * query shape of the bench (docs/spark.md). Every type of the schema and of partition columns has a vector.
     */
    @Override
    public boolean supportBatch(SparkSession session, StructType schema) {
        String value = session.conf().get(COLUMNAR_CONF, "true").trim().toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(COLUMNAR_CONF + " must be true or false, got " + value);
        }
        if (value.equals("false")) {
            return false;
        }
        for (StructField field : schema.fields()) {
            DataType type = field.dataType();
            if (!(type instanceof AtomicType) && !(type instanceof MapType)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public scala.Function1<PartitionedFile, Iterator<InternalRow>> buildReaderWithPartitionValues(
            SparkSession session, StructType dataSchema, StructType partitionSchema, StructType requiredSchema,
            Seq<Filter> filters, Map<String, String> options, Configuration hadoopConf) {
        ReadOptions read = ReadOptions.parse(new CaseInsensitiveStringMap(CollectionConverters.asJava(options)));
        StructField[] fields = requiredSchema.fields();
        Column[] columns = new Column[fields.length];
        for (int i = 0; i < fields.length; i++) {
            columns[i] = Column.of(fields[i].name());
        }
        List<Filter> pushed = new ArrayList<>();
        for (Filter f : CollectionConverters.asJava(filters)) {
            if (RecordFilter.supported(f)) {
                pushed.add(f);
            }
        }
        Option<String> returningBatch = options.get(FileFormat.OPTION_RETURNING_BATCH());
        boolean batch = returningBatch.isDefined() ? Boolean.parseBoolean(returningBatch.get())
                : supportBatch(session, requiredSchema.merge(partitionSchema, true));
        return new SliceFunction(
                JavaSparkContext.fromSparkContext(session.sparkContext()).broadcast(new HadoopConf(hadoopConf)),
                read, columns, new RecordFilter(pushed.toArray(new Filter[0])), partitionSchema, batch);
    }
}
