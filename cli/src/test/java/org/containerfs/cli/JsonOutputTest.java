package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.containerfs.core.ContainerFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code ls}, {@code info} and {@code verify --json}, parsed with Jackson and compared with the provider's own attributes. */
class JsonOutputTest {
    private static final Path ROOT = Corpus.repositoryRoot();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode parse(String text) throws Exception {
        return JSON.readTree(text);
    }

    /** Every attribute the provider gives equals its JSON form: raw bytes as hex, numbers, flags and text as such. */
    private static void assertSameAttributes(JsonNode json, Map<String, Object> expected) {
        List<String> names = new ArrayList<>();
        json.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactlyElementsOf(expected.keySet());
        for (Map.Entry<String, Object> e : expected.entrySet()) {
            assertSameValue(json.get(e.getKey()), e.getValue(), e.getKey() + "=" + json.get(e.getKey()));
        }
    }

    /** One value in its documented JSON form (docs/json.md): lists and arrays element by element, other objects as their text. */
    private static void assertSameValue(JsonNode node, Object v, String what) {
        {
            if (v instanceof byte[] bytes) {
                assertThat(node.asText()).as(what).isEqualTo(HexFormat.of().formatHex(bytes));
            } else if (v instanceof Boolean b) {
                assertThat(node.isBoolean() && node.booleanValue() == b).as(what).isTrue();
            } else if (v instanceof Double || v instanceof Float) {
                assertThat(node.doubleValue()).as(what).isEqualTo(((Number) v).doubleValue());
            } else if (v instanceof Number n) {
                assertThat(node.isIntegralNumber() && node.longValue() == n.longValue()).as(what).isTrue();
            } else if (v instanceof String s) {
                assertThat(node.isTextual() && node.textValue().equals(s)).as(what).isTrue();
            } else if (v instanceof java.util.Collection<?> || (v != null && v.getClass().isArray())) {
                List<Object> items = new ArrayList<>();
                if (v instanceof java.util.Collection<?> c) {
                    items.addAll(c);
                } else {
                    for (int i = 0; i < java.lang.reflect.Array.getLength(v); i++) {
                        items.add(java.lang.reflect.Array.get(v, i));
                    }
                }
                assertThat(node.isArray() && node.size() == items.size()).as(what).isTrue();
                for (int i = 0; i < items.size(); i++) {
                    assertSameValue(node.get(i), items.get(i), what + "[" + i + "]");
                }
            } else if (v == null) {
                assertThat(node.isNull()).as(what).isTrue();
            } else {
                assertThat(node.isTextual() && node.textValue().equals(v.toString())).as(what).isTrue();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lime/ildg.lime", "gsd/trajectory.gsd", "scda/checkpoint.scda", "sion/spikes.sion",
            "g3/observation.g3.gz"})
    void lsRecursiveJsonLinesCarryEveryEntryAndTheProvidersAttributes(String sample) throws Exception {
        Path file = ROOT.resolve("samples").resolve(sample);

        Cli.Result r = Cli.run("ls", "-R", "--json", file);

        assertThat(r.status()).as(r.stderr()).isZero();
        String[] lines = r.lines();
        try (FileSystem fs = ContainerFileSystems.open(file); Stream<Path> walk = Files.walk(fs.getPath("/"))) {
            List<Path> expected = walk.skip(1).toList();
            assertThat(lines).hasSize(expected.size());
            for (int i = 0; i < lines.length; i++) {
                JsonNode entry = parse(lines[i]);
                Path p = fs.getPath(entry.get("path").asText());
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                assertThat(entry.get("type").asText()).isEqualTo(a.isDirectory() ? "directory" : "file");
                assertThat(entry.get("size").longValue()).isEqualTo(a.size());
                assertThat(entry.get("format").asText()).isEqualTo(fs.provider().getScheme());
                assertSameAttributes(entry.get("attributes"), Files.readAttributes(p, fs.provider().getScheme() + ":*"));
            }
            assertThat(List.of(lines).stream().map(l -> l.replaceAll("^\\{\"path\":\"([^\"]*)\".*", "$1")).toList())
                    .containsExactlyInAnyOrderElementsOf(expected.stream().map(Path::toString).toList());
        }
    }

    @Test
    void lsJsonIsOneDocumentWithRawTypeBytesAsHex() throws Exception {
        Path file = ROOT.resolve("samples/lime/ildg.lime");

        Cli.Result r = Cli.run("ls", "--json", file, "/msg01");

        assertThat(r.lines()).hasSize(1);
        JsonNode doc = parse(r.stdout());
        assertThat(doc.get("container").asText()).isEqualTo(file.toAbsolutePath().normalize().toUri().toString())
                .startsWith("file:///");
        assertThat(doc.get("format").asText()).isEqualTo("lime");
        assertThat(doc.get("path").asText()).isEqualTo("/msg01");
        JsonNode first = doc.get("entries").get(0);
        assertThat(first.get("name").asText()).isEqualTo("rec01.scidac-private-file-xml");
        assertThat(first.get("attributes").get("type").asText())
                .isEqualTo(HexFormat.of().formatHex("scidac-private-file-xml".getBytes()));
        assertThat(first.get("attributes").get("mb").booleanValue()).isTrue();
    }

    @Test
    void namesWithQuotesBackslashesAndControlBytesAreEscaped() throws Exception {
        String odd = "a\"b\\c\u0001d\u00e9\t";
        assertThat(parse(Json.of(Map.of("k", odd))).get("k").asText()).isEqualTo(odd);
        assertThat(parse(Json.of(List.of(Double.NaN, 1.5, -3L, true))).toString()).isEqualTo("[\"NaN\",1.5,-3,true]");
        assertThat(parse(Json.of(Map.of("raw", new byte[] {0, (byte) 0xff}))).get("raw").asText()).isEqualTo("00ff");
        assertThat(parse(Json.of("\ud800x")).asText()).isEqualTo("\ud800x");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lime/ildg.lime", "lime/truncated.lime", "gsd/trajectory.gsd", "scda/checkpoint.scda",
            "sion/spikes.sion", "g3/observation.g3"})
    void infoJsonCarriesTheRootAttributesCountsAndDamage(String sample) throws Exception {
        Path file = ROOT.resolve("samples").resolve(sample);

        Cli.Result r = Cli.run("info", "--json", file);

        assertThat(r.status()).as(r.stderr()).isZero();
        JsonNode doc = parse(r.stdout());
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), fs.provider().getScheme() + ":*");
            assertSameAttributes(doc.get("attributes"), root);
            assertThat(doc.get("format").asText()).isEqualTo(fs.provider().getScheme());
            long files;
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                files = walk.filter(Files::isRegularFile).count();
            }
            assertThat(doc.get("files").longValue()).isEqualTo(files);
            assertThat(doc.get("damage").isArray()).isTrue();
            assertThat(doc.get("damage").isEmpty()).isEqualTo(Values.isBlank(root.get("damage")));
            assertThat(doc.has("uncommittedTail")).isEqualTo(root.containsKey("uncommittedTail"));
        }
    }

    @Test
    void verifyJsonListsEveryFailureAndKeepsTheExitStatus() throws Exception {
        Cli.Result damaged = Cli.run("verify", "--json", ROOT.resolve("samples/lime/truncated.lime"));
        Cli.Result sound = Cli.run("verify", "--json", ROOT.resolve("samples/scda/checkpoint.scda"));

        assertThat(damaged.status()).isEqualTo(1);
        assertThat(damaged.lines()).hasSize(1);
        JsonNode d = parse(damaged.stdout());
        assertThat(d.get("sound").booleanValue()).isFalse();
        assertThat(d.get("files").longValue()).isEqualTo(2);
        assertThat(d.get("bytesRead").longValue()).isEqualTo(140);
        List<String> paths = new ArrayList<>();
        for (Iterator<JsonNode> it = d.get("failures").elements(); it.hasNext(); ) {
            JsonNode f = it.next();
            paths.add(f.get("path").asText());
            assertThat(f.get("reason").asText()).isNotBlank();
        }
        assertThat(paths).containsExactly("/", "/msg01/rec02.scidac-binary-data");
        assertThat(d.get("damage").get(0).asText()).contains("truncated payload");

        assertThat(sound.status()).isZero();
        JsonNode s = parse(sound.stdout());
        assertThat(s.get("sound").booleanValue()).isTrue();
        assertThat(s.get("failures").isEmpty()).isTrue();
        assertThat(s.get("format").asText()).isEqualTo("scda");
    }

    @Test
    void verifyJsonOfAFileThatCannotBeOpenedIsStillOneDocument() throws Exception {
        Path bad = Files.createTempFile("bad", ".lime");
        try {
            byte[] header = new byte[144]; // a whole LIME header of version 2, which no reader knows
            System.arraycopy(new byte[] {0x45, 0x67, (byte) 0x89, (byte) 0xab, 0, 2}, 0, header, 0, 6);
            Files.write(bad, header);
            Cli.Result r = Cli.run("verify", "--json", "--env", "format=lime", bad);
            assertThat(r.status()).isEqualTo(1);
            JsonNode doc = parse(r.stdout());
            assertThat(doc.get("sound").booleanValue()).isFalse();
            assertThat(doc.get("failures").get(0).get("path").asText()).isEqualTo(bad.toUri().toString());
        } finally {
            Files.delete(bad);
        }
    }
}
