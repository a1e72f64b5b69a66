package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.containerfs.core.ContainerFileSystemProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example programs in samples/ run as the README says: single-file source programs on the provider alone. */
class SamplesTest {
    private static final Path ROOT = Corpus.repositoryRoot();

    @TempDir
    Path tmp;

    /** The provider jar, or its classes directory when the tests run inside the reactor before packaging. */
    static String providerClassPath() throws Exception {
        return Path.of(ContainerFileSystemProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output;
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Compiles every program in samples/ for Java 17, as the README promises, into {@code classes}. */
    static void compileForJava17(Path classes) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        List<String> arguments = new java.util.ArrayList<>(List.of("--release", "17", "-Xlint:all", "-Werror",
                "-cp", providerClassPath(), "-d", classes.toString()));
        try (var sources = Files.list(ROOT.resolve("samples"))) {
            sources.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> arguments.add(p.toString()));
        }
        assertThat(arguments).as("every example program").hasSizeGreaterThan(10);
        int status = javac.run(null, diagnostics, diagnostics, arguments.toArray(String[]::new));
        assertThat(status).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
    }

    @Test
    void readLimeRunsAsTheReadmeSaysAndReadsTheSample() throws Exception {
        // exactly the README's form: a single-file source program on the provider alone
        String output = run(List.of(java(), "-cp", providerClassPath(), "samples/ReadLime.java", "samples/lime/ildg.lime"));

        assertThat(output).contains("records=8").contains("/msg02/rec04.ildg-binary-data").contains("9216 bytes")
                .contains("type=scidac-private-file-xml mb=true me=false length=148 dataOffset=144")
                .contains("<scidacFile>");
    }

    @Test
    void bothSamplesCompileForJava17AndAppendLimeAppendsAMessageEachRun() throws Exception {
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        compileForJava17(classes);
        Path file = tmp.resolve("new.lime");
        List<String> append = List.of(java(), "-cp", providerClassPath() + java.io.File.pathSeparator + classes,
                "AppendLime", file.toString());

        run(append);
        String second = run(append);

        assertThat(second).contains("appended /msg02");
        Cli.Result ls = Cli.run("ls", "-R", file);
        assertThat(ls.lines()).containsExactly("/msg01/", "/msg01/rec01.sample-xml", "/msg01/rec02.sample-binary-data",
                "/msg02/", "/msg02/rec01.sample-xml", "/msg02/rec02.sample-binary-data");
        assertThat(Cli.run("verify", file).status()).isZero();
        assertThat(Files.size(file)).as("a LIME file, not a zip archive").isEqualTo(2 * (144 + 48 + 144 + 65536));
    }

    @Test
    void theSampleContainersAreTheCorpusFilesTheyCameFrom() throws IOException {
        assertThat(Files.mismatch(ROOT.resolve("samples/lime/ildg.lime"), Corpus.lime("s08_ildg_scidac_gauge.lime"))).isEqualTo(-1);
        assertThat(Files.mismatch(ROOT.resolve("samples/lime/multi-message.lime"), Corpus.lime("s03_multi_msg_pack.lime"))).isEqualTo(-1);
        assertThat(Files.mismatch(ROOT.resolve("samples/lime/truncated.lime"), Corpus.lime("s10_truncated_in_payload.lime"))).isEqualTo(-1);
    }
}
