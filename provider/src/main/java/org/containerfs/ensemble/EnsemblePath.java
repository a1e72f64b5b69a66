package org.containerfs.ensemble;

import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Objects;

/**
 * A path of an ensemble tree: '/'-separated names, absolute or relative, {@code ..} resolved
 * lexically (the tree shows no links). A path names no source file or container by itself: what it
 * leads to is found when it is used, so a path stays valid while its container is closed and reopened.
 */
public final class EnsemblePath implements Path {
    private final EnsembleFileSystem fs;
    private final boolean absolute;
    private final String[] names;
    /**
     * For an entry listed inside a container: where it leads (so it is not resolved again) and the
     * container's own path of the entry, which finds it by its place in the listing while that container
     * stays open; null otherwise. Neither takes part in equality: they only save work.
     */
    private final EnsembleFileSystem.Location listedAt;
    private final Path listedInner;
    /** toString(), made on first use (a benign race: every thread makes the same string). */
    private String string;

    EnsemblePath(EnsembleFileSystem fs, boolean absolute, String[] names) {
        this(fs, absolute, names, null, null);
    }

    private EnsemblePath(EnsembleFileSystem fs, boolean absolute, String[] names, EnsembleFileSystem.Location listedAt,
            Path listedInner) {
        this.fs = fs;
        this.absolute = absolute;
        this.names = names;
        this.listedAt = listedAt;
        this.listedInner = listedInner;
    }

    static EnsemblePath of(EnsembleFileSystem fs, String first, String... more) {
        StringBuilder joined = new StringBuilder(first);
        for (String m : more) {
            if (!m.isEmpty()) {
                joined.append(joined.length() > 0 ? "/" : "").append(m);
            }
        }
        String s = joined.toString();
        if (s.indexOf('\0') >= 0) {
            throw new InvalidPathException(s, "NUL character not allowed");
        }
        // split by hand: the mount asks a path by its string for every request
        java.util.ArrayList<String> parts = new java.util.ArrayList<>();
        int from = 0;
        for (int i = 0; i <= s.length(); i++) {
            if (i == s.length() || s.charAt(i) == '/') {
                if (i > from) {
                    parts.add(s.substring(from, i));
                }
                from = i + 1;
            }
        }
        return new EnsemblePath(fs, s.startsWith("/"), parts.toArray(new String[0]));
    }

    /** The names, shared: never modify. */
    String[] names() {
        return names;
    }

    /** This path with one more name from a listing (no parsing). */
    EnsemblePath child(String name) {
        String[] more = Arrays.copyOf(names, names.length + 1);
        more[names.length] = name;
        return new EnsemblePath(fs, absolute, more);
    }

    /**
     * This path with one more name, listed inside the container of {@code dir} (the listed directory's
     * location) as {@code inner} (the container's path of the entry, from its listing).
     */
    EnsemblePath listedChild(String name, EnsembleFileSystem.Location dir, Path inner) {
        String[] more = Arrays.copyOf(names, names.length + 1);
        more[names.length] = name;
        String[] in = Arrays.copyOf(dir.inner(), dir.inner().length + 1);
        in[dir.inner().length] = name;
        return new EnsemblePath(fs, absolute, more, new EnsembleFileSystem.Location(dir.source(), dir.entry(), in), inner);
    }

    /** Where a path listed inside a container leads, or null (then it is resolved: {@code locate}). */
    EnsembleFileSystem.Location listedAt() {
        return listedAt;
    }

    /** The container's own path of an entry listed inside it, or null. */
    Path listedInner() {
        return listedInner;
    }

