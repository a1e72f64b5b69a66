package org.containerfs.spark;

import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/** One task's work: one container, a record range of a large one, or many small containers packed. */
record ContainerPartition(List<ContainerSlice> slices, String[] hosts) implements InputPartition {

    @Override
    public String[] preferredLocations() {
        return hosts.clone();
    }
}
