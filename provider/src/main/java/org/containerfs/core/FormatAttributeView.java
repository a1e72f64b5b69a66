package org.containerfs.core;

import java.io.IOException;
import java.util.Map;

/** The format's own view ({@code lime:*}, {@code gsd:*}, ...): what its nodes say about themselves. */
final class FormatAttributeView implements ContainerAttributeView {
    private final ContainerPath path;

    FormatAttributeView(ContainerPath path) {
        this.path = path;
    }

    @Override
    public String name() {
        return path.getFileSystem().format().name();
    }

    @Override
    public Map<String, Object> readAttributes() throws IOException {
        return read(path);
    }

    static Map<String, Object> read(ContainerPath p) throws IOException {
        ContainerFileSystem fs = p.getFileSystem();
        var node = fs.lookup(p);
        return fs.read(node::attributes);
    }
}
