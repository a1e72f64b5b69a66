package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.ensemble.GeneratedEnsemble;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line over a directory of containers (issue 26, "the same through every door"): ls -R, cp -r,
 * cat, info and verify of a generated ensemble of 400 containers of all five formats, each container's
 * part equal to its single open (paths, sizes, SHA-256).
 */
class EnsembleCliTest {
    static final int CONTAINERS = 400; // the library test walks 1,000; here each command reads them all
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path temp;
    static GeneratedEnsemble.Layout layout;
    static Path dir;
    /** The tree as single opens of its containers show it (relative path to "dir" or "size sha256"). */
    static Map<String, String> expected;

    @BeforeAll
    static void generate() throws IOException {
        layout = GeneratedEnsemble.make(temp.resolve("ensemble"), CONTAINERS);
        dir = layout.root();
        expected = GeneratedEnsemble.expectedTree(layout);
    }

    @Test
    void lsDashRListsEveryContainersInsideAsItsSingleOpen() {
        Cli.Result ls = Cli.run("ls", "-R", dir);
        assertThat(ls.status()).as(ls.stderr()).isZero();
        List<String> wanted = new ArrayList<>();
        expected.forEach((path, entry) -> {
            if (!path.isEmpty()) {
                wanted.add("/" + path + (entry.equals("dir") ? "/" : ""));
            }
        });
        assertThat(Arrays.asList(ls.lines())).containsExactlyInAnyOrderElementsOf(wanted);
    }

    @Test
    void cpDashRExtractsTheTreeEachContainerAsItsSingleOpen(@TempDir Path out) throws IOException {
        Path dest = out.resolve("extracted");
        Cli.Result cp = Cli.run("cp", "-r", "--env", "cacheContainers=16", dir, "/", dest);
        // the damaged container's cut record cannot be read whole: reported, not extracted, status 1
        assertThat(cp.status()).as(cp.stderr()).isEqualTo(1);
        assertThat(cp.stderr().lines()).singleElement().asString()
                .startsWith("containerfs cp: /" + layout.damaged() + "/").contains("(not extracted)");
        Map<String, String> wanted = new TreeMap<>(expected);
        wanted.values().removeIf(v -> v.endsWith(" unreadable"));
        assertThat(wanted).hasSize(expected.size() - 1);
        assertThat(GeneratedEnsemble.snapshot(dest)).isEqualTo(wanted);
    }

    @Test
    void cpOfOneContainersDirectoryAndCatOfARecord(@TempDir Path out) throws IOException {
        String gsd = first(".gsd");
        Cli.Result cp = Cli.run("cp", "-r", dir, "/" + gsd, out);
        assertThat(cp.status()).as(cp.stderr()).isZero();
        String name = gsd.substring(gsd.lastIndexOf('/') + 1);
        assertThat(GeneratedEnsemble.snapshot(out.resolve(name)))
                .isEqualTo(GeneratedEnsemble.singleOpen(dir.resolve(gsd)));
        String lime = first(".lime");
        Cli.Result cat = Cli.run("cat", dir, "/" + lime + "/msg02/rec02.ildg-binary-data");
        assertThat(cat.status()).as(cat.stderr()).isZero();
        try (FileSystem fs = ContainerFileSystems.open(dir.resolve(lime))) {
            assertThat(cat.stdoutBytes()).isEqualTo(Files.readAllBytes(fs.getPath("/msg02/rec02.ildg-binary-data")));
        }
        Cli.Result into = Cli.run("cp", "-r", dir, "/", dir.resolve("run1/out"));
        assertThat(into.status()).isEqualTo(2);
        assertThat(into.stderr()).contains("is inside");
        assertThat(dir.resolve("run1/out")).doesNotExist();
    }

    @Test
    void infoCountsTheTree() throws IOException {
        long records = 0;
        long recordBytes = 0;
        long innerDirectories = 0;
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String container = layout.containers().stream().filter(c -> e.getKey().startsWith(c + "/")).findFirst()
                    .orElse(null);
            if (container == null) {
                continue;
            }
            if (e.getValue().equals("dir")) {
                innerDirectories++;
            } else {
                records++;
                recordBytes += Long.parseLong(e.getValue().substring(0, e.getValue().indexOf(' ')));
            }
        }
        long plainBytes = 0;
        for (String f : layout.plainFiles()) {
            plainBytes += Files.size(dir.resolve(f));
        }
        Cli.Result info = Cli.run("info", "--json", "--env", "cacheContainers=16", dir);
        assertThat(info.status()).as(info.stderr()).isZero();
        JsonNode doc = JSON.readTree(info.stdout());
        assertThat(doc.get("format").asText()).isEqualTo("ensemble");
        assertThat(doc.get("directory").asText()).isEqualTo(dir.toUri().toString());
        assertThat(doc.get("directories").asLong()).isEqualTo(layout.directories().size());
        assertThat(doc.get("containers").asLong()).isEqualTo(CONTAINERS);
        for (String ext : GeneratedEnsemble.EXTENSIONS) {
            assertThat(doc.get("formats").get(ext).asLong()).as(ext)
                    .isEqualTo(layout.containers().stream().filter(c -> c.endsWith("." + ext)).count());
        }
        assertThat(doc.get("plainFiles").asLong()).isEqualTo(layout.plainFiles().size());
        assertThat(doc.get("plainBytes").asLong()).isEqualTo(plainBytes);
        assertThat(doc.get("records").asLong()).isEqualTo(records);
        assertThat(doc.get("recordBytes").asLong()).isEqualTo(recordBytes);
        assertThat(doc.get("innerDirectories").asLong()).isEqualTo(innerDirectories);
        assertThat(doc.get("bytes").asLong()).isEqualTo(plainBytes + recordBytes);
        assertThat(doc.get("damaged")).hasSize(1);
        assertThat(doc.get("damaged").get(0).get("path").asText()).isEqualTo("/" + layout.damaged());
        assertThat(doc.get("damaged").get(0).get("container").asText())
                .isEqualTo(dir.resolve(layout.damaged()).toUri().toString());
        assertThat(doc.get("peakContainersOpen").asInt()).isBetween(1, 16);