    @Override
    public EnsembleFileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return absolute;
    }

    @Override
    public EnsemblePath getRoot() {
        return absolute ? fs.root() : null;
    }

    /** The empty path "", which has one name (the empty one), as on every JDK file system. */
    private boolean isEmpty() {
        return !absolute && names.length == 0;
    }

    @Override
    public EnsemblePath getFileName() {
        if (isEmpty()) {
            return this;
        }
        return names.length == 0 ? null : new EnsemblePath(fs, false, new String[] {names[names.length - 1]});
    }

    @Override
    public EnsemblePath getParent() {
        if (names.length == 0 || (names.length == 1 && !absolute)) {
            return null;
        }
        return new EnsemblePath(fs, absolute, Arrays.copyOf(names, names.length - 1));
    }

    @Override
    public int getNameCount() {
        return isEmpty() ? 1 : names.length;
    }

    @Override
    public EnsemblePath getName(int index) {
        return subpath(index, index + 1);
    }

    @Override
    public EnsemblePath subpath(int beginIndex, int endIndex) {
        if (isEmpty() && beginIndex == 0 && endIndex == 1) {
            return this;
        }
        if (beginIndex < 0 || endIndex > names.length || beginIndex >= endIndex) {
            throw new IllegalArgumentException("names " + beginIndex + " to " + endIndex + " of " + this);
        }
        return new EnsemblePath(fs, false, Arrays.copyOfRange(names, beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        if (!(other instanceof EnsemblePath o) || o.fs != fs || o.absolute != absolute || o.names.length > names.length) {
            return false;
        }
        if (o.isEmpty()) {
            return isEmpty();
        }
        return Arrays.equals(names, 0, o.names.length, o.names, 0, o.names.length);
    }

    @Override
    public boolean startsWith(String other) {
        return startsWith(fs.getPath(other));
    }

    @Override
    public boolean endsWith(Path other) {
        if (!(other instanceof EnsemblePath o) || o.fs != fs || o.names.length > names.length) {
            return false;
        }
        if (o.absolute) {
            return absolute && Arrays.equals(names, o.names);
        }
        if (o.names.length == 0) {
            return isEmpty();
        }
        return Arrays.equals(names, names.length - o.names.length, names.length, o.names, 0, o.names.length);
    }

    @Override
    public boolean endsWith(String other) {
        return endsWith(fs.getPath(other));
    }

    @Override
    public EnsemblePath normalize() {
        boolean dots = false;
        for (String n : names) {
            dots |= n.equals(".") || n.equals("..");
        }
        if (!dots) {
            return this;
        }
        Deque<String> kept = new ArrayDeque<>();
        for (String n : names) {
            if (n.equals("..") && !kept.isEmpty() && !kept.peekLast().equals("..")) {
                kept.removeLast();
            } else if (n.equals("..") && absolute) {
                continue; // nothing is above the root
            } else if (!n.equals(".")) {
                kept.addLast(n);
            }
        }
        return new EnsemblePath(fs, absolute, kept.toArray(new String[0]));
    }

    @Override
    public EnsemblePath resolve(Path other) {
        EnsemblePath o = checked(other);
        if (o.absolute) {
            return o;
        }
        if (o.names.length == 0) {
            return this;
        }
        String[] joined = Arrays.copyOf(names, names.length + o.names.length);
        System.arraycopy(o.names, 0, joined, names.length, o.names.length);
        return new EnsemblePath(fs, absolute, joined);
    }

    @Override
    public EnsemblePath resolve(String other) {
        return resolve(fs.getPath(other));
    }

    @Override
    public EnsemblePath resolveSibling(String other) {
        return resolveSibling(fs.getPath(other));
    }

    @Override
    public EnsemblePath resolveSibling(Path other) {
        EnsemblePath o = checked(other);
        EnsemblePath parent = getParent();
        return parent == null ? o : parent.resolve(o);
    }

    @Override
    public EnsemblePath relativize(Path other) {
        EnsemblePath target = checked(other).normalize();
        EnsemblePath from = normalize();
        if (target.absolute != from.absolute) {
            throw new IllegalArgumentException(other + " and " + this + ": only two absolute or two relative paths relativize");
        }
        int same = 0;
        while (same < from.names.length && same < target.names.length && from.names[same].equals(target.names[same])) {
            same++;
        }
        String[] out = new String[from.names.length - same + target.names.length - same];
        for (int i = same; i < from.names.length; i++) {
            if (from.names[i].equals("..")) {
                throw new IllegalArgumentException("cannot relativize " + other + " against " + this
                        + ": the way back up through .. is unknown");
            }
            out[i - same] = "..";
        }
        System.arraycopy(target.names, same, out, from.names.length - same, target.names.length - same);
        return new EnsemblePath(fs, false, out);
    }

    @Override
    public URI toUri() {
        return fs.uriOf(toAbsolutePath().normalize());
    }

    @Override
    public EnsemblePath toAbsolutePath() {
        return absolute ? this : new EnsemblePath(fs, true, names);
    }

    @Override
    public EnsemblePath toRealPath(LinkOption... options) throws IOException {
        EnsemblePath real = toAbsolutePath().normalize();
        fs.provider().checkAccess(real);
        return real;
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("an ensemble tree has no WatchService: list again to see new containers");
    }

    @Override
    public int compareTo(Path other) {
        return toString().compareTo(((EnsemblePath) other).toString());
    }

    private EnsemblePath checked(Path other) {
        Objects.requireNonNull(other);
        if (!(other instanceof EnsemblePath o) || o.fs != fs) {
            throw new ProviderMismatchException("not a path of " + fs + ": " + other);
        }
        return o;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof EnsemblePath o && o.fs == fs && o.absolute == absolute && Arrays.equals(o.names, names);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(names) + (absolute ? 1 : 0);
    }

    @Override
    public String toString() {
        String s = string;
        if (s == null) { // kept: the mount and the walks ask a path's string more than once
            s = (absolute ? "/" : "") + String.join("/", names);
            string = s;
        }
        return s;
    }
}
