package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The GSD, scda, SIONlib and G3 samples: remade byte for byte by their committed generator, listed, verified and
 * read by their example programs (run as the README says), appended to by the append examples, and the GSD ones
 * read by the reference library.
 */
class FormatSamplesTest {
    private static final Path ROOT = Corpus.repositoryRoot();
    static final List<String> SAMPLES = List.of("gsd/trajectory.gsd", "scda/checkpoint.scda", "sion/spikes.sion",
            "sion/spikes.sion.000001", "g3/observation.g3", "g3/observation.g3.gz");

    @TempDir
    static Path classes;

    @TempDir
    Path tmp;

    @BeforeAll
    static void compileTheExamples() throws Exception {
        SamplesTest.compileForJava17(classes);
    }

    private static String runCompiled(String mainClass, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(SamplesTest.java(), "-cp",
                SamplesTest.providerClassPath() + File.pathSeparator + classes, mainClass));
        command.addAll(List.of(args));
        return SamplesTest.run(command);
    }

    @Test
    void theGeneratorRemakesEveryCommittedSampleByteForByte() throws Exception {
        // exactly the documented command, into a fresh directory
        String output = SamplesTest.run(List.of(SamplesTest.java(), "-cp", SamplesTest.providerClassPath(),
                "samples/MakeSamples.java", tmp.toString()));

        assertThat(output).contains("samples written under");
        for (String sample : SAMPLES) {
            Path committed = ROOT.resolve("samples").resolve(sample);
            Path remade = tmp.resolve(sample);
            if (sample.endsWith(".gz")) {
                // the deflate stream may differ between zlib builds; what it holds may not
                assertThat(gunzip(remade)).as(sample).isEqualTo(gunzip(committed));
                assertThat(gunzip(committed)).isEqualTo(Files.readAllBytes(ROOT.resolve("samples/g3/observation.g3")));
            } else {
                assertThat(Files.mismatch(remade, committed)).as(sample + " differs from its remake").isEqualTo(-1);
            }
        }
        try (var left = Files.walk(tmp)) {
            assertThat(left.filter(Files::isRegularFile).count()).as("no staging or index files left").isEqualTo(SAMPLES.size());
        }
    }

    private static byte[] gunzip(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.readAllBytes();
        }
    }

    @ParameterizedTest
    @CsvSource({
            "gsd/trajectory.gsd, 21, 13",
            "scda/checkpoint.scda, 3, 9",
            "sion/spikes.sion, 0, 4",
            "g3/observation.g3, 4, 18",
            "g3/observation.g3.gz, 4, 18"})
    void everySampleIsListedAndVerifiedSound(String sample, int directories, int files) {
        Path file = ROOT.resolve("samples").resolve(sample);

        Cli.Result ls = Cli.run("ls", "-l", "-R", file);
        Cli.Result verify = Cli.run("verify", file);

        assertThat(ls.status()).as(ls.stderr()).isZero();
        assertThat(ls.lines()).hasSize(directories + files);
        assertThat(verify.status()).as(verify.stdout()).isZero();
        assertThat(verify.stdout()).contains(directories + " directories, " + files + " files").endsWith("0 failures: OK\n");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ReadGsd | gsd/trajectory.gsd | schema=hoomd frames=3 | /2/particles/position",
            "ReadScda | scda/checkpoint.scda | sections=5 | type=A compressed=true",
            "ReadSion | sion/spikes.sion | {tasks=4, files=2, blockSize=512} | globalRank=3 in spikes.sion.000001",
            "ReadG3 | g3/observation.g3.gz | {frames=4, compressed=true} | StringValue[value=RCW38]"})
    void eachReadExampleReadsItsSampleAsTheReadmeSays(String example, String sample, String header, String line)
            throws Exception {
        String output = SamplesTest.run(List.of(SamplesTest.java(), "-cp", SamplesTest.providerClassPath(),
                "samples/" + example + ".java", "samples/" + sample));

        assertThat(output).contains(header).contains(line);
    }

    @Test
    void theReadExamplesDecodeValues() throws Exception {
        assertThat(runCompiled("ReadGsd", ROOT.resolve("samples/gsd/trajectory.gsd").toString()))
                .contains("particles/position of frame 2:", "     1.500    1.000    0.750");
        assertThat(runCompiled("ReadScda", ROOT.resolve("samples/scda/checkpoint.scda").toString()))
                .contains("vendor=\"containerfs samples\"", "/0002.A.global first quadrant/000001 = 34", "000000: 64 bytes");
        assertThat(runCompiled("ReadSion", ROOT.resolve("samples/sion/spikes.sion").toString()))
                .contains("# sender time_ms (rank 3)\n131 3.5\n");
        assertThat(runCompiled("ReadG3", ROOT.resolve("samples/g3/observation.g3").toString()))
                .contains("DoubleValue[value=-0.7844]", "crcOk=true");
    }

    @ParameterizedTest
    @CsvSource({
            "AppendGsd, gsd/trajectory.gsd, frames now: 4, frames now: 1",
            "AppendScda, scda/checkpoint.scda, sections now: 7, sections now: 2",
            "AppendG3, g3/observation.g3, frames now: 5, frames now: 1"})
    void eachAppendExampleAppendsToACopyOfItsSampleAndToANewFile(String example, String sample, String after,
            String afterFresh) throws Exception {
        Path copy = Files.copy(ROOT.resolve("samples").resolve(sample), tmp.resolve(Path.of(sample).getFileName()));
        Path fresh = tmp.resolve("new-" + copy.getFileName());

        assertThat(runCompiled(example, copy.toString())).contains(after);
        assertThat(runCompiled(example, fresh.toString())).contains(afterFresh);

        for (Path file : List.of(copy, fresh)) {
            Cli.Result verify = Cli.run("verify", file);
            assertThat(verify.status()).as(verify.stdout()).isZero();
            try (FileSystem fs = ContainerFileSystems.open(file)) {
                assertThat(fs.provider().getScheme()).as("not a zip file").isEqualTo(Path.of(sample).getParent().toString());
            }
        }
    }

    @Test
    void writeSionWritesANewSetAndRefusesAnExistingFile() throws Exception {
        Path file = tmp.resolve("new.sion");

        assertThat(runCompiled("WriteSion", file.toString()))
                .contains("exists before close: false", "exists after close: true", "tasks: 3");
        assertThat(Cli.run("verify", file).status()).isZero();
        assertThat(Cli.run("cat", file, "/task000002").stdout()).startsWith("task 2 line 0\n").contains("task 2 line 29\n");
    }

    @Test
    void theReferenceGsdLibraryReadsTheSampleAndWhatAppendGsdAppended() throws Exception {
        Path appended = Files.copy(ROOT.resolve("samples/gsd/trajectory.gsd"), tmp.resolve("run.gsd"));
        runCompiled("AppendGsd", appended.toString());

        String script = String.join("\n",
                "import sys, gsd.hoomd",
                "for name in sys.argv[1:]:",
                "    t = gsd.hoomd.open(name, 'rb')",
                "    for f in t:",
                "        print(len(t), f.configuration.step, f.particles.N, ','.join(f.particles.types),",
                "              list(f.particles.typeid), [round(float(x), 3) for x in f.particles.position[1]],",
                "              list(f.configuration.box[:3]), f.log.get('md/compute/ThermodynamicQuantities/potential_energy'))");
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", script,
                ROOT.resolve("samples/gsd/trajectory.gsd").toString(), appended.toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();

        List<String> lines = output.lines().toList();
        assertThat(lines).hasSize(3 + 4);
        assertThat(lines.get(0)).isEqualTo("3 0 8 A,B [0, 1, 0, 1, 0, 1, 0, 1] [1.0, -1.0, -1.0] [4.0, 4.0, 4.0] [-3.5]");
        assertThat(lines.get(2)).isEqualTo("3 2000 8 A,B [0, 1, 0, 1, 0, 1, 0, 1] [1.5, -1.0, -1.25] [4.0, 4.0, 4.0] [-3.]");
        // the appended frame: its own step and positions, the rest from frame 0 as HOOMD's readers do
        assertThat(lines.get(6)).startsWith("4 3000 8 A,B [0, 1, 0, 1, 0, 1, 0, 1] [3.3, 3.4, 3.5]");
    }
}