        Cli.Result text = Cli.run("info", dir);
        assertThat(text.status()).as(text.stderr()).isZero();
        assertThat(text.stdout()).containsPattern("(?m)^containers: +" + CONTAINERS + " \\(g3 \\d+, gsd \\d+, lime \\d+, "
                + "scda \\d+, sion \\d+\\)$");
        assertThat(text.stdout()).containsPattern("(?m)^records: +" + records + " ");
        assertThat(text.stdout()).containsPattern("(?m)^damaged: +1 container$");
        assertThat(text.stdout()).contains("  /" + layout.damaged() + ": ");
    }

    @Test
    void verifySaysOneLinePerContainerAndASummaryAndFailsOnTheDamagedOne() throws IOException {
        Cli.Result verify = Cli.run("verify", dir);
        assertThat(verify.status()).as(verify.stderr()).isEqualTo(1);
        List<String> lines = Arrays.asList(verify.lines());
        List<String> perContainer = lines.stream().filter(l -> l.startsWith("OK ") || l.startsWith("DAMAGED ")).toList();
        assertThat(perContainer).hasSize(CONTAINERS);
        assertThat(perContainer.stream().map(l -> l.substring(l.indexOf(' ') + 1, l.indexOf(": "))))
                .containsExactlyInAnyOrderElementsOf(layout.containers().stream().map(c -> "/" + c).toList());
        assertThat(perContainer).filteredOn(l -> l.startsWith("DAMAGED ")).singleElement().asString()
                .startsWith("DAMAGED /" + layout.damaged() + ": lime, ");
        assertThat(lines).anyMatch(l -> l.startsWith("FAIL /" + layout.damaged() + "/"));
        assertThat(lines.get(lines.size() - 1)).isEqualTo(dir + ": " + CONTAINERS + " containers, " + (CONTAINERS - 1)
                + " OK, 1 DAMAGED, " + layout.plainFiles().size() + " plain files (not read), "
                + bytesRead(lines) + " bytes read: DAMAGED");
        // each container's line says what its single verify says
        String sion = first(".sion");
        Cli.Result single = Cli.run("verify", dir.resolve(sion));
        assertThat(single.status()).isZero();
        String counts = single.stdout().substring(single.stdout().indexOf(": ") + 2, single.stdout().indexOf(", 0 failures"));
        assertThat(lines).contains("OK /" + sion + ": sion, " + counts);

        Cli.Result sound = Cli.run("verify", dir.resolve("run3"));
        assertThat(sound.status()).as(sound.stdout()).isZero();
        assertThat(sound.lines()[sound.lines().length - 1]).endsWith(" 0 DAMAGED, 1 plain file (not read), "
                + bytesRead(Arrays.asList(sound.lines())) + " bytes read: OK");
    }

    private static long bytesRead(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("OK ") || l.startsWith("DAMAGED "))
                .mapToLong(l -> Long.parseLong(l.replaceAll(".* (\\d+) bytes read.*", "$1"))).sum();
    }

    @Test
    void verifyJsonIsOneDocumentWithAResultPerContainer() throws IOException {
        Cli.Result verify = Cli.run("verify", "--json", "--env", "cacheContainers=16", dir);
        assertThat(verify.status()).isEqualTo(1);
        assertThat(verify.lines()).hasSize(1);
        JsonNode doc = JSON.readTree(verify.stdout());
        assertThat(doc.get("sound").asBoolean()).isFalse();
        assertThat(doc.get("containers").asLong()).isEqualTo(CONTAINERS);
        assertThat(doc.get("damaged").asLong()).isEqualTo(1);
        assertThat(doc.get("results")).hasSize(CONTAINERS);
        JsonNode damaged = null;
        for (JsonNode r : doc.get("results")) {
            if (!r.get("sound").asBoolean()) {
                damaged = r;
            }
        }
        assertThat(damaged.get("path").asText()).isEqualTo("/" + layout.damaged());
        assertThat(damaged.get("format").asText()).isEqualTo("lime");
        assertThat(damaged.get("failures")).isNotEmpty();
        // a result joins its container's own verify document by the container's URI, with the same counts
        Cli.Result single = Cli.run("verify", "--json", dir.resolve(layout.damaged()));
        JsonNode own = JSON.readTree(single.stdout());
        assertThat(damaged.get("container").asText()).isEqualTo(own.get("container").asText());
        for (String key : List.of("directories", "files", "bytesRead", "damage")) {
            assertThat(damaged.get(key)).as(key).isEqualTo(own.get(key));
        }
        assertThat(damaged.get("failures")).hasSameSizeAs(own.get("failures"));
    }

    private static String first(String extension) {
        return layout.containers().stream().filter(c -> c.endsWith(extension) && c.startsWith("run") && !c.equals(layout.damaged()))
                .findFirst().orElseThrow();
    }
}
