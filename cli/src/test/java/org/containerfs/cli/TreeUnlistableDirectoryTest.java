package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * info and verify of a tree with a directory that cannot be listed (permission denied): one FAIL line for it,
 * the rest of the tree done, the summary counting it, exit status 1, and the JSON document listing it. As root
 * (whom permissions do not stop) the command runs in a child JVM without the capabilities that bypass them.
 */
class TreeUnlistableDirectoryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    Path locked;
    /** Whether this process reads a directory whose permissions say no (root does): then a child JVM without them. */
    boolean bypassesPermissions;

    @BeforeEach
    void makeTree() throws IOException {
        Files.createDirectories(dir.resolve("a"));
        Files.copy(Corpus.lime("s08_ildg_scidac_gauge.lime"), dir.resolve("a/conf.1000.lime"));
        locked = Files.createDirectories(dir.resolve("b"));
        Files.copy(Corpus.lime("s08_ildg_scidac_gauge.lime"), locked.resolve("conf.2000.lime"));
        Files.writeString(dir.resolve("notes.txt"), "notes\n");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        try (DirectoryStream<Path> s = Files.newDirectoryStream(locked)) {
            s.forEach(p -> { });
            bypassesPermissions = true;
        } catch (java.nio.file.AccessDeniedException expected) {
            bypassesPermissions = false;
        }
    }

    @AfterEach
    void unlock() throws IOException {
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
    }

    private record Run(int status, List<String> lines, String stdout, String stderr) {}

    private Run containerfs(String... args) throws Exception {
        if (!bypassesPermissions) {
            Cli.Result r = Cli.run((Object[]) args);
            return new Run(r.status(), List.of(r.lines()), r.stdout(), r.stderr());
        }
        List<String> command = new ArrayList<>(List.of("setpriv", "--bounding-set=-dac_override,-dac_read_search",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "org.containerfs.cli.Containerfs"));
        command.addAll(List.of(args));
        Path out = dir.resolveSibling(dir.getFileName() + ".out");
        Path err = dir.resolveSibling(dir.getFileName() + ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        return new Run(p.exitValue(), stdout.lines().toList(), stdout, Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void verifySaysOneFailLineForItVerifiesTheRestAndExitsOne() throws Exception {
        Run r = containerfs("verify", dir.toString());
        assertThat(r.status()).as(r.stdout() + r.stderr()).isEqualTo(1);
        assertThat(r.lines()).filteredOn(l -> l.startsWith("FAIL ")).singleElement().asString()
                .startsWith("FAIL /b: cannot list: ");
        assertThat(r.lines()).anySatisfy(l -> assertThat(l).startsWith("OK /a/conf.1000.lime: lime, "));
        assertThat(r.lines().get(r.lines().size() - 1)).contains(": 1 containers, 1 OK, 0 DAMAGED, 1 plain file (not read), "
                + "1 not listed (FAIL), ").endsWith(" bytes read: FAIL");

        Run json = containerfs("verify", "--json", dir.toString());
        assertThat(json.status()).isEqualTo(1);
        JsonNode doc = JSON.readTree(json.stdout());
        assertThat(doc.get("sound").asBoolean()).isFalse();
        assertThat(doc.get("containers").asInt()).isEqualTo(1);
        assertThat(doc.get("damaged").asInt()).isZero();
        assertThat(doc.get("unlisted")).hasSize(1);
        assertThat(doc.get("unlisted").get(0).get("path").asText()).isEqualTo("/b");
        assertThat(doc.get("unlisted").get(0).get("reason").asText()).startsWith("cannot list: ");
    }

    @Test
    void infoSaysOneFailLineForItCountsTheRestAndExitsOne() throws Exception {
        Run r = containerfs("info", dir.toString());
        assertThat(r.status()).as(r.stdout() + r.stderr()).isEqualTo(1);
        assertThat(r.lines()).filteredOn(l -> l.startsWith("FAIL ")).singleElement().asString()
                .startsWith("FAIL /b: cannot list: ");
        assertThat(r.lines()).anySatisfy(l -> assertThat(l).matches("containers: +1 \\(lime 1\\)"));
        assertThat(r.lines()).anySatisfy(l -> assertThat(l).matches("not listed: +1 .*"));

        Run json = containerfs("info", "--json", dir.toString());
        assertThat(json.status()).isEqualTo(1);
        JsonNode doc = JSON.readTree(json.stdout());
        assertThat(doc.get("containers").asInt()).isEqualTo(1);
        assertThat(doc.get("directories").asInt()).isEqualTo(2);
        assertThat(doc.get("unlisted")).hasSize(1);
        assertThat(doc.get("unlisted").get(0).get("path").asText()).isEqualTo("/b");
    }
}
