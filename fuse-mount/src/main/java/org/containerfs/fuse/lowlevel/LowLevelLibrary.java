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
    final MethodHandle replyStatfs;
    final MethodHandle replyXattr;
    final MethodHandle addDirentry;
    final MethodHandle addDirentryPlus;
    final MethodHandle free;
    final MethodHandle notifyInvalInode;
    final MethodHandle notifyInvalEntry;
    private final int version;
    private final String packageVersion;

    private LowLevelLibrary(SymbolLookup lib) throws Throwable {
        Linker linker = Linker.nativeLinker();
        version = (int) linker.downcallHandle(find(lib, "fuse_version"), FunctionDescriptor.of(JAVA_INT)).invokeExact();
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
        replyStatfs = linker.downcallHandle(find(lib, "fuse_reply_statfs"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        replyXattr = linker.downcallHandle(find(lib, "fuse_reply_xattr"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        addDirentry = linker.downcallHandle(find(lib, "fuse_add_direntry"),
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG));
        addDirentryPlus = linker.downcallHandle(find(lib, "fuse_add_direntry_plus"),
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG));
        notifyInvalInode = linker.downcallHandle(find(lib, "fuse_lowlevel_notify_inval_inode"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        notifyInvalEntry = linker.downcallHandle(find(lib, "fuse_lowlevel_notify_inval_entry"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        free = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
                FunctionDescriptor.ofVoid(ADDRESS));
    }

    /**
     * Binds the library at {@code path}; refuses (with the version found) a libfuse older than 3.5 or
     * one that lacks a function of the low-level API.
     */
    @SuppressWarnings("restricted")
    public static LowLevelLibrary load(Path path) throws LowLevelUnavailableException {
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
