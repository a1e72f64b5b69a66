package org.containerfs.differential;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one door says of one input, normalized so that doors can be compared: either the container was
 * refused (it cannot be opened, listed or mounted at all), or a sorted map from tree path to {@link Entry}.
 * The root itself is not an entry.
 */
record Answer(boolean refused, SortedMap<String, Entry> entries) {
    /** The content of a file that exists but whose bytes cannot be read (EIO, a failed check, Spark's damage). */
    static final String UNREADABLE = "unreadable";
    /** The content of a directory that exists but cannot be listed. */
    static final String UNLISTABLE = "unlistable";

    enum Type { FILE, DIRECTORY }

    /**
     * One path: its type; its size (a file's listed size; 0 for a directory, whose size no two doors define
     * alike); its content: the SHA-256 of the bytes read (hex), {@link #UNREADABLE}, or null for a listable
     * directory.
     */
    record Entry(Type type, long size, String content) {
        static Entry file(long size, String content) {
            return new Entry(Type.FILE, size, content);
        }

        static Entry directory() {
            return new Entry(Type.DIRECTORY, 0, null);
        }

        @Override
        public String toString() {
            return type == Type.DIRECTORY ? (content == null ? "directory" : "directory, " + content)
                    : "file of " + size + " bytes, " + (content == null ? "content not read" : content);
        }
    }

    Answer {
        entries = Collections.unmodifiableSortedMap(new TreeMap<>(entries));
    }

    static Answer refusedToOpen() {
        return new Answer(true, new TreeMap<>());
    }

    static Answer of(Map<String, Entry> entries) {
        return new Answer(false, new TreeMap<>(entries));
    }

    /**
     * This answer as a door with only these aspects could have given it: without {@link Aspect#DIRECTORIES}
     * no directories, without {@link Aspect#SIZES} every size is -1, without {@link Aspect#CONTENT} no file
     * content, without {@link Aspect#REFUSAL} a refused container is an empty one.
     */
    Answer seenThrough(Set<Aspect> aspects) {
        if (refused && !aspects.contains(Aspect.REFUSAL)) {
            return of(Map.of());
        }
        TreeMap<String, Entry> seen = new TreeMap<>();
        entries.forEach((path, e) -> {
            if (e.type() == Type.DIRECTORY && !aspects.contains(Aspect.DIRECTORIES)) {
                return;
            }
            long size = aspects.contains(Aspect.SIZES) ? e.size() : -1;
            String content = e.type() == Type.DIRECTORY || aspects.contains(Aspect.CONTENT) ? e.content() : null;
            seen.put(path, new Entry(e.type(), size, content));
        });
        return new Answer(refused, seen);
    }

    /** Number of regular files (Spark's rows). */
    long files() {
        return entries.values().stream().filter(e -> e.type() == Type.FILE).count();
    }

    @Override
    public String toString() {
        return refused ? "refused" : entries.size() + " entries";
    }
}
