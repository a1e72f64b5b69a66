package org.containerfs.core;

import java.io.IOException;
import java.nio.file.attribute.FileAttributeView;
import java.util.Map;

/**
 * The format's own attribute view ({@code lime}, {@code gsd}, {@code scda}, {@code sion}, {@code g3}):
 * the raw facts of one node, by name. Also reachable as {@code Files.readAttributes(path, "lime:*")}.
 */
public interface ContainerAttributeView extends FileAttributeView {

    /** All attributes of the node, in the format's order. */
    Map<String, Object> readAttributes() throws IOException;
}
