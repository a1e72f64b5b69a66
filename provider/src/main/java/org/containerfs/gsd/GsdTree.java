package org.containerfs.gsd;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.containerfs.spi.Names;

/**
 * The directory shape of one frame, from the chunk names it holds (tree-mapping.md): a name is split
 * on {@code /} unless a component would be empty, {@code .} or {@code ..}, or a directory it needs is
 * also the full name of another chunk of the frame; then the whole name is one component with
 * {@code /} as {@code %2F}. A repeated name shows its first chunk in file order; the others are listed
 * in {@link #duplicates}.
 */
final class GsdTree {

    /** One chunk of the frame: {@code slot} is an index entry (or a staged chunk), {@code inherited} from frame 0. */
    record Item(byte[] name, int slot, boolean inherited) {}

    static final class Dir {
        final String name;
        final String rawPrefix; // the chunk-name prefix this directory stands for, e.g. "particles"
        final Map<String, Object> children = new LinkedHashMap<>(); // Dir or Leaf
        /** The children's names and the children, made at the first listing: a shape no longer changes once built. */
        private volatile Listed listed;

        private record Listed(List<String> names, List<Object> entries) {}

        Dir(String name, String rawPrefix) {
            this.name = name;
            this.rawPrefix = rawPrefix;
        }

        /**
         * The children's names in order, one list for every listing of every frame of this shape (a file of
         * 250,000 alike frames lists its group directories 250,000 times). Call once the shape is built.
         */
        List<String> names() {
            return listed().names();
        }

        /** The children (Dir or Leaf) in order, by position; as {@link #names()}, once the shape is built. */
        List<Object> entries() {
            return listed().entries();
        }

        private Listed listed() {
            Listed l = listed;
            if (l == null) {
                l = new Listed(List.copyOf(children.keySet()), List.copyOf(children.values()));
                listed = l;
            }
            return l;
        }
    }

    record Leaf(String name, Item item) {}

    final Dir root = new Dir("", "");
    final List<String> duplicates;
    final int chunkCount;

    private GsdTree(List<String> duplicates, int chunkCount) {
        this.duplicates = duplicates;
        this.chunkCount = chunkCount;
    }

    static GsdTree build(List<Item> items) {
        Map<String, Item> unique = new LinkedHashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (Item it : items) {
            String key = GsdIndex.key(it.name());
            if (unique.putIfAbsent(key, it) != null) {
                duplicates.add(new String(it.name(), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        Set<String> full = new HashSet<>(unique.keySet());
        GsdTree tree = new GsdTree(Collections.unmodifiableList(duplicates), unique.size());
        for (Item it : unique.values()) {
            List<byte[]> parts = split(it.name());
            if (parts != null) {
                StringBuilder prefix = new StringBuilder();
                for (int k = 0; k < parts.size() - 1; k++) {
                    if (k > 0) {
                        prefix.append('/');
                    }
                    prefix.append(GsdIndex.key(parts.get(k)));
                    if (full.contains(prefix.toString())) {
                        parts = null; // a directory it needs is another chunk's full name
                        break;
                    }
                }
            }
            Dir dir = tree.root;
            String leafName;
            if (parts == null) {
                leafName = Names.component(it.name());
            } else {
                StringBuilder raw = new StringBuilder();
                for (int k = 0; k < parts.size() - 1; k++) {
                    String c = Names.component(parts.get(k));
                    if (k > 0) {
                        raw.append('/');
                    }
                    raw.append(GsdIndex.key(parts.get(k)));
                    Object child = dir.children.get(c);
                    if (child instanceof Dir d) {
                        dir = d;
                    } else if (child == null) {
                        Dir d = new Dir(c, raw.toString());
                        dir.children.put(c, d);
                        dir = d;
                    } else {
                        dir = null; // cannot happen with the prefix rule; keep the first, report the other
                        break;
                    }
                }
                leafName = Names.component(parts.get(parts.size() - 1));
            }
            if (dir == null || dir.children.containsKey(leafName)) {
                duplicates.add(new String(it.name(), java.nio.charset.StandardCharsets.UTF_8));
                continue;
            }
            dir.children.put(leafName, new Leaf(leafName, it));
        }
        return tree;
    }

    /** The name's components, or null if one is empty, "." or "..": such a name is never split. */
    static List<byte[]> split(byte[] name) {
        List<byte[]> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= name.length; i++) {
            if (i == name.length || name[i] == '/') {
                int len = i - start;
                if (len == 0 || (len == 1 && name[start] == '.') || (len == 2 && name[start] == '.' && name[start + 1] == '.')) {
                    return null;
                }
                parts.add(java.util.Arrays.copyOfRange(name, start, i));
                start = i + 1;
            }
        }
        return parts;
    }
}
