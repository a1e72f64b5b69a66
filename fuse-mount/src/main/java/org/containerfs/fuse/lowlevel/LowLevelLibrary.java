package org.containerfs.fuse.lowlevel;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The functions of libfuse3's low-level API ({@code fuse_lowlevel.h}) this engine calls, bound once
 * per library through the FFM API. Only the runtime library {@code libfuse3.so.3} is needed: the
 * struct layouts are those of the 3.x ABI (see {@link Abi}), which libfuse keeps stable across 3.x.
 */
public final class LowLevelLibrary {
    /** fuse_file_info.cache_readdir came with 3.5; below it the low-level engine is refused. */
    public static final int MINIMUM_VERSION = 305;

    final MethodHandle sessionNew;
    final MethodHandle sessionMount;
    final MethodHandle sessionUnmount;
    final MethodHandle sessionDestroy;
    final MethodHandle sessionExited;
    final MethodHandle receiveBuf;
    final MethodHandle processBuf;
    final MethodHandle optFreeArgs;
    final MethodHandle replyErr;
    final MethodHandle replyNone;
    final MethodHandle replyEntry;
    final MethodHandle replyAttr;
    final MethodHandle replyOpen;
    final MethodHandle replyBuf;
    final MethodHandle replyData;
    final MethodHandle free;
    // rarely or never called by a read-only mount's `ls`: bound at their first call (each call shape the
    // linker has not made yet costs the start-up classes and CPU; fuse-mount/README.md, "Start-up and footprint")
    final Function replyStatfs;
    final Function replyXattr;
    // the listing records are written in Java (Dirents); libfuse's own writers are kept to check them against
    final Function addDirentry;
    final Function addDirentryPlus;
    final Function notifyInvalInode;
    // the replies and notifications of a writable session
    final Function replyCreate;
    final Function replyWrite;
    final Function notifyInvalEntry;
    private final MemorySegment versionSymbol;
    private final int version;
    private final String packageVersion;

