package org.containerfs.cli;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.spi.FileSystemProvider;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import org.containerfs.core.ContainerFileSystemProvider;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.s3.S3Arguments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "create", mixinStandardHelpOptions = true,
        description = {"Creates a new, empty container of a format.",
                "What an empty container holds is the format's: nothing for LIME and G3, a file header for GSD and scda "
                + "(from --env options). An existing file is never overwritten. SIONlib files are not made empty: "
                + "`containerfs put new.sion /task000000 <file>` creates one with its task.",
                "Format options at creation (--env KEY=VALUE): GSD application, schema, schemaVersion; scda vendor, "
                + "userString, lineBreak=mime; SIONlib blockSize, prefix."},
        footer = {"", "Examples:",
                "  containerfs create lime new.lime",
                "  containerfs create gsd run.gsd --env schema=hoomd --env schemaVersion=1.4",
                "  containerfs create scda out.scda --env vendor=myapp --env 'userString=run 7'"})
final class CreateCommand implements Callable<Integer> {
    @ParentCommand
    Containerfs top;

    @Mixin
    ContainerOptions options;

    @Parameters(index = "0", paramLabel = "<format>", completionCandidates = FormatNames.class,
            description = "The format: ${COMPLETION-CANDIDATES}.")
    String format;

    @Parameters(index = "1", paramLabel = "<file>", description = "The local file to create (s3:// objects are never written: refused).")
    Path container;

    @Override
    public Integer call() throws IOException {
        String scheme = format.toLowerCase(java.util.Locale.ROOT);
        if (!ContainerOptions.supportedFormats().contains(scheme)) {
            throw new CliException("unknown format " + format + " (supported: "
                    + String.join(", ", ContainerOptions.supportedFormats()) + ")", 2);
        }
        if (S3Arguments.isS3(container)) {
            throw S3Arguments.refusal(container, "creating " + S3Arguments.display(container));
        }
        if (scheme.equals("sion")) {
            // SIONlib writes a file whole, every task at once, and never opens one again for writing: an empty file
            // made here could never take a task, so say what works instead of making one
            throw new CliException("create sion: a SIONlib file is written whole, with its tasks, and cannot take a task "
                    + "later; create it with its first task: containerfs put " + container + " /task000000 <file> "
                    + "(from Java: ContainerFileSystems.create(path, \"sion\"), then write every task before close)", 2);
        }
        if (Files.exists(container, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(container.toString(), null, "already exists (create never overwrites)");
        }
        try (FileSystem fs = ContainerFileSystems.create(container, scheme, options.writeEnv())) {
            // nothing to add: closing writes what an empty container of the format holds
        }
        return 0;
    }

    /**
     * The formats whose providers this tool carries, for the help text and shell completion. Looked up through
     * this class's loader, not the system one that installedProviders() uses, so that the build step that writes
     * the completion script and man pages (run inside Maven) lists them too.
     */
    static final class FormatNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            List<String> names = new java.util.ArrayList<>();
            for (FileSystemProvider p : ServiceLoader.load(FileSystemProvider.class, CreateCommand.class.getClassLoader())) {
                if (p instanceof ContainerFileSystemProvider) {
                    names.add(p.getScheme());
                }
            }
            return names.iterator();
        }
    }
}
