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
                "container:   " + Corpus.lime("s08_ildg_scidac_gauge.lime"),
                "format:      lime",
                "directories: 2",
                "files:       8",
                "bytes:       10422",
                "uncommitted: none",
                "checked:     structure only (headers, index, lengths); contents not read: run verify",
                "damage:      none in the structure",
                "lime attributes of the container (lime:*):",
                "  version:       1",
                "  records:       8",
                "  messages:      2",
                "  trailingBytes: 0",
                "  size:          11600");
    }

    @Test
    void theTreesCountsAndTheFormatsAttributesAreTwoListsEvenWhereTheirNamesMeet() {
        // SIONlib's own `files` counts physical files (2); the tree holds 4 task files
        Cli.Result r = Cli.run("info", Corpus.repositoryRoot().resolve("samples/sion/spikes.sion"));

        assertThat(r.status()).isZero();
        assertThat(r.lines()).contains("files:       4", "  files:               2")
                .containsSubsequence("files:       4", "sion attributes of the container (sion:*):", "  files:               2");
    }

    @Test
    void aFieldWithNothingToSaySaysNoneRatherThanStayingBlank() {
        Cli.Result r = Cli.run("info", Corpus.repositoryRoot().resolve("samples/g3/observation.g3.gz"));

        assertThat(r.status()).isZero();
        assertThat(r.lines()).anyMatch(line -> line.matches("  gzipDamage: +none"))
                .allMatch(line -> !line.strip().endsWith(":") || line.endsWith("(g3:*):"));
    }

    @ParameterizedTest
    @MethodSource("corpusFiles")
    void infoCountsMatchTheManifestAndDamageIsShownExactlyForDamagedFiles(String file) {
        Cli.Result r = Cli.run("info", Corpus.lime(file));
        var rows = Corpus.rows(file);

        assertThat(r.status()).isZero();
        assertThat(r.stdout())
                .contains("format:      lime\n")
                .contains("\n  records:       " + rows.size() + "\n")
                .contains("\n  messages:      " + rows.stream().mapToInt(Corpus.Row::message).max().orElse(0) + "\n")
                .contains("\nfiles:       " + rows.size() + "\n")
                .contains("\nbytes:       " + rows.stream().mapToLong(Corpus.Row::length).sum() + "\n");
        if (Corpus.damaged(file)) {
            assertThat(r.stdout()).containsPattern("\ndamage: +\\S.*byte \\d+").doesNotContain("none in the structure");
        } else {
            assertThat(r.stdout()).contains("\ndamage:      none in the structure\n");
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
        assertThat(r.stdout()).contains("\nuncommitted: an uncommitted append of 1144 bytes at byte " + sound.length)
                .contains("\ndamage:      none in the structure\n");
    }

    @Test
    void infoNamesTheTruncatedRecordOfADamagedFile() {
        Cli.Result r = Cli.run("info", Corpus.lime("s10_truncated_in_payload.lime"));

        assertThat(r.stdout()).contains("damage:      record 2 at byte 288 declares 4608 bytes but the file ends at byte 3040");
    }

    @Test
    void infoOfAFileWithoutExtensionFindsTheFormatByItsMagicBytes() {
        Cli.Result r = Cli.run("info", Corpus.lime("cl2qcd_conf.00200"));

        assertThat(r.status()).isZero();
        assertThat(r.stdout()).contains("format:      lime\n").contains("  records:       4\n");
    }

    /**
     * info reads the structure only: a G3 file with a flipped bit in a value or in a stored CRC (which verify finds)
     * gets no claim of soundness, in text or JSON, whatever the format; what was checked is said instead.
     */
    @Test
    void infoNeverClaimsWhatOnlyVerifyChecks(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        byte[] sound = java.nio.file.Files.readAllBytes(Corpus.repositoryRoot().resolve("samples/g3/observation.g3"));
        byte[] flippedValue = sound.clone();
        flippedValue[sound.length - 40] ^= 0x01; // inside the last frame's last value
        byte[] flippedCrc = sound.clone();
        flippedCrc[sound.length - 1] ^= (byte) 0x80; // the last frame's stored CRC ends the file
        for (byte[] bytes : java.util.List.of(flippedValue, flippedCrc)) {
            java.nio.file.Path file = java.nio.file.Files.write(tmp.resolve("damaged.g3"), bytes);
            Cli.Result verify = Cli.run("verify", file);
            assertThat(verify.status()).as(verify.stdout()).isEqualTo(1);
            assertThat(verify.stdout()).contains("CRC");
            Cli.Result info = Cli.run("info", file);
            assertThat(info.status()).isZero();
            assertThat(info.stdout()).doesNotContain("none found")
                    .containsPattern("\nchecked: +structure only \\(headers, index, lengths\\); contents not read: run verify\n");
            Cli.Result json = Cli.run("info", "--json", file);
            assertThat(json.stdout()).contains("\"checked\":\"structure\"");
        }
        for (String sample : java.util.List.of("lime/ildg.lime", "gsd/trajectory.gsd", "scda/checkpoint.scda",
                "sion/spikes.sion", "g3/observation.g3.gz")) {
            Cli.Result info = Cli.run("info", Corpus.repositoryRoot().resolve("samples").resolve(sample));
            assertThat(info.stdout()).as(sample).doesNotContain("none found")
                    .containsPattern("\nchecked: +structure only \\(headers, index, lengths\\); contents not read: run verify\n");
        }
    }
}
