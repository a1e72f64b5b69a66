package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class LsCommandTest {
    private static final String GAUGE = "s08_ildg_scidac_gauge.lime";

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path tmp;

    @Test
    void humanReadableSizesAreWhatCoreutilsLsShowsForTheSameSizes() throws Exception {
        // sparse files of each size, listed by the machine's own ls -lh: its size column is the reference
        long[] sizes = {0, 1, 1023, 1024, 1025, 1536, 10239, 10240, 10241, 102400, 1048575, 1048576, 1048577,
                10_485_760, 1_073_741_823, 1_073_741_824, 5L << 30, (1L << 40) + 1};
        List<String> ours = new ArrayList<>();
        List<String> coreutils = new ArrayList<>();
        for (long size : sizes) {
            java.nio.file.Path f = tmp.resolve("s" + size);
            try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(f.toString(), "rw")) {
                raf.setLength(size);
            }
            Process ls = new ProcessBuilder("ls", "-lh", f.toString()).redirectErrorStream(true).start();
            String line = new String(ls.getInputStream().readAllBytes()).trim();
            assertThat(ls.waitFor()).as(line).isZero();
            coreutils.add(line.split("\\s+")[4]);
            ours.add(LsCommand.humanSize(size));
        }
        assertThat(ours).containsExactlyElementsOf(coreutils);
    }

    @Test
    void dashHIsHumanReadableAndAttrsImpliesALongListing() {
        Cli.Result human = Cli.run("ls", "-lh", Corpus.lime(GAUGE), "/msg02");
        Cli.Result attrs = Cli.run("ls", "--attrs=type", Corpus.lime(GAUGE), "/msg02");
        Cli.Result help = Cli.run("ls", "--help");

        assertThat(human.status()).as(human.stderr()).isZero();
        assertThat(human.stdout()).doesNotContain("Usage:");
        assertThat(human.lines()).anySatisfy(l -> assertThat(l).matches("- +\\d+(\\.\\d)?K  rec\\d\\d\\..*"));
        assertThat(attrs.status()).as(attrs.stderr()).isZero();
        assertThat(attrs.lines()).isNotEmpty().allSatisfy(l -> assertThat(l).matches("- +\\d+  rec\\d\\d\\.\\S+  type=\\S+"));
        assertThat(help.status()).isZero();
        assertThat(help.stdout()).contains("-h, --human-readable").contains("--help");
    }

    static Stream<String> corpusFiles() {
        return Corpus.files().stream();
    }

    @ParameterizedTest
    @MethodSource("corpusFiles")
    void recursiveListingShowsEveryManifestRecordInFileOrder(String file) {
        Cli.Result r = Cli.run("ls", "-R", Corpus.lime(file));

        List<String> expected = new ArrayList<>();
        Set<String> messages = new LinkedHashSet<>();
        for (Corpus.Row row : Corpus.rows(file)) {
            String message = String.format("/msg%02d/", row.message());
            if (messages.add(message)) {
                expected.add(message);
            }
            expected.add(row.path());
        }
        assertThat(r.stderr()).isEmpty();
        assertThat(r.status()).isZero();
        assertThat(r.lines()).containsExactlyElementsOf(expected);
    }

    /** Issue 26.4: a gzip-compressed container lists as the file itself (long listing: sizes and attributes too). */
    @Test
    void aGzippedLimeFileListsAsTheFileItself() throws Exception {
        java.nio.file.Path gz = tmp.resolve(GAUGE + ".gz");
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(java.nio.file.Files.newOutputStream(gz))) {
            java.nio.file.Files.copy(Corpus.lime(GAUGE), out);
        }
        Cli.Result plain = Cli.run("ls", "-l", "-R", Corpus.lime(GAUGE));
        Cli.Result compressed = Cli.run("ls", "-l", "-R", gz);

        assertThat(compressed.status()).as(compressed.stderr()).isZero();
        assertThat(compressed.stderr()).isEmpty();
        assertThat(compressed.lines()).isNotEmpty().containsExactly(plain.lines());
        assertThat(Cli.run("cat", gz, "/msg02/rec04.ildg-binary-data").stdoutBytes())
                .isEqualTo(Cli.run("cat", Corpus.lime(GAUGE), "/msg02/rec04.ildg-binary-data").stdoutBytes());
    }

    @Test
    void plainListingShowsTheNamesOfOneDirectory() {
        assertThat(Cli.run("ls", Corpus.lime(GAUGE)).lines()).containsExactly("msg01/", "msg02/");
        assertThat(Cli.run("ls", Corpus.lime(GAUGE), "/msg01").lines())
                .containsExactly("rec01.scidac-private-file-xml", "rec02.scidac-file-xml");
        assertThat(Cli.run("ls", Corpus.lime(GAUGE), "msg01").lines())
                .as("a relative container path starts at the root")
                .containsExactly("rec01.scidac-private-file-xml", "rec02.scidac-file-xml");
    }

    @Test
    void longListingShowsTypeSizeNameAndTheLimeAttributesCompactly() {
        Cli.Result r = Cli.run("ls", "-l", Corpus.lime(GAUGE), "/msg02");

        assertThat(r.status()).isZero();
        assertThat(r.lines()).hasSize(6);
        assertThat(r.lines()[0]).matches("- +303  rec01\\.scidac-private-record-xml  type=scidac-private-record-xml mb "
                + "version=1 padding=1 headerOffset=536 dataOffset=680 message=2 record=1");
        assertThat(r.lines()[3]).startsWith("-         9216  rec04.ildg-binary-data  ")
                .doesNotContain(" mb").doesNotContain(" me ").doesNotContain("length=");
        assertThat(r.lines()[5]).contains("rec06.ildg-data-lfn").contains(" me ");
    }

    @Test
    void longRecursiveListingMarksDirectoriesAndEveryRowSize() {
        Cli.Result r = Cli.run("ls", "-l", "-R", Corpus.lime("s04_padding_len_0_to_17.lime"));

        assertThat(r.lines()[0]).matches("d +0  /msg01/  message=1 records=18");
        List<Corpus.Row> rows = Corpus.rows("s04_padding_len_0_to_17.lime");
        for (int i = 0; i < rows.size(); i++) {
            assertThat(r.lines()[i + 1]).startsWith(String.format("- %12d  %s  ", rows.get(i).length(), rows.get(i).path()));
        }
    }

    @Test
    void chosenAttributesAreShownAsKeyValueEvenWhenFalse() {
        Cli.Result r = Cli.run("ls", "-l", "--attrs=mb,me,length", Corpus.lime(GAUGE), "/msg01");

        assertThat(r.lines()).containsExactly(
                "-          148  rec01.scidac-private-file-xml  mb=true me=false length=148",
                "-           89  rec02.scidac-file-xml  mb=false me=true length=89");
    }

    @Test
    void listingAFileShowsThatFile() {
        assertThat(Cli.run("ls", Corpus.lime(GAUGE), "/msg02/rec04.ildg-binary-data").lines())
                .containsExactly("rec04.ildg-binary-data");
    }

    @Test
    void aTruncatedRecordIsListedWithItsDeclaredSize() {
        Cli.Result r = Cli.run("ls", "-l", "-R", Corpus.lime("s10_truncated_in_payload.lime"));

        assertThat(r.status()).isZero();
        assertThat(r.lines()[2]).startsWith("-         4608  /msg01/rec02.scidac-binary-data  ").contains(" truncated");
    }

    @Test
    void aMissingContainerPathIsOneErrorLine() {
        Cli.Result r = Cli.run("ls", Corpus.lime(GAUGE), "/msg09");

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEqualTo("containerfs ls: /msg09: no such file or directory\n");
    }

    @Test
    void anEmptyContainerListsNothing() {
        Cli.Result r = Cli.run("ls", "-R", Corpus.lime("s12_empty_file.lime"));

        assertThat(r.status()).isZero();
        assertThat(r.stdout()).isEmpty();
    }
}
