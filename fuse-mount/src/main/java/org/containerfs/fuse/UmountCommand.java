package org.containerfs.fuse;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code umount <mountpoint>}: ends a mount made by {@code mount}, through fusermount3 -u. */
@Command(name = "umount", mixinStandardHelpOptions = true,
        description = {
            "Unmount a container mounted with 'mount' (runs fusermount3 -u; no root needed).",
            "Refused while a process has a file or directory open there, unless --lazy is given: then",
            "the mount point is detached at once and open files keep working until they are closed.",
            "The mount process then commits what was written and exits."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:unmounted", "1:not unmounted (busy, not a mount point, ...)"})
public final class UmountCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<mountpoint>", description = "where the container is mounted")
    Path mountPoint;

    @Option(names = {"-z", "--lazy"}, description = "detach even if busy (fusermount3 -u -z)")
    boolean lazy;

    private final PrintStream out;
    private final PrintStream err;

    public UmountCommand() {
        this(System.out, System.err);
    }

    UmountCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        Fusermount.Result r = Fusermount.unmount(mountPoint, lazy);
        if (r.ok()) {
            out.println("containerfs: " + r.message() + (lazy ? " (detached)" : ""));
            return 0;
        }
        err.println("containerfs umount: " + r.message());
        return 1;
    }
}
