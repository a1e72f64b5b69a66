package org.containerfs.core;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A file system over jimfs that records every call that reaches it (stats, opens with their options,
 * reads, and every mutating call), as an object store would see them as requests; it can also lack
 * {@link FileChannel}s or refuse locks, as object-store NIO providers do. What no test needs (watch
 * services, memory mapping, URI look-ups, principals) throws {@link UnsupportedOperationException}, the
 * refusal the java.nio javadoc names for an optional operation.
 */
final class RecordingFileSystem extends FileSystem {
    /** What the store offers. */
    enum Kind { LOCAL_LIKE, NO_FILE_CHANNEL, NO_LOCKS }

    final Queue calls = new Queue();
    private final FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix());
    private final Provider provider = new Provider();
    private final Kind kind;

    /** The calls, in order, as "stat /a", "open /a [READ]", "read /a", "createDirectory /b"... */
    static final class Queue extends ConcurrentLinkedQueue<String> {
        List<String> mutating() {
            List<String> out = new ArrayList<>();
            for (String c : this) {
                if (!c.startsWith("stat ") && !c.startsWith("read ") && !c.startsWith("open-read ")
                        && !c.startsWith("list ") && !c.startsWith("access ") && !c.startsWith("lock ")) {
                    out.add(c);
                }
            }
            return out;
        }

        long count(String prefix) {
            return stream().filter(c -> c.startsWith(prefix)).count();
        }
    }

    RecordingFileSystem(Kind kind) {
        this.kind = kind;
    }

    /** A path here holding {@code bytes} (written to jimfs directly, not recorded). */
    Path file(String name, byte[] bytes) throws IOException {
        java.nio.file.Files.write(jimfs.getPath(name), bytes);
        return getPath(name);
    }

    RPath wrap(Path p) {
        return new RPath(this, p);
    }

    static Path unwrap(Path p) {
        return ((RPath) p).delegate;
    }

    @Override
    public FileSystemProvider provider() {
        return provider;
    }

    @Override
    public void close() throws IOException {
        jimfs.close();
    }

    @Override
    public boolean isOpen() {
        return jimfs.isOpen();
    }

    @Override
    public boolean isReadOnly() {
        return false;
    }

    @Override
    public String getSeparator() {
        return "/";
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        return List.of(getPath("/"));
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return jimfs.getFileStores();
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return Set.of("basic");
    }

    @Override
    public Path getPath(String first, String... more) {
        return wrap(jimfs.getPath(first, more));
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher m = jimfs.getPathMatcher(syntaxAndPattern);
        return p -> m.matches(unwrap(p));
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        throw new UnsupportedOperationException();
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException();
    }

    private static boolean mutating(Set<? extends OpenOption> options) {
        for (OpenOption o : options) {
            if (o != StandardOpenOption.READ) {
                return true;
            }
        }
        return false;
    }

    final class Provider extends FileSystemProvider {
        @Override
        public String getScheme() {
            return "recording";
        }

        @Override
        public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileSystem getFileSystem(URI uri) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Path getPath(URI uri) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                FileAttribute<?>... attrs) throws IOException {
            calls.add((mutating(options) ? "open " : "open-read ") + path + " " + options);
            // a FileChannel under the SeekableByteChannel type: callers that only get this see no FileChannel
            return new RecordingChannel(path, FileChannel.open(unwrap(path), options, attrs));
        }

        @Override
        public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
                throws IOException {
            if (kind == Kind.NO_FILE_CHANNEL) {
                throw new UnsupportedOperationException("no FileChannel here");
            }
            calls.add((mutating(options) ? "open " : "open-read ") + path + " " + options);
            return new RecordingChannel(path, FileChannel.open(unwrap(path), options, attrs));
        }

        @Override
        public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
                throws IOException {
            calls.add("list " + dir);
            DirectoryStream<Path> ds = java.nio.file.Files.newDirectoryStream(unwrap(dir), p -> filter.accept(wrap(p)));
            return new DirectoryStream<>() {
                @Override
                public Iterator<Path> iterator() {
                    Iterator<Path> it = ds.iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        @Override
                        public Path next() {
                            return wrap(it.next());
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    ds.close();
                }
            };
        }

        @Override
        public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
            calls.add("createDirectory " + dir);
            java.nio.file.Files.createDirectory(unwrap(dir), attrs);
        }

        @Override
        public void delete(Path path) throws IOException {
            calls.add("delete " + path);
            java.nio.file.Files.delete(unwrap(path));
        }

        @Override
        public void copy(Path source, Path target, CopyOption... options) throws IOException {
            calls.add("copy " + source + " " + target);
            java.nio.file.Files.copy(unwrap(source), unwrap(target), options);
        }

        @Override
        public void move(Path source, Path target, CopyOption... options) throws IOException {
            calls.add("move " + source + " " + target);
            java.nio.file.Files.move(unwrap(source), unwrap(target), options);
        }

        @Override
        public boolean isSameFile(Path path, Path path2) throws IOException {
            return java.nio.file.Files.isSameFile(unwrap(path), unwrap(path2));
        }

        @Override
        public boolean isHidden(Path path) {
            return false;
        }

        @Override
        public FileStore getFileStore(Path path) throws IOException {
            return java.nio.file.Files.getFileStore(unwrap(path));
        }

        @Override
        public void checkAccess(Path path, AccessMode... modes) throws IOException {
            calls.add("access " + path);
            unwrap(path).getFileSystem().provider().checkAccess(unwrap(path), modes);
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
            return java.nio.file.Files.getFileAttributeView(unwrap(path), type, options);
        }

        @Override
        public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
                throws IOException {
            calls.add("stat " + path);
            return java.nio.file.Files.readAttributes(unwrap(path), type, options);
        }

        @Override
        public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
                throws IOException {
            calls.add("stat " + path);
            return java.nio.file.Files.readAttributes(unwrap(path), attributes, options);
        }

        @Override
        public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
            calls.add("setAttribute " + path + " " + attribute);
            java.nio.file.Files.setAttribute(unwrap(path), attribute, value, options);
        }
    }

    /** A FileChannel that records reads and writes, and refuses locks for {@link Kind#NO_LOCKS}. */
    private final class RecordingChannel extends FileChannel {
        private final Path path;
        private final FileChannel ch;

        RecordingChannel(Path path, FileChannel ch) {
            this.path = path;
            this.ch = ch;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            calls.add("read " + path);
            return ch.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            calls.add("read " + path);
            return ch.read(dsts, offset, length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            calls.add("write " + path);
            return ch.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            calls.add("write " + path);
            return ch.write(srcs, offset, length);
        }

        @Override
        public long position() throws IOException {
            return ch.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            ch.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return ch.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            calls.add("truncate " + path);
            ch.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            ch.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            calls.add("read " + path);
            return ch.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            calls.add("write " + path);
            return ch.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            calls.add("read " + path);
            return ch.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            calls.add("write " + path);
            return ch.write(src, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return tryLock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            calls.add("lock " + path);
            if (kind == Kind.NO_LOCKS) {
                throw new IOException("this store does not support file locks");
            }
            return ch.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            ch.close();
        }
    }

    /** A path of this file system wrapping a jimfs path. */
    static final class RPath implements Path {
        private final RecordingFileSystem fs;
        final Path delegate;

        RPath(RecordingFileSystem fs, Path delegate) {
            this.fs = fs;
            this.delegate = delegate;
        }

        private Path wrapOrNull(Path p) {
            return p == null ? null : fs.wrap(p);
        }

        @Override
        public FileSystem getFileSystem() {
            return fs;
        }

        @Override
        public boolean isAbsolute() {
            return delegate.isAbsolute();
        }

        @Override
        public Path getRoot() {
            return wrapOrNull(delegate.getRoot());
        }

        @Override
        public Path getFileName() {
            return wrapOrNull(delegate.getFileName());
        }

        @Override
        public Path getParent() {
            return wrapOrNull(delegate.getParent());
        }

        @Override
        public int getNameCount() {
            return delegate.getNameCount();
        }

        @Override
        public Path getName(int index) {
            return fs.wrap(delegate.getName(index));
        }

        @Override
        public Path subpath(int beginIndex, int endIndex) {
            return fs.wrap(delegate.subpath(beginIndex, endIndex));
        }

        @Override
        public boolean startsWith(Path other) {
            return other instanceof RPath r && delegate.startsWith(r.delegate);
        }

        @Override
        public boolean endsWith(Path other) {
            return other instanceof RPath r && delegate.endsWith(r.delegate);
        }

        @Override
        public Path normalize() {
            return fs.wrap(delegate.normalize());
        }

        @Override
        public Path resolve(Path other) {
            return fs.wrap(delegate.resolve(unwrap(other)));
        }

        @Override
        public Path resolve(String other) {
            return fs.wrap(delegate.resolve(other));
        }

        @Override
        public Path resolveSibling(String other) {
            return fs.wrap(delegate.resolveSibling(other));
        }

        @Override
        public Path relativize(Path other) {
            return fs.wrap(delegate.relativize(unwrap(other)));
        }

        @Override
        public URI toUri() {
            return URI.create("recording://" + delegate.toAbsolutePath());
        }

        @Override
        public Path toAbsolutePath() {
            return fs.wrap(delegate.toAbsolutePath());
        }

        @Override
        public Path toRealPath(LinkOption... options) throws IOException {
            return fs.wrap(delegate.toRealPath(options));
        }

        @Override
        public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int compareTo(Path other) {
            return delegate.compareTo(unwrap(other));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof RPath r && r.delegate.equals(delegate);
        }

        @Override
        public int hashCode() {
            return delegate.hashCode();
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
