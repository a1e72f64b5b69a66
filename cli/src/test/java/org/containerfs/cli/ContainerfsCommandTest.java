package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ContainerfsCommandTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"ls", "cat", "cp", "info", "verify"})
    void everySubcommandHasHelp(String command) {
        Cli.Result r = Cli.run(command, "--help");

        assertThat(r.status()).isZero();
        assertThat(r.stdout()).startsWith("Usage: containerfs " + command + " ").contains("<container>").contains("--env");
        assertThat(Cli.run("help", command).stdout()).isEqualTo(r.stdout());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ls", "cat", "cp", "info", "verify", "mount", "put", "create"})
    void everyCommandsHelpSaysWhereItsContainerMayLive(String command) {
        Cli.Result help = Cli.run(command, "--help");

        // help is wrapped to the terminal: compare the URI with the line breaks taken out, words with them as spaces
        String joined = help.stdout().replaceAll("\\s*\\n\\s*", "");
        String spaced = help.stdout().replaceAll("\\s+", " ");
        assertThat(help.status()).isZero();
        assertThat(spaced).contains("local");
        if (command.equals("put") || command.equals("create")) {
            assertThat(joined).contains("s3://");
            assertThat(spaced).contains("never written");
        } else {
            assertThat(joined).contains("s3://bucket/key");
            assertThat(spaced).containsPattern("read-?only");
        }
        if (!command.equals("put") && !command.equals("create")) { // every reading door takes a directory as a tree
            assertThat(spaced).contains("local directory");
        }
    }

    @Test
    void topLevelHelpListsTheSubcommands() {
        Cli.Result r = Cli.run("--help");

        assertThat(r.status()).isZero();
        assertThat(r.stdout()).contains("  ls ").contains("  cat ").contains("  cp ").contains("  info ").contains("  verify ");
    }

    @Test
    void noSubcommandIsAUsageError() {
        Cli.Result r = Cli.run();

        assertThat(r.status()).isEqualTo(2);
        assertThat(r.stderr()).isEqualTo("containerfs: a subcommand is required (see 'containerfs --help')\n");
    }

    @Test
    void aMissingArgumentIsAUsageErrorOnOneLine() {
        Cli.Result r = Cli.run("cp", Corpus.lime("s01_single_record.lime"));

        assertThat(r.status()).isEqualTo(2);
        assertThat(r.stderr().lines()).hasSize(1);
        assertThat(r.stderr()).startsWith("containerfs cp: Missing required parameter");
    }

    @Test
    void aMissingContainerIsOneErrorLine() {
        Cli.Result r = Cli.run("ls", tmp.resolve("absent.lime"));

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).isEqualTo("containerfs ls: " + tmp.resolve("absent.lime") + ": no such container file\n");
    }

    @Test
    void aFileOfNoKnownFormatIsNamedAsSuch() throws IOException {
        Path text = Files.writeString(tmp.resolve("notes.txt"), "just text, not a container\n");

        Cli.Result r = Cli.run("info", text);

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).isEqualTo("containerfs info: " + text + ": not a container of a supported format (supported: lime, gsd, scda, sion, g3)\n");
    }

    @Test
    void aContainerNamedLikeAZipIsStillOpenedByItsFormat() throws IOException {
        Path disguised = Files.copy(Corpus.lime("s08_ildg_scidac_gauge.lime"), tmp.resolve("gauge.zip"));

        Cli.Result r = Cli.run("ls", disguised);

        assertThat(r.status()).isZero();
        assertThat(r.lines()).containsExactly("msg01/", "msg02/");
    }

    @Test
    void aDirectoryIsATreeOfContainersNotAnError() throws IOException {
        Files.writeString(tmp.resolve("notes.txt"), "no container here\n");
        Cli.Result r = Cli.run("verify", tmp);

        assertThat(r.status()).isZero();
        assertThat(r.stderr()).isEmpty();
        assertThat(r.stdout()).isEqualTo(tmp + ": 0 containers, 0 OK, 0 DAMAGED, 1 plain file (not read), 0 bytes read: OK\n");
    }

    @Test
    void debugAddsTheStackTrace() {
        Cli.Result plain = Cli.run("cat", Corpus.lime("s10_truncated_in_payload.lime"), "/nothing");
        Cli.Result debug = Cli.run("ls", "--debug", tmp.resolve("absent.lime"));
        Cli.Result topDebug = Cli.run("--debug", "ls", tmp.resolve("absent.lime"));

        assertThat(plain.stderr()).doesNotContain("\tat ");
        assertThat(debug.stderr()).contains("NoSuchFileException").contains("\tat ");
        assertThat(topDebug.stderr()).contains("\tat ");
    }

    @Test
    void envOptionsReachTheProvider() {
        Cli.Result r = Cli.run("ls", "--env", "strict=true", Corpus.lime("s10_truncated_in_payload.lime"));
        Cli.Result bad = Cli.run("ls", "--env", "strict=perhaps", Corpus.lime("s10_truncated_in_payload.lime"));

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).contains("byte 296");
        assertThat(bad.stderr()).isEqualTo("containerfs ls: env option strict must be true or false, got 'perhaps'\n");
    }

    @Test
    void theCommandsNeverOpenAContainerForWriting() {
        Cli.Result r = Cli.run("ls", "--env", "accessMode=readWrite", Corpus.lime("s01_single_record.lime"));

        assertThat(r.status()).isEqualTo(2);
        assertThat(r.stderr()).contains("read-only");
    }

    @Test
    void versionIsPrinted() {
        Cli.Result r = Cli.run("--version");

        assertThat(r.status()).isZero();
        assertThat(r.stdout()).startsWith("containerfs ");
    }
}
