package org.containerfs.fuse;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The module's own entry point: {@code java --enable-native-access=ALL-UNNAMED -jar
 * containerfs-fuse-mount-<v>-standalone.jar mount <container> <mountpoint>} (or {@code umount}).
 * The containerfs CLI offers the same two commands.
 */
@Command(name = "containerfs-fuse", mixinStandardHelpOptions = true,
        description = "Mount containers (LIME, ...) as directories through FUSE.",
        subcommands = {MountCommand.class, UmountCommand.class, CommandLine.HelpCommand.class})
public final class FuseMain implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }

    public static void main(String[] args) {
        AotRecording.begin(); // a --background daemon of the launcher's recording run records too
        if (args.length > 0 && args[0].equals("mount")) {
            MountCommand.warmUpFor(args); // a --background mount's daemon starts here
        }
        CommandLine cl = new CommandLine(new FuseMain());
        int code = cl.execute(args);
        AotRecording.end(AotRecording.ran(code, cl.getParseResult(), java.util.List.of("mount", "umount")));
        System.exit(code);
    }
}
