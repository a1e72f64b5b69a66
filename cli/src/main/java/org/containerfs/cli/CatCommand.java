package org.containerfs.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "cat", mixinStandardHelpOptions = true,
        description = {"Writes the bytes of files in the container to standard output.",
                "Several files are written one after the other. A file that cannot be read completely is reported "
                + "on standard error, and the status is 1."},
        footer = {"", "Example: containerfs cat conf.lime /msg02/rec04.ildg-binary-data > lattice.bin"})
final class CatCommand implements Callable<Integer> {
    @ParentCommand
    Containerfs top;

    @Mixin
    ContainerOptions options;

    @Parameters(index = "0", paramLabel = "<container>", description = "The container: a local file, an object as s3://bucket/key (read-only), or a local directory, whose containers show as directories of one read-only tree.")
    Path container;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "<path>", description = "Files in the container.")
    List<String> paths;

    @Override
    public Integer call() throws IOException {
        PrintStream out = top.out();
        int status = 0;
        try (FileSystem fs = options.openContainerOrTree(container)) {
            for (String given : paths) {
                Path p = ContainerOptions.entry(fs, given);
                try {
                    if (Files.isDirectory(p)) {
                        throw new CliException(p + ": is a directory");
                    }
                    Streams.copy(p, out);
                } catch (Streams.OutputClosedException e) {
                    return 141; // as a shell reports a command ended by SIGPIPE, and as quietly
                } catch (IOException | RuntimeException e) {
                    out.flush();
                    top.err().println("containerfs cat: " + Errors.describe(e));
                    status = 1;
                }
            }
        }
        out.flush();
        return status;
    }
}
