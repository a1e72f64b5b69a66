package org.containerfs.core;

import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.containerfs.storage.BasicAttributes;

/**
 * A path inside a container file system: '/'-separated, absolute or relative, with zipfs/jimfs
 * semantics (no symlinks, so {@code ..} is resolved lexically).
 */
public final class ContainerPath implements Path {
    private static final String[] NO_NAMES = new String[0];

    private final ContainerFileSystem fs;
    private final boolean absolute;
    /**
     * A path a listing makes is its directory's path and one more name: one object per entry, with no
     * array of names copied for each (a listing of a million entries made a million arrays). The names are
     * joined only when something asks for them. A file name ({@link #getFileName()} of such a path) is
     * {@code last} alone, with no prefix. Both null for a path made from its names.
     */
    private final ContainerPath prefix;
    private final String last;
    /** Every name; for a path of prefix and last name, joined on first use (racing threads join equal arrays). */
    private volatile String[] names;
    private volatile String string;
    /**
     * For a path a directory stream made: that listing and this entry's place in it, so attributes of
     * a just-listed entry (a walk asks them of every file) need no lookup by name. Null otherwise.
     */
    private final DirectoryListing listing;
    private final int listingIndex;

    ContainerPath(ContainerFileSystem fs, boolean absolute, String[] names) {
        this.fs = fs;
        this.absolute = absolute;
        this.names = names;
        this.prefix = null;
        this.last = null;
        this.listing = null;
        this.listingIndex = 0;
    }

    private ContainerPath(ContainerFileSystem fs, boolean absolute, ContainerPath prefix, String last,
            DirectoryListing listing, int listingIndex) {
        this.fs = fs;
        this.absolute = absolute;
        this.prefix = prefix;
        this.last = last;
        this.listing = listing;
        this.listingIndex = listingIndex;
    }

    static ContainerPath parse(ContainerFileSystem fs, String first, String... more) {
        if (more.length == 0) {
            return split(fs, first);
        }
        StringBuilder sb = new StringBuilder(first);
        for (String m : more) {
            if (!m.isEmpty()) {
                if (sb.length() > 0) {
                    sb.append('/');
                }
                sb.append(m);
            }
        }
        return split(fs, sb.toString());
    }

