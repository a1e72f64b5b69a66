package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CatCommandTest {

    static Stream<Corpus.Row> readableRows() {
        return Corpus.rows().stream().filter(Corpus.Row::readable);
    }

    static Stream<Corpus.Row> unreadableRows() {
        return Corpus.rows().stream().filter(r -> !r.readable());
    }

    @ParameterizedTest
    @MethodSource("readableRows")
    void catWritesTheRecordBytesOfTheManifest(Corpus.Row row) {
        Cli.Result r = Cli.run("cat", Corpus.lime(row.file()), row.path());

        assertThat(r.stderr()).isEmpty();
        assertThat(r.status()).isZero();
        assertThat(r.stdoutBytes()).hasSize((int) row.length());
        assertThat(Corpus.sha256(r.stdoutBytes())).isEqualTo(row.sha256());
    }

    @ParameterizedTest
    @MethodSource("unreadableRows")
    void catOfATruncatedRecordFailsNamingTheRecordAndOffset(Corpus.Row row) {
        Cli.Result r = Cli.run("cat", Corpus.lime(row.file()), row.path());

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).startsWith("containerfs cat: ").contains(row.path().substring(1)).contains("byte ")
                .doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.stderr().lines()).hasSize(1);
    }

    @Test
    void severalFilesAreWrittenOneAfterTheOther() {
        var rows = Corpus.rows("s02_lime_writer_test1.lime");
        Cli.Result r = Cli.run("cat", Corpus.lime("s02_lime_writer_test1.lime"), rows.get(0).path(), rows.get(1).path(),
                rows.get(4).path());

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i : new int[] {0, 1, 4}) {
            expected.writeBytes(Cli.run("cat", Corpus.lime("s02_lime_writer_test1.lime"), rows.get(i).path()).stdoutBytes());
        }
        assertThat(r.status()).isZero();
        assertThat(r.stdoutBytes()).isEqualTo(expected.toByteArray());
        assertThat(r.stdoutBytes()).hasSize((int) (rows.get(0).length() + rows.get(1).length() + rows.get(4).length()));
    }

    @Test
    void aFailingFileDoesNotStopTheOthers() {
        Cli.Result r = Cli.run("cat", Corpus.lime("s10_truncated_in_payload.lime"),
                "/msg01/rec02.scidac-binary-data", "/msg01/rec01.scidac-record-xml");

        assertThat(r.status()).isEqualTo(1);
        assertThat(Corpus.sha256(r.stdoutBytes())).isEqualTo(Corpus.rows("s10_truncated_in_payload.lime").get(0).sha256());
    }

    @Test
    void aDirectoryIsRefused() {
        Cli.Result r = Cli.run("cat", Corpus.lime("s08_ildg_scidac_gauge.lime"), "/msg01");

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).isEqualTo("containerfs cat: /msg01: is a directory\n");
    }

    @Test
    void aClosedOutputStopsCatQuietlyWithTheSigpipeStatus() {
        // like `containerfs cat big.lime /msg01/rec02.big-binary | head -c 10`: the reader goes away early
        OutputStream closedPipe = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = Containerfs.run(new String[] {"cat", Corpus.lime("s13_large_record.lime").toString(),
                "/msg01/rec02.big-binary"}, new PrintStream(closedPipe), new PrintStream(err));

        assertThat(status).isEqualTo(141);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
