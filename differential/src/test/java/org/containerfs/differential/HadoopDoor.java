package org.containerfs.differential;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.hadoop.HadoopContainerInput;

/** The Hadoop input on Hadoop's local file system ({@code file:} URI), opened and walked through java.nio. */
final class HadoopDoor implements Door {
    private final Configuration conf = new Configuration();

    @Override
    public String name() {
        return "hadoop";
    }

    @Override
    public Answer answer(Input input) throws Exception {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(input.file().toUri());
        return NioWalk.openAndWalk(() -> ContainerFileSystems.open(HadoopContainerInput.open(path, conf), Map.of()));
    }
}
