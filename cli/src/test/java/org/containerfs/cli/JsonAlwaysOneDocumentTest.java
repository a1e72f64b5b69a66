package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/json.md: the standard output of {@code --json} is JSON whatever happens (one document; {@code ls -R} one per
 * line), with the exit status of the text form: an uncommitted tail, damage, a missing file, bytes that are no
 * container, a directory, a refused option, a usage error. Every case is checked by parsing standard output.
 */
class JsonAlwaysOneDocumentTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = Corpus.repositoryRoot();

    @TempDir
    static Path dir;
    static Path truncatedG3;
    static Path gsdWithTail;
    static Path text;

    @BeforeAll
    static void files() throws Exception {
        byte[] g3 = Files.readAllBytes(ROOT.resolve("samples/g3/observation.g3"));
        truncatedG3 = Files.write(dir.resolve("truncated.g3"), Arrays.copyOf(g3, 1800)); // cut inside the last frame
        byte[] gsd = Files.readAllBytes(ROOT.resolve("samples/gsd/trajectory.gsd"));
        // what a writer killed during a frame leaves: chunk bytes after the committed index
        gsdWithTail = Files.write(dir.resolve("killed.gsd"), Arrays.copyOf(gsd, gsd.length + 3000));
        text = Files.writeString(dir.resolve("notes.txt"), "plain text, no container\n");
    }

    /** The documents on standard output, each line one (a single document is one line too). */
    private static List<JsonNode> documents(Cli.Result r) throws Exception {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = JSON.readerFor(JsonNode.class).readValues(r.stdout())) {
            while (it.hasNext()) {
                docs.add(it.next());
            }
        }
        assertThat(r.lines()).as("one document per line: %s", r.stdout()).hasSize(docs.size());
        return docs;
    }

    private static JsonNode onlyDocument(Cli.Result r) throws Exception {
        List<JsonNode> docs = documents(r);
        assertThat(docs).as("stdout: %s", r.stdout()).hasSize(1);
        return docs.get(0);
    }

    private static String uri(Path p) {
        return p.toAbsolutePath().normalize().toUri().toString();
    }

    @Test
    void anUncommittedTailIsInTheDocumentNotAheadOfIt() throws Exception {
        for (Path file : List.of(truncatedG3, gsdWithTail)) {
            Cli.Result text = Cli.run("verify", file);
            assertThat(text.stdout()).as("the text form notes it").contains("NOTE /: uncommitted tail");
            Cli.Result r = Cli.run("verify", "--json", file);
            assertThat(r.status()).as(r.stderr()).isZero();
            JsonNode doc = onlyDocument(r);
            assertThat(doc.get("sound").booleanValue()).isTrue();
            assertThat(doc.get("uncommittedTail").asText()).isNotBlank();
            assertThat(doc.get("container").asText()).isEqualTo(uri(file));
            for (String command : List.of("info", "ls")) {
                Cli.Result other = Cli.run(command, "--json", file);
                assertThat(other.status()).isZero();
                assertThat(onlyDocument(other).get("container").asText()).isEqualTo(uri(file));
            }
        }
    }

    @Test
    void aContainerThatCannotBeOpenedIsADocumentWithTheError() throws Exception {
        Path missing = dir.resolve("absent.lime");
        Object[][] cases = {
            {missing, "no such container file"},
            {text, "not a container of a supported format"},
        }; // a directory is no error: ls, info and verify take it as a tree of its containers (docs/ensemble.md)
        for (Object[] c : cases) {
            Path file = (Path) c[0];
            for (List<String> command : List.of(List.of("verify", "--json"), List.of("info", "--json"),
                    List.of("ls", "--json"), List.of("ls", "-R", "--json"))) {
                List<Object> args = new ArrayList<>(command);
                args.add(file);
                Cli.Result r = Cli.run(args.toArray());
                Cli.Result plain = Cli.run(args.stream().filter(a -> !a.equals("--json")).toArray());
                assertThat(r.status()).as("%s %s", command, file).isEqualTo(plain.status()).isEqualTo(1);
                assertThat(r.stderr()).as("errors stay on stderr as text").isEqualTo(plain.stderr()).contains((String) c[1]);
                JsonNode doc = onlyDocument(r);
                assertThat(doc.get("container").asText()).isEqualTo(uri(file));
                assertThat(doc.get("error").asText()).contains((String) c[1]);
            }
        }
    }

    @Test
    void usageErrorsAreDocumentsToo() throws Exception {
        Path sample = ROOT.resolve("samples/lime/ildg.lime");
        Cli.Result refused = Cli.run("info", "--json", "--env", "accessMode=readWrite", sample);
        assertThat(refused.status()).isEqualTo(2);
        assertThat(onlyDocument(refused).get("error").asText()).contains("this command only reads");

        Cli.Result unknownOption = Cli.run("verify", "--json", "--no-such-option", sample);
        assertThat(unknownOption.status()).isEqualTo(2);
        assertThat(unknownOption.stderr()).contains("Unknown option");
        assertThat(onlyDocument(unknownOption).get("error").asText()).contains("--no-such-option");

        Cli.Result noContainer = Cli.run("ls", "--json");
        assertThat(noContainer.status()).isEqualTo(2);
        JsonNode doc = onlyDocument(noContainer);
        assertThat(doc.get("container").isNull()).isTrue();
        assertThat(doc.get("error").asText()).contains("<container>");
    }

    @Test
    void damageFoundWhileReadingIsTheReportNotAnError() throws Exception {
        Cli.Result r = Cli.run("verify", "--json", ROOT.resolve("samples/lime/truncated.lime"));
        assertThat(r.status()).isEqualTo(1);
        JsonNode doc = onlyDocument(r);
        assertThat(doc.get("sound").booleanValue()).isFalse();
        assertThat(doc.has("error")).isFalse();
        assertThat(doc.get("checked").asText()).isEqualTo("structure and contents");
    }
}
