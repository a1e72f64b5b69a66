package org.containerfs.fuse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a file system is mounted. Defaults: read-only, {@code auto_unmount} (the mount disappears if
 * the mounting process dies, even by SIGKILL), {@code default_permissions} with the caller's uid/gid,
 * long entry/attribute timeouts (committed records never change; new names are seen at once
 * because directory listings are not cached and negative lookups are not cached either), and
 * {@code kernel_cache} for read-only mounts (record bytes never change, so the page cache stays valid).
 *
 * @param readOnly      mount read-only (the kernel answers EROFS to every write)
 * @param autoUnmount   pass {@code auto_unmount}
 * @param uid           owner shown for every file
 * @param gid           group shown for every file
 * @param cacheTimeout  entry and attribute timeout, seconds
 * @param fsName        shown as the mount's source in /proc/mounts and df
 * @param extraOptions  further {@code -o} options, passed to libfuse after the defaults
 * @param verbose       log every commit and session event
 * @param debug         libfuse's {@code -d}: every request on stderr
 * @param readAheadKb   the kernel's read-ahead window for the mount in KiB, set after mounting where this
 *                      process may (root); 0 leaves the kernel's default (128 KiB)
 */
public record MountSettings(boolean readOnly, boolean autoUnmount, int uid, int gid, double cacheTimeout,
        String fsName, List<String> extraOptions, boolean verbose, boolean debug, int readAheadKb) {

    public static final double DEFAULT_CACHE_TIMEOUT = 3600;
    /**
     * 1 MiB: the kernel then asks for 1 MiB per read request instead of 128 KiB (libfuse negotiates up to
     * 256 pages per request), which doubled a cold sequential read's throughput (issue 16's measurement).
     */
    public static final int DEFAULT_READ_AHEAD_KB = 1024;

    public MountSettings {
        extraOptions = List.copyOf(extraOptions);
    }

    public static MountSettings defaults(String fsName) {
        return new MountSettings(true, true, currentUid(), currentGid(), DEFAULT_CACHE_TIMEOUT, fsName, List.of(),
                false, false, DEFAULT_READ_AHEAD_KB);
    }

    public MountSettings withReadOnly(boolean ro) {
        return new MountSettings(ro, autoUnmount, uid, gid, cacheTimeout, fsName, extraOptions, verbose, debug, readAheadKb);
    }

    public MountSettings withExtraOptions(List<String> options) {
        return new MountSettings(readOnly, autoUnmount, uid, gid, cacheTimeout, fsName, options, verbose, debug, readAheadKb);
    }

    /**
     * The arguments for libfuse (jfuse adds {@code -f} and the mount point); with {@code limitWorkers} (a libfuse that takes it) and no
     * {@code max_threads} among the extra options, {@link #defaultWorkers()} worker threads.
     */
    List<String> fuseArguments(boolean limitWorkers) {
        List<String> opts = new ArrayList<>();
        if (readOnly) {
            opts.add("ro");
            opts.add("kernel_cache");
        }
        opts.add("default_permissions");
        if (autoUnmount) {
            opts.add("auto_unmount");
        }
        opts.add("fsname=" + escape(fsName));
        opts.add("subtype=containerfs");
        opts.add("entry_timeout=" + cacheTimeout);
        opts.add("attr_timeout=" + cacheTimeout);
        opts.add("negative_timeout=0");
        if (limitWorkers && extraOptions.stream().noneMatch(o -> o.startsWith("max_threads="))) {
            opts.add("max_threads=" + defaultWorkers());
        }
        extraOptions.stream().filter(o -> !o.equals(NONEMPTY)).forEach(opts::add);
        List<String> args = new ArrayList<>();
        if (debug) {
            args.add("-d");
        }
        args.add("-o");
        args.add(String.join(",", opts));
        return args;
    }

    /** {@code -o nonempty}: libfuse 3 no longer knows it; the mount checks the directory itself. */
    static final String NONEMPTY = "nonempty";

    /** Whether {@code -o nonempty} allows mounting over a directory that has entries (hiding them). */
    boolean allowNonEmpty() {
        return extraOptions.contains(NONEMPTY);
    }

    /**
     * The {@code max_read} given with {@code -o} (the last one), or 0. libfuse 3.14 refuses to mount
     * (EPROTO) unless the file system's init sets the same value, so {@link NioFuseOperations} does.
     */
    int maxRead() {
        int value = 0;
        for (String o : extraOptions) {
            if (o.startsWith("max_read=")) {
                try {
                    value = Integer.parseInt(o.substring("max_read=".length()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("-o " + o + ": not a number of bytes");
                }
            }
        }
        return value;
    }

    /**
     * One libfuse worker per two cores (at least one). Serving a read is kernel copying on both
     * sides (the worker's pread and its reply, the reader's copy out of the page cache), so the
     * reader needs a core as much as the worker does; more workers than that only add a wake-up and
     * contention on the device queue to every request. Measured on 2 cores (bench scenario 8), dd of a
     * 1 GiB record: libfuse's default of 10 workers 0.78x bindfs (single-threaded), 2 workers 0.90-0.95x,
     * 1 worker 0.99x. {@code -o max_threads=N} overrides it, e.g. for many slow concurrent readers.
     */
    static int defaultWorkers() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    /** libfuse splits -o at commas; a backslash escapes one. */
    static String escape(String value) {
        return value.replace("\\", "\\\\").replace(",", "\\,");
    }

    /** The uid of this process: the owner of /proc/self. */
    public static int currentUid() {
        return procSelf("unix:uid");
    }

    public static int currentGid() {
        return procSelf("unix:gid");
    }

    private static int procSelf(String attribute) {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), attribute);
        } catch (Exception e) {
            return 0;
        }
    }
}