    private LowLevelLibrary(SymbolLookup lib) throws Throwable {
        Linker linker = Linker.nativeLinker();
        versionSymbol = find(lib, "fuse_version");
        version = (int) linker.downcallHandle(versionSymbol, FunctionDescriptor.of(JAVA_INT)).invokeExact();
        MemorySegment pkg = (MemorySegment) linker.downcallHandle(find(lib, "fuse_pkgversion"),
                FunctionDescriptor.of(ADDRESS)).invokeExact();
        packageVersion = pkg.reinterpret(64).getString(0);
        sessionNew = linker.downcallHandle(find(lib, "fuse_session_new"),
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        sessionMount = linker.downcallHandle(find(lib, "fuse_session_mount"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        sessionUnmount = linker.downcallHandle(find(lib, "fuse_session_unmount"), FunctionDescriptor.ofVoid(ADDRESS));
        sessionDestroy = linker.downcallHandle(find(lib, "fuse_session_destroy"), FunctionDescriptor.ofVoid(ADDRESS));
        sessionExited = linker.downcallHandle(find(lib, "fuse_session_exited"), FunctionDescriptor.of(JAVA_INT, ADDRESS));
        receiveBuf = linker.downcallHandle(find(lib, "fuse_session_receive_buf"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        processBuf = linker.downcallHandle(find(lib, "fuse_session_process_buf"),
                FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        optFreeArgs = linker.downcallHandle(find(lib, "fuse_opt_free_args"), FunctionDescriptor.ofVoid(ADDRESS));
        replyErr = linker.downcallHandle(find(lib, "fuse_reply_err"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        replyNone = linker.downcallHandle(find(lib, "fuse_reply_none"), FunctionDescriptor.ofVoid(ADDRESS));
        replyEntry = linker.downcallHandle(find(lib, "fuse_reply_entry"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        replyAttr = linker.downcallHandle(find(lib, "fuse_reply_attr"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_DOUBLE));
        replyOpen = linker.downcallHandle(find(lib, "fuse_reply_open"), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        replyBuf = linker.downcallHandle(find(lib, "fuse_reply_buf"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        replyData = linker.downcallHandle(find(lib, "fuse_reply_data"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        replyStatfs = new Function(find(lib, "fuse_reply_statfs"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        replyXattr = new Function(find(lib, "fuse_reply_xattr"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        addDirentry = new Function(find(lib, "fuse_add_direntry"),
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG));
        addDirentryPlus = new Function(find(lib, "fuse_add_direntry_plus"),
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG));
        notifyInvalInode = new Function(find(lib, "fuse_lowlevel_notify_inval_inode"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        replyCreate = new Function(find(lib, "fuse_reply_create"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        replyWrite = new Function(find(lib, "fuse_reply_write"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        notifyInvalEntry = new Function(find(lib, "fuse_lowlevel_notify_inval_entry"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        free = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
                FunctionDescriptor.ofVoid(ADDRESS));
    }

    /**
     * Makes the JVM generate, ahead of the session's first calls, the code of the calls a read-only mount makes
     * on its way to answering its first `ls`: each call shape (argument and result types) of those functions is
     * bound to {@code fuse_version}, which takes no argument and only returns a number, and called once, from a
     * call site of the same type as the engine's (the JVM spins the classes of a call's method-handle forms at
     * its first call, per shape, and shares them with every later call of that shape; extra arguments are
     * ignored by a C function under the C calling conventions the FFM linker supports). Nothing of libfuse's
     * state is touched.
     */
    void warmUpCalls() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MemorySegment n = MemorySegment.NULL;
        MemorySegment f = versionSymbol;
        int i = (int) linker.downcallHandle(f, FunctionDescriptor.of(JAVA_INT, ADDRESS)).invokeExact(n);
        i += (int) linker.downcallHandle(f, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)).invokeExact(n, n);
        i += (int) linker.downcallHandle(f, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)).invokeExact(n, 0);
        i += (int) linker.downcallHandle(f, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_DOUBLE))
                .invokeExact(n, n, 0.0);
        i += (int) linker.downcallHandle(f, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG))
                .invokeExact(n, n, 0L);
        i += (int) linker.downcallHandle(f, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT))
                .invokeExact(n, n, 0);
        MemorySegment a = (MemorySegment) linker.downcallHandle(f, FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS,
                JAVA_LONG, ADDRESS)).invokeExact(n, n, 0L, n);
        linker.downcallHandle(f, FunctionDescriptor.ofVoid(ADDRESS)).invokeExact(n);
        linker.downcallHandle(f, FunctionDescriptor.ofVoid(ADDRESS, ADDRESS)).invokeExact(n, n);
        if (i == 0 && a == null) {
            throw new AssertionError(); // never: keeps the results used
        }
    }

    /** A function of the library found at load and bound to a method handle when first called. */
    static final class Function {
        private final MemorySegment symbol;
        private final FunctionDescriptor descriptor;
        private volatile MethodHandle handle;

        Function(MemorySegment symbol, FunctionDescriptor descriptor) {
            this.symbol = symbol;
            this.descriptor = descriptor;
        }

        /** The downcall handle (bound by the first caller; two racing callers bind the same function twice). */
        MethodHandle handle() {
            MethodHandle h = handle;
            if (h == null) {
                h = Linker.nativeLinker().downcallHandle(symbol, descriptor);
                handle = h;
            }
            return h;
        }
    }

    /** The libraries bound (or being bound) in this process, by path: each is bound once. */
    private static final ConcurrentHashMap<Path, FutureTask<LowLevelLibrary>> LOADED = new ConcurrentHashMap<>();

    /**
     * Binds the library at {@code path}; refuses (with the version found) a libfuse older than 3.5 or
     * one that lacks a function of the low-level API. Bound once per process: a later call (or one while
     * another thread binds it) gets the same library; a refusal is not kept.
     */
    public static LowLevelLibrary load(Path path) throws LowLevelUnavailableException {
        FutureTask<LowLevelLibrary> task = new FutureTask<>(() -> bind(path));
        FutureTask<LowLevelLibrary> first = LOADED.putIfAbsent(path, task);
        if (first == null) {
            first = task;
            task.run();
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return first.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the binding finishes on its thread; wait for it
                } catch (ExecutionException e) {
                    LOADED.remove(path, first);
                    if (e.getCause() instanceof LowLevelUnavailableException refused) {
                        throw refused;
                    }
                    throw new LowLevelUnavailableException("loading " + path + " failed: " + e.getCause(), e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @SuppressWarnings("restricted")
    private static LowLevelLibrary bind(Path path) throws LowLevelUnavailableException {
        LowLevelLibrary lib;
        try {
            lib = new LowLevelLibrary(SymbolLookup.libraryLookup(path, Arena.global()));
        } catch (LowLevelUnavailableException e) {
            throw e;
        } catch (IllegalCallerException e) {
            throw new LowLevelUnavailableException("native access is disabled: run java with "
                    + "--enable-native-access=ALL-UNNAMED", e);
        } catch (Throwable t) {
            throw new LowLevelUnavailableException("loading " + path + " failed: " + t.getMessage(), t);
        }
        if (lib.version < MINIMUM_VERSION) {
            throw new LowLevelUnavailableException(path + " is libfuse " + lib.packageVersion + " (API "
                    + lib.version + "): the low-level engine needs libfuse 3.5 or newer (fuse_file_info.cache_readdir); "
                    + "use --engine=highlevel or upgrade fuse3");
        }
        return lib;
    }

    private static MemorySegment find(SymbolLookup lib, String name) throws LowLevelUnavailableException {
        return lib.find(name).orElseThrow(() -> new LowLevelUnavailableException(
                "the loaded libfuse has no " + name + " (not a libfuse 3 library?)"));
    }

    /** {@code fuse_version()}: 3.14 is 314. */
    public int version() {
        return version;
    }

    /** {@code fuse_pkgversion()}, e.g. "3.14.0". */
    public String packageVersion() {
        return packageVersion;
    }
}
