package org.containerfs.fuse;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.fuse.lowlevel.LowLevelUnavailableException;
import org.containerfs.spi.OpenProgress;
import org.containerfs.s3.S3Arguments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mount <container> <mountpoint> [--rw] [-o opt]...}: shows a container as a directory.
 * Runs in the foreground until the mount point is unmounted ({@code umount}, {@code fusermount3 -u})
 * or the process gets Ctrl-C/SIGTERM, which unmount cleanly (records being written are committed).
 */
@Command(name = "mount", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Mount a container (LIME, GSD, scda, SIONlib, G3) as a directory through FUSE, or a local directory or an "
                    + "S3 prefix of containers as one read-only tree (each container a directory named as its file).",
            "Read-only by default. With --rw new units can be appended: mkdir the next message/frame, then cp "
                    + "files into it (each file is committed when it is closed); nothing existing changes.",
            "Stays in the foreground until unmounted; Ctrl-C or SIGTERM unmount cleanly.",
            "Needs libfuse3 (package fuse3) and a JVM started with --enable-native-access=ALL-UNNAMED."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:unmounted cleanly", "1:mounting failed", "2:FUSE is not available on this machine"})
public final class MountCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<container>", description = "the container: a local file, an object as s3://bucket/key (read-only), or a local "
            + "directory or an S3 prefix (s3://bucket/prefix/), whose containers show as directories of one read-only "
            + "tree (docs/ensemble.md)")
    Path container;

    @Parameters(index = "1", paramLabel = "<mountpoint>", description = "an existing directory")
    Path mountPoint;

    @Option(names = "--rw", description = "writable: appends (mkdir, cp of new files) go into the container "
            + "(one container file only; a directory is mounted read-only)")
    boolean readWrite;

    @Option(names = "-o", paramLabel = "opt", split = ",",
            description = "further FUSE options, e.g. -o allow_other, -o attr_timeout=1 (repeatable)")
    List<String> options = new ArrayList<>();

    @Option(names = "--background", description = "detach: return once mounted, keep serving in a background process")
    boolean background;

    @Option(names = "--log", paramLabel = "<file>", description = "log file of a --background mount (default: "
            + "containerfs-mount-<pid>.log in $XDG_RUNTIME_DIR or /tmp, <pid> the background process's)")
    Path logFile;

    @Option(names = "--format", paramLabel = "<name>", description = "the container's format, if not detected")
    String format;

    @Option(names = "--sync", description = "with --rw: force each committed unit to disk before the next")
    boolean sync;

    @Option(names = "--no-auto-unmount", description = "keep a stale mount point if this process is killed")
    boolean noAutoUnmount;

    @Option(names = "--cache-timeout", paramLabel = "<s>", defaultValue = "3600",
            description = "kernel entry/attribute cache timeout in seconds (default: ${DEFAULT-VALUE})")
    double cacheTimeout;

    @Option(names = "--grace", paramLabel = "<s>", defaultValue = "3",
            description = "on Ctrl-C/SIGTERM, how long to retry a busy unmount before detaching it (default: ${DEFAULT-VALUE})")
    int graceSeconds;

    @Option(names = "--read-ahead", paramLabel = "<KiB>", defaultValue = "" + MountSettings.DEFAULT_READ_AHEAD_KB,
            description = "the kernel's read-ahead window for the mount, set when running as root (0: the kernel's "
                    + "128 KiB; others: echo N > /sys/class/bdi/<major:minor>/read_ahead_kb) (default: ${DEFAULT-VALUE})")
    int readAheadKb;

    @Option(names = {"-v", "--verbose"}, description = "log commits and session events")
    boolean verbose;

    @Option(names = "--strict", description = "fail on any damage instead of mounting the readable part (env strict=true)")
    boolean strict;

    @Option(names = "--env", paramLabel = "KEY=VALUE",
            description = "an option for the format's provider, passed in the env map (repeatable), e.g. --env decode=false;"
                    + " the access mode is --rw's")
    Map<String, String> env = new LinkedHashMap<>();

    @Option(names = "--fuse-debug", description = "libfuse debug output: every request on stderr")
    boolean fuseDebug;

    @Option(names = "--debug", description = "print the stack trace of an error")
    boolean debug;

    /** Which libfuse API serves the mount. */
    enum Engine {
        highlevel, lowlevel;

        /** Mounts {@code root} (a directory of any NIO file system) at {@code mountPoint} with this engine. */
        MountedSession mount(Path root, Path mountPoint, MountSettings settings, MountLog log)
                throws FuseUnavailableException, IOException {
            return this == lowlevel ? LowLevelMount.mount(root, mountPoint, settings, log)
                    : FuseSession.mount(root, mountPoint, settings, log);
        }
    }

    @Option(names = "--engine", paramLabel = "<engine>",
            description = "lowlevel (libfuse's low-level API: requests by inode, kernel-cached listings, spliced reads) "
                    + "or highlevel (jfuse, the fallback) (default: lowlevel; if libfuse is older than 3.5 or lacks a "
                    + "function it needs, highlevel, said on stderr)")
    Engine engine; // null: not named, the low-level engine with the fallback

    private final PrintStream out;
    private final PrintStream err;

    /** Told how far the container's opening scan has read; null: nothing is told. */
    private OpenProgress openProgress;

    public MountCommand() {
        this(System.out, System.err);
    }

    /** Sets what is told how far the opening scan of the container has read (the containerfs tool draws it). */
    public void setOpenProgress(OpenProgress listener) {
        this.openProgress = listener;
    }

    MountCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * Called first thing by a process that runs {@code mount} with {@code args} (the arguments after the command's
     * name, or all of them): unless they ask for help, the version, {@code --background} (this process mounts
     * nothing) or the high-level engine, starts the low-level engine's warm-up ({@link LowLevelMount#warmUp}) so
     * that it runs while picocli parses the arguments and the container opens.
     */
    public static void warmUpFor(String[] args) {
        String previous = "";
        for (String arg : args) {
            if (arg.equals("--")) {
                break;
            }
            if (arg.equals("--background") || arg.equals("--help") || arg.equals("-h") || arg.equals("--version")
                    || arg.equals("-V") || arg.equals("--engine=highlevel")
                    || previous.equals("--engine") && arg.equals("highlevel")) {
                return;
            }
            previous = arg;
        }
        LowLevelMount.warmUp();
    }

    @Override
    public Integer call() throws Exception {
        for (String o : options) {
            if (o.equals("rw") || o.equals("ro")) {
                err.println("containerfs mount: use --rw for a writable mount (read-only is the default), not -o " + o);
                return 1;
            }
        }
        for (String key : List.of("accessMode", "create")) {
            if (env.containsKey(key)) {
                err.println("containerfs mount: --env " + key + ": a mount opens an existing container, read-only or with --rw"
                        + " (appends only)");
                return 2;
            }
        }
        boolean remote = S3Arguments.isS3(container);
        if (remote && readWrite) {
            err.println("containerfs mount: " + S3Arguments.refusal(container, "a read-write mount").getMessage());
            return 1;
        }
        boolean tree = !remote && Files.isDirectory(container);
        if (tree && readWrite) {
            err.println("containerfs mount: " + container + " is a directory: a directory of containers is mounted "
                    + "read-only, as one tree; to append, mount one container file with --rw");
            return 1;
        }
        if (tree && format != null) {
            err.println("containerfs mount: --format does not apply to a directory: each container's format is found "
                    + "from its bytes");
            return 2;
        }
        String unavailable = LibFuse.unavailableReason();
        if (unavailable != null) {
            err.println("containerfs mount: FUSE is not available: " + unavailable);
            return 2;
        }
        if (!remote && !tree && !Files.isRegularFile(container)) {
            err.println("containerfs mount: " + container + (Files.exists(container)
                    ? " is neither a container file nor a directory" : ": no such file or directory"));
            return 1;
        }
        if (background) {
            return startInBackground();
        }
        return runInForeground();
    }

    private int runInForeground() throws InterruptedException {
        MountLog log = new MountLog(err, verbose);
        // first: a signal at any later instant is a request to stop, served in the steps below
        try (StopSignals signals = StopSignals.install(log)) {
            return runInForeground(log, signals);
        }
    }

    private int runInForeground(MountLog log, StopSignals signals) throws InterruptedException {
        FileSystem fs;
        try {
            fs = openContainer(container, readWrite, format, sync, openProgress, providerEnv());
        } catch (IOException | RuntimeException e) {
            err.println("containerfs mount: cannot open " + shownName() + ": " + e.getMessage());
            stackTrace(e);
            return 1;
        }
        if (signals.requested()) {
            closeQuietly(fs, log);
            AotRecording.discard(); // exit 0, but this run is no record of a mount
            log.notice("stopped before mounting: nothing was mounted");
            return 0;
        }
        String mode = readWrite ? "read-write, appends only" : "read-only";
        MountSettings settings = new MountSettings(!readWrite, !noAutoUnmount, MountSettings.currentUid(),
                MountSettings.currentGid(), cacheTimeout, containerName(), options,
                verbose, fuseDebug, readAheadKb);
        MountedSession session;
        try {
            Path root = fs.getRootDirectories().iterator().next();
            session = mount(root, settings, log);
        } catch (FuseUnavailableException e) {
            closeQuietly(fs, log);
            err.println("containerfs mount: FUSE is not available: " + e.getMessage());
            stackTrace(e);
            return 2;
        } catch (IOException | RuntimeException e) {
            closeQuietly(fs, log);
            err.println("containerfs mount: " + e.getMessage());
            stackTrace(e);
            return 1;
        }
        if (!signals.requested()) {
            out.println("containerfs: mounted " + shownName() + " (" + fs.provider().getScheme() + ", " + mode + ") at "
                    + session.mountPoint() + "; unmount with: containerfs umount " + session.mountPoint());
            out.flush();
        }
        signals.onSignal(() -> {
            try {
                session.unmount(Duration.ofSeconds(graceSeconds));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // until unmounted by anyone, or a signal's unmount is done (a detached mount may be served longer)
        while (!session.awaitEnd(Duration.ofMillis(200))) {
            if (signals.stopFinished()) {
                break;
            }
        }
        boolean ended = cleanup(session, fs, log);
        // a signal's unmount that could only detach: the shell's convention for "ended by that signal"
        return ended || signals.signalNumber() == 0 ? 0 : 128 + signals.signalNumber();
    }

    /** How an engine mounts: {@link Engine#mount}, or a stand-in in a test. */
    @FunctionalInterface
    interface Mounter {
        MountedSession mount(Engine engine) throws FuseUnavailableException, IOException;
    }

    private MountedSession mount(Path root, MountSettings settings, MountLog log)
            throws FuseUnavailableException, IOException {
        return mount(engine, e -> e.mount(root, mountPoint, settings, log), err, debug);
    }

    /**
     * Mounts with the engine named; none named ({@code null}), with the low-level engine, or with the high-level
     * one when this libfuse cannot run the low-level engine (older than 3.5, a function missing), saying so in
     * one line on {@code err}. A named engine that cannot run is refused as it is.
     */
    static MountedSession mount(Engine named, Mounter mounter, PrintStream err, boolean debug)
            throws FuseUnavailableException, IOException {
        if (named != null) {
            return mounter.mount(named);
        }
        try {
            return mounter.mount(Engine.lowlevel);
        } catch (FuseUnavailableException e) {
            if (!(e.getCause() instanceof LowLevelUnavailableException why)
                    || why.getCause() instanceof IllegalCallerException) { // native access: jfuse needs it too
                throw e;
            }
            err.println("containerfs mount: the low-level engine cannot run (" + e.getMessage() + "); mounting with "
                    + "the high-level engine (jfuse) instead");
            if (debug) {
                e.printStackTrace(err);
            }
            err.flush();
            return mounter.mount(Engine.highlevel);
        }
    }

    /** With --debug, the stack trace of an error whose message was printed (as every command does). */
    private void stackTrace(Throwable e) {
        if (debug) {
            e.printStackTrace(err);
        }
    }

    /** The --env pairs and --strict, for the provider. */
    private Map<String, String> providerEnv() {
        Map<String, String> map = new LinkedHashMap<>(env);
        if (strict) {
            map.put("strict", "true");
        }
        return map;
    }

    /** Frees FUSE, then closes the container (which commits anything still being written); whether the session had ended. */
    private static boolean cleanup(MountedSession session, FileSystem fs, MountLog log) {
        boolean ended = session.ended();
        session.close();
        closeQuietly(fs, log);
        log.notice(ended ? "unmounted " + session.mountPoint() : "detached " + session.mountPoint()
                + "; the kernel ends the session when this process exits");
        return ended;
    }

    private static void closeQuietly(FileSystem fs, MountLog log) {
        try {
            fs.close();
        } catch (IOException | RuntimeException e) {
            log.error("closing the container: " + e.getMessage());
        }
    }

    /** The container in messages: as the user named it (an s3:// object without credentials). */
    private String shownName() {
        return shown(container);
    }

    private static String shown(Path container) {
        return S3Arguments.isS3(container) ? S3Arguments.display(container) : container.toString();
    }

    /** The container in /proc/mounts and for a background child: an absolute path, or s3://bucket/key. */
    private String containerName() {
        return S3Arguments.isS3(container) ? S3Arguments.display(container)
                : container.toAbsolutePath().normalize().toString();
    }

    /**
     * Opens a container (a file, or an s3://bucket/key object read-only) with the provider that recognizes it; a
     * local directory, or an s3:// argument naming no object (a prefix), as one read-only tree of its containers.
     */
    public static FileSystem openContainer(Path container, boolean readWrite, String format, boolean sync)
            throws IOException {
        return openContainer(container, readWrite, format, sync, null);
    }

    /** As {@link #openContainer(Path, boolean, String, boolean)}, telling {@code progress} (if not null) how far the scan got. */
    public static FileSystem openContainer(Path container, boolean readWrite, String format, boolean sync,
            OpenProgress progress) throws IOException {
        return openContainer(container, readWrite, format, sync, progress, Map.of());
    }

    /** As above, with further provider options ({@code --env}, {@code --strict}). */
    static FileSystem openContainer(Path container, boolean readWrite, String format, boolean sync,
            OpenProgress progress, Map<String, String> providerEnv) throws IOException {
        if (S3Arguments.isS3(container)) {
            if (readWrite) {
                throw S3Arguments.refusal(container, "a read-write mount");
            }
            Map<String, Object> s3Env = new HashMap<>(providerEnv);
            if (format != null) {
                s3Env.put("format", format);
            }
            if (progress != null) {
                s3Env.put(OpenProgress.ENV_KEY, progress);
            }
            try {
                // an object, else (no object of that name) the prefix as one read-only tree of its containers
                Map<String, Object> treeEnv = new HashMap<>(providerEnv);
                if (format != null) {
                    treeEnv.put("format", format); // refused by a tree: each container's format is found from its bytes
                }
                return S3Arguments.openContainerOrTree(container, s3Env, treeEnv);
            } catch (ProviderNotFoundException e) {
                throw notRecognized(container, e); // the same bytes get the same answer as in a local file
            }
        }
        if (Files.isDirectory(container)) {
            return openTree(container, readWrite, format, providerEnv);
        }
        Map<String, Object> env = new HashMap<>(providerEnv);
        if (progress != null) {
            env.put(OpenProgress.ENV_KEY, progress);
        }
        env.put("accessMode", readWrite ? "readWrite" : "readOnly");
        if (format != null) {
            env.put("format", format);
        }
        if (sync) {
            env.put("sync", "true");
        }
        try {
            return FileSystems.newFileSystem(container, env);
        } catch (ProviderNotFoundException e) {
            throw notRecognized(container, e);
        }
    }

    /**
     * A local directory as one read-only tree of the containers below it ({@code ContainerFileSystems.openTree},
     * docs/ensemble.md): listing it opens no container, each is opened on first use of its inside, at most
     * env {@code cacheContainers} (default 256) kept open. The mount itself knows nothing of this.
     */
    private static FileSystem openTree(Path dir, boolean readWrite, String format, Map<String, String> providerEnv)
            throws IOException {
        if (readWrite) {
            throw new IOException(dir + " is a directory: a directory of containers is mounted read-only");
        }
        if (format != null) {
            throw new IllegalArgumentException("--format does not apply to a directory: each container's format is "
                    + "found from its bytes");
        }
        return ContainerFileSystems.openTree(dir, new HashMap<>(providerEnv));
    }

    private static IOException notRecognized(Path container, ProviderNotFoundException e) {
        return new IOException("no installed containerfs format recognizes " + shown(container)
                + " (give --format if it is empty or new)", e);
    }

    // ---- --background ---------------------------------------------------------------------------

    private int startInBackground() throws IOException, InterruptedException {
        Path mp = FuseSession.canonical(mountPoint);
        // by default named after the daemon (what kill needs), known once it runs: it starts under a
        // name of this launcher's, renamed then (the daemon's descriptor follows the file)
        Path log = logFile != null ? logFile.toAbsolutePath()
                : defaultLogDirectory().resolve("containerfs-mount-starting-" + ProcessHandle.current().pid() + ".log");
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            cmd.add("/usr/bin/setsid"); // its own session: the terminal's Ctrl-C and hang-up do not reach it
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(FuseMain.class.getName());
        cmd.add("mount");
        cmd.add(containerName());
        cmd.add(mp.toString());
        if (readWrite) {
            cmd.add("--rw");
        }
        for (String o : options) {
            cmd.add("-o");
            cmd.add(o);
        }
        if (format != null) {
            cmd.add("--format=" + format);
        }
        if (sync) {
            cmd.add("--sync");
        }
        if (noAutoUnmount) {
            cmd.add("--no-auto-unmount");
        }
        cmd.add("--cache-timeout=" + cacheTimeout);
        cmd.add("--grace=" + graceSeconds);
        cmd.add("--read-ahead=" + readAheadKb);
        if (engine != null) {
            cmd.add("--engine=" + engine); // else the child picks, and says so in the log, if it falls back
        }
        if (verbose) {
            cmd.add("--verbose");
        }
        env.forEach((k, v) -> cmd.add("--env=" + k + "=" + v));
        if (strict) {
            cmd.add("--strict");
        }
        if (fuseDebug) {
            cmd.add("--fuse-debug");
        }
        if (debug) {
            cmd.add("--debug");
        }
        long logStart = Files.exists(log) ? Files.size(log) : 0;
        Process child = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectErrorStream(true)
                .start();
        if (logFile == null) {
            Path named = log.resolveSibling("containerfs-mount-" + child.pid() + ".log");
            Files.move(log, named, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            log = named;
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (FuseSession.isMounted(mp) && logSaysMounted(log, logStart, mp)) {
                out.println("containerfs: mounted " + shownName() + " at " + mp + " in the background (pid " + child.pid()
                        + ", log " + log + "); unmount with: containerfs umount " + mp);
                return 0;
            }
            if (!child.isAlive()) {
                err.println("containerfs mount: the background mount failed (exit " + child.exitValue() + "):");
                err.print(Files.readString(log, StandardCharsets.UTF_8));
                return child.exitValue() == 0 ? 1 : child.exitValue();
            }
            Thread.sleep(100);
        }
        err.println("containerfs mount: the background mount did not come up within 60 s; see " + log);
        return 1;
    }

    /** The child's readiness line, written after this start (the log may hold earlier sessions). */
    private static boolean logSaysMounted(Path log, long from, Path mp) throws IOException {
        byte[] all = Files.readAllBytes(log);
        String fresh = new String(all, (int) Math.min(from, all.length), all.length - (int) Math.min(from, all.length),
                StandardCharsets.UTF_8);
        return fresh.contains(") at " + mp + ";");
    }

    private static Path defaultLogDirectory() {
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        return runtime != null && Files.isDirectory(Path.of(runtime)) ? Path.of(runtime) : Path.of("/tmp");
    }
}
