package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A command line runs with only its subcommand built (fuse-mount/README.md, "Start-up and footprint of the
 * daemon"); help, version, {@code help}, {@code completion} and a mistyped name still see every command.
 */
class OneCommandLineTest {
    private static CommandLine full() {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return Containerfs.commandLine(InputStream.nullInputStream(), sink, sink);
    }

    @Test
    void theTableOfCommandsNamesEachCommandAsItsAnnotationDoes() {
        CommandLine full = full();
        Containerfs.COMMANDS.forEach((name, type) ->
                assertThat((Object) full.getSubcommands().get(name).getCommand()).as(name).isInstanceOf(type));
        assertThat(full.getSubcommands().keySet()).containsExactlyElementsOf(
                concat(List.copyOf(Containerfs.COMMANDS.keySet()), List.of("help", "completion")));
    }

    @Test
    void aSubcommandIsBuiltAloneAfterOnlyTheDebugOption() {
        assertThat(Containerfs.onlyCommand(new String[] {"mount", "--engine=lowlevel", "a.lime", "mnt"})).isEqualTo("mount");
        assertThat(Containerfs.onlyCommand(new String[] {"--debug", "ls", "-l", "a.lime"})).isEqualTo("ls");
        assertThat(Containerfs.onlyCommand(new String[] {"--help"})).isNull();
        assertThat(Containerfs.onlyCommand(new String[] {"-V", "ls"})).isNull();
        assertThat(Containerfs.onlyCommand(new String[] {"help", "ls"})).isNull();
        assertThat(Containerfs.onlyCommand(new String[] {"completion"})).isNull();
        assertThat(Containerfs.onlyCommand(new String[] {"mout", "a.lime"})).isNull();
        assertThat(Containerfs.onlyCommand(new String[] {})).isNull();

        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        CommandLine one = Containerfs.commandLine(InputStream.nullInputStream(), sink, sink, "mount");
        assertThat(one.getSubcommands().keySet()).containsExactly("mount");
        // the option the CLI adds to mount (MountProgress) is bound when mount is built alone: it parses into a value
        CommandLine.ParseResult parsed = one.parseArgs("mount", "--progress", "a.lime", "mnt");
        assertThat(parsed.subcommand().hasMatchedOption("--progress")).isTrue();
        assertThat((Boolean) parsed.subcommand().matchedOptionValue("--progress", false)).isTrue();
    }

    @Test
    void aSubcommandBuiltAloneHasTheSameHelpAsInTheWholeCommandLine() {
        for (String name : Containerfs.COMMANDS.keySet()) {
            PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
            CommandLine one = Containerfs.commandLine(InputStream.nullInputStream(), sink, sink, name);
            assertThat(one.getSubcommands().get(name).getUsageMessage(CommandLine.Help.Ansi.OFF)).as(name)
                    .isEqualTo(full().getSubcommands().get(name).getUsageMessage(CommandLine.Help.Ansi.OFF));
        }
    }

    @Test
    void topLevelHelpListsEveryCommandAndAMistypedNameIsAUsageError() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);

        assertThat(Containerfs.run(new String[] {"--help"}, o, e)).isZero();
        assertThat(Containerfs.run(new String[] {"mout"}, o, e)).isEqualTo(2);

        for (String name : concat(List.copyOf(Containerfs.COMMANDS.keySet()), List.of("help", "completion"))) {
            assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("(?m)^  " + name + " ");
        }
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("containerfs: Unmatched argument at index 0: 'mout' (see 'containerfs --help')\n");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
