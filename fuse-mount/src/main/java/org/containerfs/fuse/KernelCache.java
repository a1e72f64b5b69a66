package org.containerfs.fuse;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Tells the kernel to forget a name it caches (entries live for the mount's long entry timeout):
 * libfuse's {@code fuse_invalidate_path}, which jfuse does not expose. Used when a file created
 * through the mount disappears without an unlink (its write failed, its commit was refused).
 * Notifications go out on a thread of their own: sent from inside a request, the kernel could wait
 * for a lock that request holds.
 */
final class KernelCache {
    private final MethodHandle invalidatePath;
    private final MemorySegment fuse;
    private volatile boolean closed;
    private final ExecutorService notifier = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "containerfs-invalidate");
        t.setDaemon(true);
        return t;
    });

    private KernelCache(MethodHandle invalidatePath, MemorySegment fuse) {
        this.invalidatePath = invalidatePath;
        this.fuse = fuse;
    }

    /**
     * From inside a FUSE callback (init): the session's {@code struct fuse *} from
     * {@code fuse_get_context()}; null if libfuse lacks the functions.
     */
    static KernelCache capture(Path libfuse) {
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup lib = SymbolLookup.libraryLookup(libfuse, Arena.global());
            MethodHandle context = linker.downcallHandle(lib.find("fuse_get_context").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS));
            MethodHandle invalidate = linker.downcallHandle(lib.find("fuse_invalidate_path").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            MemorySegment ctx = ((MemorySegment) context.invokeExact()).reinterpret(ValueLayout.ADDRESS.byteSize());
            MemorySegment fuse = ctx.get(ValueLayout.ADDRESS, 0); // struct fuse_context's first field
            return fuse.address() == 0 ? null : new KernelCache(invalidate, fuse);
        } catch (Throwable t) {
            return null;
        }
    }

    /**
     * Asks the kernel, soon and from another thread, to drop its cached entry and attributes of {@code fusePath}.
     * Done when the returned future is.
     */
    java.util.concurrent.Future<?> forgetLater(String fusePath) {
        return notifier.submit(() -> {
            if (closed) {
                return; // the session is going away: its struct fuse must not be touched
            }
            try (Arena arena = Arena.ofConfined()) {
                int ignored = (int) invalidatePath.invokeExact(fuse, arena.allocateFrom(fusePath));
            } catch (Throwable t) {
                // best effort: the name then stays cached until the entry timeout
            }
        });
    }

    /** At destroy, before libfuse frees the session: pending notifications finish or are skipped. */
    void close() {
        closed = true;
        notifier.shutdown();
        try {
            notifier.awaitTermination(1, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
