package org.containerfs.fuse;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds libfuse3 and /dev/fuse. Debian and Ubuntu ship only {@code libfuse3.so.3} (the unversioned
 * {@code libfuse3.so} comes with {@code libfuse3-dev}), so the library is probed by that name with the
 * dynamic loader's own search, then located as a file for jfuse.
 */
public final class LibFuse {
    public static final String SONAME = "libfuse3.so.3";
    /** Overrides the search: the absolute path of libfuse3.so.3 (or a compatible build). */
    public static final String ENV_OVERRIDE = "CONTAINERFS_LIBFUSE";
    private static final String INSTALL_HINT = "install the package fuse3 (Debian/Ubuntu: sudo apt-get install fuse3; "
            + "Fedora: sudo dnf install fuse3; Arch: pacman -S fuse3)";
    private static final List<String> DIRECTORIES = List.of(
            "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
            "/lib/aarch64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib", "/lib", "/usr/local/lib",
            "/usr/local/lib64");

    private LibFuse() {}

    /** Where libfuse was found, once found (a mount looks it up up to three times: checks, warm-up, mount). */
    private static volatile Path located;

    /** The absolute path of libfuse3.so.3, or an exception naming what to install (searched until found once). */
    public static Path locate() throws FuseUnavailableException {
        Path found = located;
        if (found == null) {
            found = locate(SONAME, DIRECTORIES, System.getenv(ENV_OVERRIDE));
            located = found;
        }
        return found;
    }

    /** The search with its inputs explicit (tests probe a library name that does not exist). */
    static Path locate(String soname, List<String> directories, String override) throws FuseUnavailableException {
        if (override != null && !override.isBlank()) {
            Path p = Path.of(override);
            if (!Files.isRegularFile(p)) {
                throw new FuseUnavailableException(ENV_OVERRIDE + "=" + override + " is not a file");
            }
            return p.toAbsolutePath();
        }
        Path viaLoader = probeWithLoader(soname);
        if (viaLoader != null) {
            return viaLoader;
        }
        List<String> searched = new ArrayList<>(directories);
        String javaPath = System.getProperty("java.library.path", "");
        for (String dir : javaPath.split(":")) {
            if (!dir.isBlank()) {
                searched.add(dir);
            }
        }
        for (String dir : searched) {
            Path candidate = Path.of(dir, soname);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new FuseUnavailableException(soname + " (libfuse 3) was not found by the dynamic loader nor in "
                + searched + ": " + INSTALL_HINT + ", or set " + ENV_OVERRIDE + " to the library's path");
    }

    /** dlopen by soname (ld.so.cache, LD_LIBRARY_PATH), then read where it was mapped from. */
    @SuppressWarnings("restricted")
    private static Path probeWithLoader(String soname) {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(soname, arena);
            if (lookup.find("fuse_version").isEmpty()) {
                return null;
            }
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                int slash = line.indexOf('/');
                if (slash >= 0 && line.contains(soname)) {
                    Path mapped = Path.of(line.substring(slash).trim());
                    if (Files.isRegularFile(mapped)) {
                        return mapped;
                    }
                }
            }
            return null;
        } catch (IllegalArgumentException | IOException | UnsatisfiedLinkError e) {
            return null;
        }
    }

    /**
     * Whether the libfuse at {@code library} takes {@code -o max_threads} (3.12 and later, which added
     * fuse_loop_cfg_set_max_threads alongside it); older ones reject the option.
     */
    @SuppressWarnings("restricted")
    static boolean takesMaxThreads(Path library) {
        try (Arena arena = Arena.ofConfined()) {
            return SymbolLookup.libraryLookup(library, arena).find("fuse_loop_cfg_set_max_threads").isPresent();
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            return false;
        }
    }

    /** /dev/fuse must exist and be usable by this process. */
    public static void checkDevice() throws FuseUnavailableException {
        Path dev = Path.of("/dev/fuse");
        if (!Files.exists(dev)) {
            throw new FuseUnavailableException("/dev/fuse does not exist: load the kernel module (sudo modprobe fuse); "
                    + "in a container, start it with --device /dev/fuse --cap-add SYS_ADMIN");
        }
        if (!Files.isReadable(dev) || !Files.isWritable(dev)) {
            throw new FuseUnavailableException("/dev/fuse is not readable and writable by this user: "
                    + INSTALL_HINT + " (it sets the device's permissions), or ask an administrator");
        }
    }

    /** fusermount3, which mounts for non-root users and performs auto_unmount. */
    public static Path fusermount() throws FuseUnavailableException {
        for (String dir : List.of("/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin")) {
            Path p = Path.of(dir, "fusermount3");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.isBlank()) {
                    Path p = Path.of(dir, "fusermount3");
                    if (Files.isExecutable(p)) {
                        return p;
                    }
                }
            }
        }
        throw new FuseUnavailableException("fusermount3 was not found: " + INSTALL_HINT);
    }

    /** Whether FUSE can be used here: libfuse3, /dev/fuse and fusermount3 (for tests and diagnostics). */
    public static String unavailableReason() {
        try {
            locate();
            checkDevice();
            fusermount();
            return null;
        } catch (FuseUnavailableException e) {
            return e.getMessage();
        }
    }
}
