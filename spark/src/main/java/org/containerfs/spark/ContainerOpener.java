package org.containerfs.spark;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.hadoop.HadoopContainerInput;

/** Opens a container's tree, read-only, from its Hadoop input. */
final class ContainerOpener {
    private ContainerOpener() {}

    /** On success the file system owns {@code input} (closing it closes the input). */
    static FileSystem open(HadoopContainerInput input, Map<String, ?> env) throws IOException {
        // TEMPORARY until ContainerFileSystems.open(ContainerInput, env) is merged: local files only
        if (!"file".equals(input.uri().getScheme())) {
            throw new UnsupportedOperationException("not yet: " + input.uri());
        }
        input.close();
        return ContainerFileSystems.open(Path.of(input.uri()), env);
    }
}
