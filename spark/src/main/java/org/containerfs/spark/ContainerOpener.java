package org.containerfs.spark;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.hadoop.HadoopContainerInput;

/** Opens a container's tree, read-only, from its Hadoop input. */
final class ContainerOpener {
    private ContainerOpener() {}

    /** The file system owns {@code input}: closing it closes the input (a failed open closes it at once). */
    static FileSystem open(HadoopContainerInput input, Map<String, ?> env) throws IOException {
        return ContainerFileSystems.open(input, env);
    }

    /**
     * Fails when this JVM sees no container format (a jar built without its service registrations, say):
     * without this check every file would be skipped as "not a container" and a read would silently
     * return no rows.
     */
    static void checkFormatsInstalled() throws IOException {
        if (ContainerFileSystems.providers().isEmpty()) {
            throw new IOException("containerfs: no container format is registered in this JVM: the containerfs jar "
                    + "(containerfs-spark_2.13-VERSION-all.jar, passed with --jars) holds them in META-INF/services (docs/spark.md)");
        }
    }
}
