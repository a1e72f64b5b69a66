package org.containerfs.core;

import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttributeView;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reading attributes by view and name ({@code basic}, and the format's own view). */
final class AttributeOperations {
    private AttributeOperations() {}

    @SuppressWarnings("unchecked")
    static <V extends FileAttributeView> V view(ContainerPath p, Class<V> type) {
        if (type == BasicFileAttributeView.class) {
            return (V) new BasicAttributeView(p);
        }
        if (type == ContainerAttributeView.class) {
            return (V) new FormatAttributeView(p);
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    static <A extends BasicFileAttributes> A readAttributes(ContainerPath path, Class<A> type) throws IOException {
        if (type == BasicFileAttributes.class) {
            return (A) BasicAttributeView.read(path);
        }
        throw new UnsupportedOperationException("attributes " + type.getName()
                + " are not supported: use BasicFileAttributes or the format view by name");
    }

    static Map<String, Object> readAttributes(ContainerPath p, String attributes) throws IOException {
        int colon = attributes.indexOf(':');
        String view = colon < 0 ? "basic" : attributes.substring(0, colon);
        String names = colon < 0 ? attributes : attributes.substring(colon + 1);
        Map<String, Object> all;
        if (view.equals("basic")) {
            all = BasicAttributeView.read(p).asMap();
        } else if (view.equals(p.getFileSystem().format().name())) {
            all = FormatAttributeView.read(p);
        } else if (view.equals(Decompression.KIND) && p.getFileSystem().decompression() != null) {
            // the decompression layer's facts, the same on every path of a compressed container
            all = p.getFileSystem().decompression().describe();
        } else {
            throw new UnsupportedOperationException("attribute view " + view + " is not supported (basic, "
                    + p.getFileSystem().format().name() + ")");
        }
        if (names.equals("*")) {
            return new LinkedHashMap<>(all);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (String name : names.split(",")) {
            if (name.equals("*")) {
                out.putAll(all);
            } else if (all.containsKey(name)) {
                out.put(name, all.get(name));
            } else {
                throw new IllegalArgumentException("attribute " + view + ":" + name + " does not exist; the view has "
                        + all.keySet());
            }
        }
        return out;
    }
}
