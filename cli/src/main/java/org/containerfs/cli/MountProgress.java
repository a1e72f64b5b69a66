package org.containerfs.cli;

import org.containerfs.fuse.MountCommand;
import org.containerfs.spi.OpenProgress;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Progress for {@code containerfs mount} while the container is opened (indexed) before the mount appears: the
 * mount command, from the fuse-mount module, is given the progress options here and an {@link OpenProgress}
 * that draws the line. A {@code --background} mount opens the container in its child process, which draws none.
 */
final class MountProgress implements OpenProgress {
    /** The options added to the mount command (the same as every container command's). */
    static final class Options {
        @Option(names = {"-q", "--quiet"}, description = "No progress line while the container is indexed.")
        boolean quiet;

        @Option(names = "--progress", description = "Show the progress line even when standard error is not a terminal.")
        boolean progress;
    }

    private final Containerfs top;
    private final Options options;
    private Progress line;

    private MountProgress(Containerfs top, Options options) {
        this.top = top;
        this.options = options;
    }

    /** Adds the options to the mount subcommand of {@code cl} and hands it the listener. */
    static void install(CommandLine cl) {
        CommandLine mount = cl.getSubcommands().get("mount");
        if (mount == null || !(mount.getCommand() instanceof MountCommand command)) {
            return;
        }
        Options options = new Options();
        mount.addMixin("progress", options);
        command.setOpenProgress(new MountProgress((Containerfs) cl.getCommand(), options));
    }

    @Override
    public synchronized void scanned(long bytes, long total) {
        if (line == null) {
            boolean shown = !options.quiet && (options.progress || top.stderrIsTerminal());
            line = Progress.start(System.err, System.out, shown, "indexing", -1);
        }
        line.scanned(bytes, total);
    }

    @Override
    public synchronized void finished() {
        if (line != null) {
            line.close();
            line = null;
        }
    }
}
