package org.containerfs.fuse.lowlevel;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Read-only file descriptors of the files that hold what a mount shows (container files), opened with
 * {@code open(2)} ({@code O_RDONLY | O_CLOEXEC}) through the FFM API so that libfuse can splice their bytes
 * to the kernel ({@link Request#data(int, long, long)}). One descriptor per file, shared by every open of
 * a file stored in it and counted: {@link #acquire} opens it or counts one more user, {@link #release}
 * counts one less and closes it with its last user; {@link #closeAll} closes what is left at unmount.
 */
public final class StorageFiles {
    private static final int O_RDONLY = 0;
    /** 02000000 on x86_64 and aarch64 Linux alike. */
    private static final int O_CLOEXEC = 0x80000;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(
            java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
    /** {@code int open(const char *path, int flags, ...)}: variadic after the flags, errno captured. */
    private static final MethodHandle OPEN = libc("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT),
            Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = libc("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    @SuppressWarnings("restricted")
    private static MethodHandle libc(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().find(name).orElseThrow(), descriptor, options);
    }

    /** An open descriptor of one file and how many opens use it. */
    public static final class Descriptor {
        private final Path file;
        private final int fd;
        private int users;

        private Descriptor(Path file, int fd) {
            this.file = file;
            this.fd = fd;
        }

        public int fd() {
            return fd;
        }

        public Path file() {
            return file;
        }
    }

    private final Map<Path, Descriptor> open = new HashMap<>();
    private boolean closed;

    /**
     * The descriptor of {@code file} (an absolute path of the default file system), opened now if no open
     * file uses it yet; each call is balanced by one {@link #release}.
     */
    public synchronized Descriptor acquire(Path file) throws IOException {
        if (closed) {
            throw new IOException("the mount is ending: " + file + " is not opened again");
        }
        Descriptor d = open.get(file);
        if (d == null) {
            d = new Descriptor(file, openReadOnly(file));
            open.put(file, d);
        }
        d.users++;
        return d;
    }

    /** One user less; the last closes the descriptor. */
    public synchronized void release(Descriptor d) {
        if (--d.users == 0 && open.get(d.file) == d) {
            open.remove(d.file);
            closeQuietly(d.fd);
        }
    }

    /** Descriptors open now. */
    public synchronized int openCount() {
        return open.size();
    }

    /** Closes every descriptor (the session ends: no request can use one any more). */
    public synchronized void closeAll() {
        closed = true;
        for (Descriptor d : open.values()) {
            closeQuietly(d.fd);
        }
        open.clear();
    }

    private static int openReadOnly(Path file) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            MemorySegment name = arena.allocateFrom(file.toString(), StandardCharsets.UTF_8);
            int fd;
            try {
                fd = (int) OPEN.invokeExact(state, name, O_RDONLY | O_CLOEXEC);
            } catch (Throwable t) {
                throw new IOException("open(2) of " + file + " failed", t);
            }
            if (fd < 0) {
                int errno = (int) ERRNO.get(state, 0L);
                String why = "open(2) for reading failed with errno " + errno;
                throw switch (errno) {
                    case Errno.ENOENT -> new NoSuchFileException(file.toString(), null, why);
                    case 13 -> new AccessDeniedException(file.toString(), null, why);
                    default -> new FileSystemException(file.toString(), null, why);
                };
            }
            return fd;
        }
    }

    private static void closeQuietly(int fd) {
        try {
            int rc = (int) CLOSE.invokeExact(fd); // read-only: nothing to lose if it fails
        } catch (Throwable ignored) {
            // a descriptor that cannot be closed is closed at the process exit
        }
    }
}
