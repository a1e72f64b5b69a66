package org.containerfs.spark;

import java.io.IOException;
import java.io.Serializable;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.TaskCompletionListener;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;

/**
 * What Spark's scan calls on an executor for each file or byte range of one (made on the driver, shipped with
 * the tasks): the records of that slice, as rows, or as column batches when the plan reads batches (Spark's
 * file sources hand batches through the same iterator).
 */
final class SliceFunction extends AbstractFunction1<PartitionedFile, Iterator<InternalRow>> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Broadcast<HadoopConf> conf;
    private final ReadOptions options;
    private final Column[] columns;
    private final RecordFilter filter;
    private final StructType partitionSchema;
    private final boolean batch;

    SliceFunction(Broadcast<HadoopConf> conf, ReadOptions options, Column[] columns, RecordFilter filter,
            StructType partitionSchema, boolean batch) {
        this.conf = conf;
        this.options = options;
        this.columns = columns.clone();
        this.filter = filter;
        this.partitionSchema = partitionSchema;
        this.batch = batch;
    }

    @Override
    public Iterator<InternalRow> apply(PartitionedFile file) {
        ContainerSlice slice = new ContainerSlice(file.toPath().toString(), file.fileSize(), file.modificationTime(),
                file.start(), file.start() + file.length());
        SliceReader<?> reader = batch
                ? new ContainerBatchReader(slice, conf.value().get(), options, columns, filter, partitionSchema,
                        file.partitionValues())
                : new ContainerRowReader(slice, conf.value().get(), options, columns, filter, partitionSchema,
                        file.partitionValues());
        @SuppressWarnings("unchecked")
        Iterator<InternalRow> rows = (Iterator<InternalRow>) (Iterator<?>) new Rows(reader);
        return rows;
    }

    /**
     * A slice reader as the iterator Spark's scan takes; closed at its end, when Spark closes it, or when the task
     * ends. An {@link IOException} reaches Spark as it is (its {@code ignoreMissingFiles} looks for
     * {@link java.io.FileNotFoundException}, its {@code ignoreCorruptFiles} for any I/O failure).
     */
    private static final class Rows extends AbstractIterator<Object> implements AutoCloseable {
        private final SliceReader<?> reader;
        private boolean fetched;
        private boolean has;
        private boolean closed;

        Rows(SliceReader<?> reader) {
            this.reader = reader;
            TaskContext task = TaskContext.get();
            if (task != null) {
                task.addTaskCompletionListener((TaskCompletionListener) context -> close());
            }
        }

        @Override
        public boolean hasNext() {
            if (!fetched) {
                try {
                    has = !closed && reader.next();
                } catch (IOException e) {
                    close();
                    throw SliceFunction.<RuntimeException>rethrow(e);
                }
                fetched = true;
                if (!has) {
                    close();
                }
            }
            return has;
        }

        /** A row, or a batch cast as one (as Spark's vectorized readers hand them over). */
        @Override
        public Object next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            fetched = false;
            return reader.get();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                try {
                    reader.close();
                } catch (IOException e) {
                    throw SliceFunction.<RuntimeException>rethrow(e);
                }
            }
        }
    }

    /** Throws {@code e} as it is (a checked exception unchanged, for Spark to tell its kind). */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E rethrow(Throwable e) throws E {
        throw (E) e;
    }
}
