package org.containerfs.spark;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** The records of the containers under the load paths; read-only, batch only. */
final class ContainerfsTable implements SupportsRead {

    @Override
    public String name() {
        return "containerfs";
    }

    @Override
    public org.apache.spark.sql.connector.catalog.Column[] columns() {
        StructField[] fields = Column.SCHEMA.fields();
        org.apache.spark.sql.connector.catalog.Column[] out = new org.apache.spark.sql.connector.catalog.Column[fields.length];
        for (int i = 0; i < fields.length; i++) {
            out[i] = org.apache.spark.sql.connector.catalog.Column.create(fields[i].name(), fields[i].dataType(),
                    fields[i].nullable());
        }
        return out;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new ContainerfsScanBuilder(ReadOptions.parse(options));
    }
}
