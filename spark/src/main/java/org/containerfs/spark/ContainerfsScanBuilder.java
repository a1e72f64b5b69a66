package org.containerfs.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Takes the columns a query selects and the filters we can apply before reading a record. */
final class ContainerfsScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters {
    private final ReadOptions options;
    private Column[] columns = Column.values();
    private Filter[] pushed = new Filter[0];

    ContainerfsScanBuilder(ReadOptions options) {
        this.options = options;
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        StructField[] fields = requiredSchema.fields();
        Column[] required = new Column[fields.length];
        for (int i = 0; i < fields.length; i++) {
            required[i] = Column.of(fields[i].name());
        }
        columns = required;
    }

    /** Accepts every filter {@link RecordFilter} evaluates completely; returns the rest for Spark. */
    @Override
    public Filter[] pushFilters(Filter[] filters) {
        List<Filter> accepted = new ArrayList<>();
        List<Filter> rest = new ArrayList<>();
        for (Filter f : filters) {
            (RecordFilter.supported(f) ? accepted : rest).add(f);
        }
        pushed = accepted.toArray(new Filter[0]);
        return rest.toArray(new Filter[0]);
    }

    @Override
    public Filter[] pushedFilters() {
        return pushed.clone();
    }

    @Override
    public Scan build() {
        return new ContainerfsScan(options, columns, new RecordFilter(pushed));
    }
}