    private static ContainerPath split(ContainerFileSystem fs, String s) {
        if (s.indexOf('\0') >= 0) {
            throw new InvalidPathException(s, "NUL character not allowed");
        }
        boolean abs = s.startsWith("/");
        // The non-empty segments between slashes, counted first so the array is made once.
        int count = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            if (s.charAt(i) != '/' && (i == 0 || s.charAt(i - 1) == '/')) {
                count++;
            }
        }
        String[] parts = new String[count];
        int k = 0;
        int begin = -1;
        for (int i = 0, n = s.length(); i <= n; i++) {
            boolean slash = i == n || s.charAt(i) == '/';
            if (slash && begin >= 0) {
                parts[k++] = s.substring(begin, i);
                begin = -1;
            } else if (!slash && begin < 0) {
                begin = i;
            }
        }
        return new ContainerPath(fs, abs, parts);
    }

    String[] names() {
        String[] n = names;
        if (n == null) {
            String[] before = prefix == null ? NO_NAMES : prefix.names();
            n = Arrays.copyOf(before, before.length + 1);
            n[before.length] = last;
            names = n;
        }
        return n;
    }

    /** The number of names, without joining them. */
    private int count() {
        String[] n = names;
        return n != null ? n.length : (prefix == null ? 0 : prefix.count()) + 1;
    }

    @Override
    public ContainerFileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return absolute;
    }

    @Override
    public ContainerPath getRoot() {
        return absolute ? new ContainerPath(fs, true, new String[0]) : null;
    }

    /** The empty path "": as for every JDK file system it has one name element, the empty one. */
    private boolean isEmpty() {
        return !absolute && count() == 0;
    }

    @Override
    public ContainerPath getFileName() {
        if (isEmpty()) {
            return this;
        }
        if (last != null) {
            return absolute || prefix != null ? new ContainerPath(fs, false, null, last, null, 0) : this;
        }
        String[] n = names();
        if (n.length == 0) {
            return null;
        }
        return new ContainerPath(fs, false, null, n[n.length - 1], null, 0);
    }

    @Override
    public ContainerPath getParent() {
        if (prefix != null && (absolute || prefix.count() > 0)) {
            return prefix; // a listed entry's parent is the listed directory's path
        }
        if (names().length == 0 || (names().length == 1 && !absolute)) {
            return null;
        }
        return new ContainerPath(fs, absolute, Arrays.copyOf(names(), names().length - 1));
    }

    @Override
    public int getNameCount() {
        return isEmpty() ? 1 : count();
    }

    @Override
    public ContainerPath getName(int index) {
        if (isEmpty() && index == 0) {
            return this;
        }
        if (index < 0 || index >= names().length) {
            throw new IllegalArgumentException("index " + index + " out of range for " + this);
        }
        return new ContainerPath(fs, false, new String[] {names()[index]});
    }

    @Override
    public ContainerPath subpath(int beginIndex, int endIndex) {
        if (isEmpty() && beginIndex == 0 && endIndex == 1) {
            return this;
        }
        if (beginIndex < 0 || endIndex > names().length || beginIndex >= endIndex) {
            throw new IllegalArgumentException("subpath(" + beginIndex + ", " + endIndex + ") of " + this);
        }
        return new ContainerPath(fs, false, Arrays.copyOfRange(names(), beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        if (!(other instanceof ContainerPath o) || o.fs != fs || o.absolute != absolute
                || o.names().length > names().length) {
            return false;
        }
        if (o.isEmpty()) {
            return isEmpty(); // "a" does not start with the empty name
        }
        for (int i = 0; i < o.names().length; i++) {
            if (!o.names()[i].equals(names()[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean startsWith(String other) {
        return startsWith(fs.getPath(other));
    }

    @Override
    public boolean endsWith(Path other) {
        if (!(other instanceof ContainerPath o) || o.fs != fs || o.names().length > names().length) {
            return false;
        }
        if (o.absolute) {
            return absolute && Arrays.equals(o.names(), names());
        }
        int off = names().length - o.names().length;
        for (int i = 0; i < o.names().length; i++) {
            if (!o.names()[i].equals(names()[off + i])) {
                return false;
            }
        }
        return o.names().length > 0 || isEmpty(); // only "" ends with the empty name
    }

    @Override
    public boolean endsWith(String other) {
        return endsWith(fs.getPath(other));
    }

    @Override
    public ContainerPath normalize() {
        if (isNormal()) {
            return this; // the common case (every path a directory listing makes): no copy
        }
        List<String> out = new ArrayList<>(names().length);
        for (String n : names()) {
            if (n.equals(".")) {
                continue;
            }
            if (n.equals("..")) {
                if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
                    out.remove(out.size() - 1);
                    continue;
                }
                if (absolute) {
                    continue; // "/.." is "/": nothing escapes the root
                }
            }
            out.add(n);
        }
        return new ContainerPath(fs, absolute, out.toArray(new String[0]));
    }

    private boolean isNormal() {
        for (String n : names()) {
            if (n.equals(".") || n.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** This path with one more name, a component from the tree (no '/'): no parsing, for listings. */
    ContainerPath child(String name) {
        return child(name, null, 0);
    }

    /** {@link #child(String)} for entry {@code index} of {@code listing}, which it remembers. */
    ContainerPath child(String name, DirectoryListing listing, int index) {
        return new ContainerPath(fs, absolute, this, name, listing, index);
    }

    /** The node of this entry from the listing that made the path, or null if there is none or the tree changed since. Call under the tree's read lock. */
    /** Basic attributes of this entry from the listing that made the path, or null (see {@link DirectoryListing#attributes}). */
    BasicAttributes listedAttributes() throws IOException {
        return listing == null ? null : listing.attributes(listingIndex);
    }

    org.containerfs.spi.Node listedNodeUnderLock() throws IOException {
        return listing == null ? null : listing.nodeUnderLock(listingIndex);
    }

    @Override
    public ContainerPath resolve(Path other) {
        ContainerPath o = check(other);
        if (o.absolute) {
            return o;
        }
        if (o.names().length == 0) {
            return this;
        }
        String[] joined = Arrays.copyOf(names(), names().length + o.names().length);
        System.arraycopy(o.names(), 0, joined, names().length, o.names().length);
        return new ContainerPath(fs, absolute, joined);
    }

    @Override
    public ContainerPath resolve(String other) {
        return resolve(fs.getPath(other));
    }

    @Override
    public ContainerPath resolveSibling(Path other) {
        ContainerPath o = check(other);
        ContainerPath parent = getParent();
        return parent == null ? o : parent.resolve(o);
    }

    @Override
    public ContainerPath resolveSibling(String other) {
        return resolveSibling(fs.getPath(other));
    }

    @Override
    public ContainerPath relativize(Path other) {
        ContainerPath o = check(other);
        if (o.absolute != absolute) {
            throw new IllegalArgumentException("cannot relativize " + other + " against " + this
                    + ": one is absolute, the other relative");
        }
        ContainerPath a = normalize();
        ContainerPath b = o.normalize();
        int common = 0;
        while (common < a.names().length && common < b.names().length && a.names()[common].equals(b.names()[common])) {
            common++;
        }
        List<String> out = new ArrayList<>();
        for (int i = common; i < a.names().length; i++) {
            if (a.names()[i].equals("..")) {
                // Going back up through ".." needs the name of the directory it left: unknowable.
                throw new IllegalArgumentException("cannot relativize " + other + " against " + this
                        + ": " + this + " leaves its start directory through ..");
            }
            out.add("..");
        }
        out.addAll(Arrays.asList(b.names()).subList(common, b.names().length));
        return new ContainerPath(fs, false, out.toArray(new String[0]));
    }

    @Override
    public URI toUri() {
        return fs.uriOf(toAbsolutePath().normalize());
    }

    @Override
    public ContainerPath toAbsolutePath() {
        return absolute ? this : new ContainerPath(fs, true, names());
    }

    @Override
    public ContainerPath toRealPath(LinkOption... options) throws IOException {
        ContainerPath real = toAbsolutePath().normalize();
        fs.provider().checkAccess(real);
        return real;
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("containerfs paths do not support WatchService yet; "
                + "call Files.list again: the file system refreshes when the container grows");
    }

    @Override
    public int compareTo(Path other) {
        ContainerPath o = (ContainerPath) other;
        return toString().compareTo(o.toString());
    }

    private ContainerPath check(Path other) {
        Objects.requireNonNull(other);
        if (!(other instanceof ContainerPath o) || o.fs != fs) {
            throw new ProviderMismatchException("not a path of " + fs + ": " + other);
        }
        return o;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ContainerPath o && o.fs == fs && o.absolute == absolute && Arrays.equals(o.names(), names());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(names()) * 31 + (absolute ? 1 : 0);
    }

    @Override
    public String toString() {
        String s = string;
        if (s == null) {
            // a file name (getFileName().toString() of every listed entry) is its one name as it is
            if (last != null) {
                String before = prefix == null ? "" : prefix.toString();
                s = before.isEmpty() ? last : before.endsWith("/") ? before + last : before + "/" + last;
            } else {
                s = !absolute && names().length == 1 ? names()[0] : (absolute ? "/" : "") + String.join("/", names());
            }
            string = s;
        }
        return s;
    }
}
