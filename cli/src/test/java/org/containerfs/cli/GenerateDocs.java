package org.containerfs.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Build step (cli/pom.xml runs it at {@code package}): the bash/zsh completion script and the AsciiDoc sources of
 * the man pages, both from the command model the tool itself runs, so they cannot drift from {@code --help}.
 * Lives with the tests because picocli-codegen is a build-time tool, not part of the shipped jar.
 *
 * <pre>java ... org.containerfs.cli.GenerateDocs cli/target</pre> writes {@code completion/containerfs.bash} and
 * {@code man-adoc/containerfs*.adoc}; asciidoctor (manpage backend) turns the latter into {@code man/man1/*.1}.
 */
public final class GenerateDocs {
    private GenerateDocs() {}

    public static void main(String[] args) throws IOException {
        Path target = Path.of(args.length > 0 ? args[0] : "cli/target");
        PrintStream sink = new PrintStream(PrintStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        CommandLine cl = Containerfs.commandLine(sink, sink);

        Path completion = Files.createDirectories(target.resolve("completion")).resolve("containerfs.bash");
        Files.writeString(completion, AutoComplete.bash("containerfs", cl), StandardCharsets.UTF_8);

        Path adoc = Files.createDirectories(target.resolve("man-adoc"));
        headFooters(cl); // ManPageGenerator leaves out a footer without a heading
        int status = ManPageGenerator.generateManPage(adoc.toFile(), null, new boolean[0], true, cl.getCommandSpec());
        if (status != 0) {
            throw new IOException("ManPageGenerator failed with status " + status);
        }
        System.out.println("GenerateDocs: " + completion + " and the man page sources in " + adoc);
    }

    private static void headFooters(CommandLine cl) {
        CommandLine.Model.UsageMessageSpec usage = cl.getCommandSpec().usageMessage();
        if (usage.footer().length > 0 && usage.footerHeading().isEmpty()) {
            usage.footerHeading("Notes and examples");
        }
        cl.getSubcommands().values().forEach(GenerateDocs::headFooters);
    }
}
