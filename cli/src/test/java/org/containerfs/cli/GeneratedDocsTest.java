package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build's completion script and man page sources (GenerateDocs), and {@code containerfs completion}. */
class GeneratedDocsTest {
    private static final List<String> COMMANDS = List.of("ls", "cat", "cp", "info", "verify", "create", "put", "mount",
            "umount", "completion");

    @TempDir
    static Path target;

    @BeforeAll
    static void generate() throws Exception {
        PrintStream stdout = System.out;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            GenerateDocs.main(new String[] {target.toString()});
        } finally {
            System.setOut(stdout);
        }
    }

    /** Asks the script for the completions of {@code line} as bash would, by calling its completion function. */
    private static List<String> complete(String... words) throws Exception {
        String script = "source '" + target.resolve("completion/containerfs.bash") + "'\n"
                + "COMP_WORDS=(" + String.join(" ", java.util.Arrays.stream(words).map(w -> "'" + w + "'").toList()) + ")\n"
                + "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
                + "COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}\n"
                + "_complete_containerfs containerfs \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD-1]}\"\n"
                + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        // compopt complains outside a real completion: its standard error is not what we look at
        Process p = new ProcessBuilder("bash", "-c", script).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    @Test
    void theCompletionScriptIsValidBashAndCompletesSubcommandsAndOptions() throws Exception {
        Process syntax = new ProcessBuilder("bash", "-n", target.resolve("completion/containerfs.bash").toString())
                .redirectErrorStream(true).start();
        assertThat(syntax.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(syntax.exitValue()).isZero();

        assertThat(complete("containerfs", "p")).containsExactly("put");
        assertThat(complete("containerfs", "")).containsAll(COMMANDS);
        assertThat(complete("containerfs", "verify", "--j")).containsExactly("--json");
        assertThat(complete("containerfs", "put", "--glo")).containsExactly("--global-rank");
        assertThat(complete("containerfs", "create", "s")).containsExactlyInAnyOrder("scda", "sion");
    }

    @Test
    void theCompletionCommandPrintsTheScriptTheBuildMakes() throws Exception {
        Cli.Result r = Cli.run("completion");

        assertThat(r.status()).isZero();
        assertThat(r.stdout().strip()).isEqualTo(Files.readString(target.resolve("completion/containerfs.bash")).strip());
    }

    @Test
    void everyCommandHasAManPageSourceFromTheSameModel() throws Exception {
        Path adoc = target.resolve("man-adoc");
        assertThat(adoc.resolve("containerfs.adoc")).content().contains("containerfs - Lists, reads").contains("[*put*]");
        for (String command : COMMANDS) {
            Path page = adoc.resolve("containerfs-" + command + ".adoc");
            assertThat(page).exists();
        }
        assertThat(adoc.resolve("containerfs-put.adoc")).content().contains("--global-rank").contains("printf hi | containerfs put new.lime /msg01/rec01.note -");
        assertThat(adoc.resolve("containerfs-ls.adoc")).content().contains("--json");
    }
}
