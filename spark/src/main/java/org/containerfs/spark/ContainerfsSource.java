package org.containerfs.spark;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code spark.read.format("containerfs").load(paths...)}: one row per file in every container found under
 * the paths (a LIME record, a GSD chunk, an scda section or element, a SIONlib task stream, a G3 key).
 * The schema is fixed ({@link Column.SCHEMA}); see docs/spark.md for the options.
 */
public final class ContainerfsSource implements TableProvider, DataSourceRegister {

    @Override
    public String shortName() {
        return "containerfs";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return Column.SCHEMA;
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new ContainerfsTable();
    }
}
