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
}
