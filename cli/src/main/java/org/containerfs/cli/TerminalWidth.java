package org.containerfs.cli;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.OptionalInt;

/**
 * The width of the terminal behind a file descriptor, asked of the terminal itself (ioctl TIOCGWINSZ through the
 * FFM API), as coreutils does: {@code $COLUMNS} is a shell variable that shells do not export, so a program that
 * reads only it sees 80 columns in every terminal. Empty where the descriptor is not a terminal, on systems other
 * than Linux, or when native access is denied.
 */
final class TerminalWidth {
    /** The request number of TIOCGWINSZ in Linux's generic ioctl numbering (x86_64, aarch64, riscv64). */
    private static final long TIOCGWINSZ = 0x5413L;

    private TerminalWidth() {}

    private static final class Ioctl {
        static final MethodHandle HANDLE = lookup();

        private static MethodHandle lookup() {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("ioctl").map(address -> linker.downcallHandle(address,
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.firstVariadicArg(2)))
                    .orElse(null);
        }
    }

    /** The columns of the terminal that {@code fd} is, if it is one. */
    static OptionalInt of(int fd) {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return OptionalInt.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MethodHandle ioctl = Ioctl.HANDLE;
            if (ioctl == null) {
                return OptionalInt.empty();
            }
            // struct winsize { unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel; }
            MemorySegment size = arena.allocate(8, 2);
            int status = (int) ioctl.invokeExact(fd, TIOCGWINSZ, size);
            int columns = Short.toUnsignedInt(size.get(JAVA_SHORT, 2));
            return status == 0 && columns > 0 ? OptionalInt.of(columns) : OptionalInt.empty();
        } catch (Throwable e) { // IllegalCallerException without native access, a linkage error on an odd platform
            return OptionalInt.empty();
        }
    }
}
