package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class InfoCommandTest {

    static Stream<String> corpusFiles() {
        return Corpus.files().stream();
    }

    @Test
    void infoShowsFormatVersionCountsAndNoDamageForASoundFile() {
        Cli.Result r = Cli.run("info", Corpus.lime("s08_ildg_scidac_gauge.lime"));

        assertThat(r.status()).isZero();
        assertThat(r.lines()).containsExactly(
                "container:     " + Corpus.lime("s08_ildg_scidac_gauge.lime"),
                "format:        lime",
                "version:       1",
                "records:       8",
                "messages:      2",
                "trailingBytes: 0",
                "size:          11600",
                "directories:   2",
                "files:         8",
                "bytes:         10422",
                "uncommitted:   none",
                "damage:        none found");
    }

    @Test
    void aFieldWithNothingToSaySaysNoneRatherThanStayingBlank() {
        Cli.Result r = Cli.run("info", Corpus.repositoryRoot().resolve("samples/g3/observation.g3.gz"));

        assertThat(r.status()).isZero();
        assertThat(r.lines()).contains("gzipDamage:    none").allMatch(line -> !line.strip().endsWith(":"));
    }

    @ParameterizedTest
    @MethodSource("corpusFiles")
    void infoCountsMatchTheManifestAndDamageIsShownExactlyForDamagedFiles(String file) {
        Cli.Result r = Cli.run("info", Corpus.lime(file));
        var rows = Corpus.rows(file);

        assertThat(r.status()).isZero();
        assertThat(r.stdout())
                .contains("format:        lime\n")
                .contains("\nrecords:       " + rows.size() + "\n")
                .contains("\nmessages:      " + rows.stream().mapToInt(Corpus.Row::message).max().orElse(0) + "\n")
                .contains("\nfiles:         " + rows.size() + "\n")
                .contains("\nbytes:         " + rows.stream().mapToLong(Corpus.Row::length).sum() + "\n");
        if (Corpus.damaged(file)) {
            assertThat(r.stdout()).containsPattern("\ndamage: +\\S.*byte \\d+").doesNotContain("none found");
        } else {
            assertThat(r.stdout()).endsWith("\ndamage:        none found\n");
        }
    }

    @Test
    void infoShowsAWritersUncommittedTailApartFromDamage(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path file = tmp.resolve("tail.lime");
        byte[] sound = java.nio.file.Files.readAllBytes(Corpus.lime("s02_lime_writer_test1.lime"));
        java.nio.file.Files.write(file, java.util.Arrays.copyOf(sound, sound.length + 144 + 1000));
        Cli.Result r = Cli.run("info", file);

        assertThat(r.status()).isZero();
        assertThat(r.stdout()).contains("\nuncommitted:   an uncommitted append of 1144 bytes at byte " + sound.length)
                .endsWith("\ndamage:        none found\n");
    }

    @Test
    void infoNamesTheTruncatedRecordOfADamagedFile() {
        Cli.Result r = Cli.run("info", Corpus.lime("s10_truncated_in_payload.lime"));

        assertThat(r.stdout()).contains("damage:        record 2 at byte 288 declares 4608 bytes but the file ends at byte 3040");
    }

    @Test
    void infoOfAFileWithoutExtensionFindsTheFormatByItsMagicBytes() {
        Cli.Result r = Cli.run("info", Corpus.lime("cl2qcd_conf.00200"));

        assertThat(r.status()).isZero();
        assertThat(r.stdout()).contains("format:        lime\n").contains("records:       4\n");
    }
}
