package org.containerfs.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import picocli.CommandLine.ParseResult;

/**
 * The launcher's AOT recording run (JDK 24+, {@code -XX:AOTMode=record}): the JVM writes the classes this run used
 * when it exits, and the next run builds the cache of every later run of its kind from that record. A run that did
 * not do its command's work (help, the version, a usage error, a failure, a mount stopped before it was made) would
 * leave a record of a small part of what the command needs, and a cache made from it leaves hundreds of the JDK's
 * classes to be loaded at every start until the jar changes ({@code containerfs mount --help} as the first mount
 * after a build: fuse-mount/README.md, "Start-up, second pass").
 *
 * <p>The launcher names the record in the system property {@value #PROPERTY}. The JVM opens that file as it starts
 * and writes it as it exits; deleting the name before then discards what it writes, so the next run records again.
 * {@link #begin} (first thing in {@code main}) arranges that at this JVM's exit the record is deleted unless
 * {@link #end} was told the command did its work and nothing called {@link #discard}. Without the property (a
 * plain {@code java -jar}, or a run with a cache) nothing happens.
 */
public final class AotRecording {
    /** The system property by which the launcher names the record file of a recording run. */
    public static final String PROPERTY = "containerfs.aot.record";

    private static volatile boolean keep;
    private static volatile boolean discarded;

    private AotRecording() {
    }

    /**
     * When this JVM records for the launcher: deletes the record at exit (any exit: {@code System.exit}, the end of
     * {@code main}, a signal's) unless {@link #end}{@code (true)} came first and {@link #discard} did not.
     */
    public static void begin() {
        String record = System.getProperty(PROPERTY);
        if (record == null || record.isEmpty()) {
            return;
        }
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                if (!keep || discarded) {
                    delete(record);
                }
            }, "containerfs-aot-record"));
        } catch (IllegalStateException shuttingDown) {
            delete(record); // a signal in the JVM's first instants: this run does nothing
        }
    }

    private static void delete(String record) {
        try {
            Files.deleteIfExists(Path.of(record));
        } catch (IOException | RuntimeException e) {
            // left as it is: the next launcher makes the cache from it
        }
    }

    /**
     * Whether the command did its work: only then is the record kept (unless {@link #discard} was called), and then
     * every class of the tool is loaded into it first ({@link AotTraining}).
     */
    public static void end(boolean didItsWork) {
        keep = didItsWork;
        String record = System.getProperty(PROPERTY);
        if (didItsWork && !discarded && record != null && !record.isEmpty()) {
            AotTraining.loadEveryToolClass(); // the record kept: let it hold every class of the tool
        }
    }

    /**
     * Whether a command line did one of {@code commands}' work: it exited 0, ran one of them (not help, a version,
     * completion) and asked none of its commands for help or the version.
     */
    public static boolean ran(int status, ParseResult parsed, Collection<String> commands) {
        if (status != 0 || parsed == null || parsed.subcommand() == null
                || !commands.contains(parsed.subcommand().commandSpec().name())) {
            return false;
        }
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.isUsageHelpRequested() || p.isVersionHelpRequested()) {
                return false;
            }
        }
        return true;
    }

    /** This run, whatever its exit status, is not one to build the cache from (a mount stopped before it was made). */
    public static void discard() {
        discarded = true;
    }
}
