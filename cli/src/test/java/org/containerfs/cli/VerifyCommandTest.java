package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class VerifyCommandTest {
    @TempDir
    Path tmp;

    static Stream<String> soundFiles() {
        return Corpus.files().stream().filter(f -> !Corpus.damaged(f));
    }

    static Stream<String> damagedFiles() {
        return Corpus.files().stream().filter(Corpus::damaged);
    }

    @ParameterizedTest
    @MethodSource("soundFiles")
    void aSoundFileVerifiesWithStatusZero(String file) {
        Cli.Result r = Cli.run("verify", Corpus.lime(file));
        var rows = Corpus.rows(file);

        assertThat(r.status()).as(r.stdout()).isZero();
        assertThat(r.lines()).hasSize(1);
        assertThat(r.lines()[0]).endsWith(" " + rows.size() + " files, " + rows.stream().mapToLong(Corpus.Row::length).sum()
                + " bytes read, 0 failures: OK");
    }

    @ParameterizedTest
    @MethodSource("damagedFiles")
    void aDamagedFileFailsWithEveryProblemReported(String file) {
        Cli.Result r = Cli.run("verify", Corpus.lime(file));

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.lines()[r.lines().length - 1]).endsWith(": DAMAGED");
        assertThat(r.lines()).anyMatch(l -> l.startsWith("FAIL /: "));
        for (Corpus.Row row : Corpus.rows(file)) {
            if (!row.readable()) {
                assertThat(r.lines()).anyMatch(l -> l.startsWith("FAIL " + row.path() + ": ") && l.contains("byte "));
            } else {
                assertThat(r.lines()).noneMatch(l -> l.startsWith("FAIL " + row.path()));
            }
        }
    }

    @Test
    void theTruncatedPayloadFileReportsItsContainerDamageAndItsRecord() {
        Cli.Result r = Cli.run("verify", Corpus.lime("s10_truncated_in_payload.lime"));

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.lines()).hasSize(3);
        assertThat(r.lines()[0]).isEqualTo("FAIL /: record 2 at byte 288 declares 4608 bytes but the file ends at byte 3040 "
                + "(truncated payload)");
        assertThat(r.lines()[1]).startsWith("FAIL /msg01/rec02.scidac-binary-data: ")
                .endsWith("s10_truncated_in_payload.lime at byte 3040: LIME record msg01/rec02.scidac-binary-data: "
                        + "expected the 4608 bytes it declares from byte 432, found the file ends at byte 3040");
        assertThat(r.lines()[2]).endsWith("1 directories, 2 files, 140 bytes read, 2 failures: DAMAGED");
    }

    @Test
    void anUncommittedTailIsANoteAndTheContainerIsSound() throws IOException {
        Path file = tmp.resolve("tail.lime");
        byte[] sound = Files.readAllBytes(Corpus.lime("s02_lime_writer_test1.lime"));
        Files.write(file, Arrays.copyOf(sound, sound.length + 144 + 1000)); // a writer killed before its header

        Cli.Result r = Cli.run("verify", file);

        assertThat(r.status()).as(r.stdout()).isZero();
        assertThat(r.lines()).hasSize(2);
        assertThat(r.lines()[0]).startsWith("NOTE /: uncommitted tail").contains("1144 bytes at byte " + sound.length);
        assertThat(r.lines()[1]).endsWith(" 5 files, 158 bytes read, 0 failures: OK");
    }

    /** Issue 18.2: damaged copies of a .g3.gz, as checked against spt3g, fail with the offset. */
    @Test
    void aDamagedG3GzFailsWithTheByteOffsetWhereverTheDamageIs() throws IOException {
        byte[] sound = Files.readAllBytes(Corpus.repositoryRoot().resolve("provider/src/test/resources/corpus/g3/simple-types.g3.gz"));
        byte[] flipped = sound.clone();
        flipped[sound.length / 2] ^= 0x10;
        byte[] badTrailer = sound.clone();
        badTrailer[sound.length - 8] ^= 0x01;
        byte[] badFirstBlock = sound.clone();
        badFirstBlock[10] |= 0x06;
        for (byte[] damaged : new byte[][] {flipped, badTrailer, badFirstBlock}) {
            Path file = tmp.resolve("damaged.g3.gz");
            Files.write(file, damaged);

            Cli.Result r = Cli.run("verify", file);

            assertThat(r.status()).as(r.stdout()).isEqualTo(1);
            assertThat(r.lines()[0]).startsWith("FAIL /: gzip stream: ").containsPattern("byte \\d+").contains("expected");
            assertThat(r.lines()[r.lines().length - 1]).endsWith(": DAMAGED");
        }
    }

    @Test
    void verboseListsEverySoundFile() {
        Cli.Result r = Cli.run("verify", "-v", Corpus.lime("s02_lime_writer_test1.lime"));

        assertThat(r.status()).isZero();
        assertThat(Arrays.stream(r.lines()).filter(l -> l.startsWith("ok "))).containsExactly(
                "ok /msg01/rec01.lime-test-text1 45", "ok /msg01/rec02.lime-test-text1 40",
                "ok /msg02/rec01.lime-test-text1 31", "ok /msg02/rec02.lime-test-text2 23", "ok /msg03/rec01.lime-test-text3 19");
    }

    @Test
    void aContainerThatCannotBeOpenedFails() throws IOException {
        Path bad = tmp.resolve("bad.lime");
        byte[] bytes = Files.readAllBytes(Corpus.lime("s01_single_record.lime"));
        bytes[5] = 2; // header version 2: the provider refuses the file
        Files.write(bad, bytes);

        Cli.Result r = Cli.run("verify", bad);

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.lines()[0]).startsWith("FAIL " + bad + ": ").contains("version");
        assertThat(r.lines()[1]).endsWith("cannot be opened: DAMAGED");
    }

    @Test
    void strictTurnsContainerDamageIntoAnOpenFailure() {
        Cli.Result r = Cli.run("verify", "--strict", Corpus.lime("s10_truncated_in_payload.lime"));

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.lines()).hasSize(2);
        assertThat(r.lines()[0]).contains("byte 296");
    }

    @Test
    void aMissingFileIsAnErrorNotDamage() {
        Cli.Result r = Cli.run("verify", tmp.resolve("absent.lime"));

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEqualTo("containerfs verify: " + tmp.resolve("absent.lime") + ": no such container file\n");
    }
}
