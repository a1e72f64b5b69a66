package org.containerfs.gsd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.gsd.GsdTestSupport.corpus;
import static org.containerfs.gsd.GsdTestSupport.create;
import static org.containerfs.gsd.GsdTestSupport.openRead;
import static org.containerfs.gsd.GsdTestSupport.openWrite;
import static org.containerfs.gsd.GsdTestSupport.python;
import static org.containerfs.gsd.GsdTestSupport.sha256;
import static org.containerfs.gsd.GsdTestSupport.writeChunk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both directions with python3-gsd 2.7 (the C library): files we create or append to are read by
 * gsd with identical frames and chunks and gsd appends to them; files gsd writes we read and append to.
 */
class GsdInteropTest {
    @TempDir
    Path tmp;

    private static final String[] TYPES = {"uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
        "float", "double"};
    private static final int[] SIZES = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8};

    /** The same lines gsd_tool.py dump prints, from our tree (sorted, so file order does not matter). */
    static List<String> ourDump(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        try (FileSystem fs = openRead(file)) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "gsd:*");
            lines.add("nframes " + root.get("frames"));
            lines.add("version " + root.get("version"));
            lines.add("application " + root.get("application"));
            lines.add("schema " + root.get("schema"));
            lines.add("schema_version " + root.get("schemaVersion"));
            try (Stream<Path> walk = Files.walk(fs.getPath("/"))) {
                for (Path p : walk.filter(Files::isRegularFile).toList()) {
                    Map<String, Object> a = Files.readAttributes(p, "gsd:*");
                    lines.add("chunk " + a.get("frame") + " " + HexFormat.of().formatHex((byte[]) a.get("rawName")) + " "
                            + a.get("typeId") + " " + a.get("N") + " " + a.get("M") + " " + sha256(Files.readAllBytes(p)));
                }
            }
        }
        return sorted(lines);
    }

    static List<String> dumpLines(String output) {
        return sorted(List.of(output.strip().split("\n")));
    }

    static List<String> pythonDump(Path file) throws IOException, InterruptedException {
        return dumpLines(python("dump", file.toString()).get(0));
    }

    private static List<String> sorted(List<String> lines) {
        List<String> header = new ArrayList<>(lines.subList(0, 5));
        header.addAll(lines.subList(5, lines.size()).stream().sorted().toList());
        return header;
    }

    static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** A JSON spec for gsd_tool.py write: frames of [namehex, type, M, datahex]. */
    static String spec(List<List<Object[]>> frames) {
        StringBuilder sb = new StringBuilder("{\"application\": \"python side\", \"schema\": \"interop\", "
                + "\"schema_version\": [2, 3], \"frames\": [");
        for (int f = 0; f < frames.size(); f++) {
            sb.append(f == 0 ? "" : ", ").append('[');
            List<Object[]> chunks = frames.get(f);
            for (int c = 0; c < chunks.size(); c++) {
                Object[] ch = chunks.get(c);
                sb.append(c == 0 ? "" : ", ").append("[\"")
                        .append(HexFormat.of().formatHex(((String) ch[0]).getBytes(StandardCharsets.UTF_8)))
                        .append("\", \"").append(ch[1]).append("\", ").append(ch[2]).append(", \"")
                        .append(HexFormat.of().formatHex((byte[]) ch[3])).append("\"]");
            }
            sb.append(']');
        }
        return sb.append("]}").toString();
    }

    /** Writes a spec file for gsd_tool.py write. */
    Path specFile(List<List<Object[]>> frames) throws IOException {
        Path spec = Files.createTempFile(tmp, "spec", ".json");
        Files.writeString(spec, spec(frames));
        return spec;
    }

    @Test
    void fileWeCreateIsReadIdenticallyByGsdWhichAppendsFramesWeThenRead() throws Exception {
        Path file = tmp.resolve("ours.gsd");
        Random r = new Random(42);
        try (FileSystem fs = create(file, Map.of("application", "containerfs test", "schema", "hoomd", "schemaVersion", "1.4"))) {
            for (int f = 0; f < 140; f++) { // past the first index growth and the first name list growth
                Files.createDirectory(fs.getPath("/" + f));
                Files.createDirectory(fs.getPath("/" + f + "/particles"));
                writeChunk(fs.getPath("/" + f + "/particles/position"), "float", 3, randomBytes(r, 5 * 12));
                int t = f % TYPES.length;
                writeChunk(fs.getPath("/" + f + "/col" + t), TYPES[t], 1 + f % 4, randomBytes(r, SIZES[t] * (1 + f % 4) * (f % 3)));
                if (f % 7 == 0) {
                    writeChunk(fs.getPath("/" + f + "/log%2Fquantity_with_a_rather_long_name_" + f), "double", 1, randomBytes(r, 8));
                }
                if (f % 2 == 0) {
                    Files.setAttribute(fs.getPath("/" + f), "gsd:commit", true);
                }
            }
        }
        List<String> ours = ourDump(file);
        assertThat(ours).hasSize(5 + 140 * 2 + 20);

        List<List<Object[]>> more = List.of(
                List.<Object[]>of(new Object[] {"particles/position", "float", 3, randomBytes(r, 24)},
                        new Object[] {"added/by_gsd", "int64", 1, randomBytes(r, 16)}),
                List.<Object[]>of(new Object[] {"added/by_gsd", "int64", 1, randomBytes(r, 8)}));
        List<String> out;
        try (FileSystem live = openRead(file)) {
            assertThat(Files.exists(live.getPath("/140"))).isFalse();
            out = python("dump", file.toString(), "--", "write", file.toString(), "rb+",
                    specFile(more).toString(), "--", "dump", file.toString());
            // the open file system sees gsd's frames: the lookup of a missing path refreshes from the new slots
            assertThat(Files.readAllBytes(live.getPath("/141/added/by_gsd"))).isEqualTo((byte[]) more.get(1).get(0)[3]);
            assertThat(Files.getAttribute(live.getPath("/"), "gsd:frames")).isEqualTo(142);
        }
        assertThat(dumpLines(out.get(0))).isEqualTo(ours);
        List<String> after = ourDump(file);
        assertThat(after).contains("nframes 142");
        assertThat(after).isEqualTo(dumpLines(out.get(2)));
        try (FileSystem fs = openRead(file)) {
            assertThat(Files.readAllBytes(fs.getPath("/140/added/by_gsd"))).isEqualTo((byte[]) more.get(0).get(1)[3]);
        }
    }

    @Test
    void fileGsdWritesIsReadIdenticallyAndAcceptsOurAppendsWhichGsdReads() throws Exception {
        Path file = tmp.resolve("theirs.gsd");
        Random r = new Random(7);
        String longName = "log/" + "λ".repeat(150); // 304 bytes: a component beyond NAME_MAX
        List<List<Object[]>> frames = new ArrayList<>();
        for (int f = 0; f < 6; f++) {
            List<Object[]> chunks = new ArrayList<>();
            chunks.add(new Object[] {"particles", "uint32", 1, randomBytes(r, 4)});
            chunks.add(new Object[] {"particles/position", "float", 3, randomBytes(r, 36)});
            chunks.add(new Object[] {"a//b", "int16", 2, randomBytes(r, 8)});
            chunks.add(new Object[] {"./x", "uint8", 1, randomBytes(r, 3)});
            chunks.add(new Object[] {"x/..", "uint8", 1, randomBytes(r, 1)});
            chunks.add(new Object[] {"100% wörld/ok", "double", 1, randomBytes(r, 8 * f)});
            chunks.add(new Object[] {longName, "int8", 1, randomBytes(r, 2)});
            chunks.add(new Object[] {"/lead", "uint8", 1, randomBytes(r, 1)});
            frames.add(chunks);
        }
        List<String> written = python("write", file.toString(), "wb", specFile(frames).toString(), "--", "dump", file.toString());
        assertThat(ourDump(file)).isEqualTo(dumpLines(written.get(1)));
        try (FileSystem fs = openRead(file)) {
            List<String> names;
            try (Stream<Path> s = Files.list(fs.getPath("/5"))) {
                names = s.map(p -> p.getFileName().toString()).toList();
            }
            String cut;
            try (Stream<Path> s = Files.list(fs.getPath("/5/log"))) {
                cut = s.map(p -> p.getFileName().toString()).filter(n -> n.contains("%%")).findFirst().orElseThrow();
            }
            assertThat(names).contains("particles", "particles%2Fposition", "a%2F%2Fb", ".%2Fx", "x%2F..", "%2Flead", "100%25 wörld");
            assertThat(cut.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
            assertThat(Files.getAttribute(fs.getPath("/5/log/" + cut), "gsd:name")).isEqualTo(longName);
            assertThat(Files.isRegularFile(fs.getPath("/5/100%25 wörld/ok"))).isTrue();
        }

        try (FileSystem fs = openWrite(file, Map.of())) {
            Files.createDirectory(fs.getPath("/6"));
            writeChunk(fs.getPath("/6/particles%2Fposition"), "float", 3, randomBytes(r, 12));
            writeChunk(fs.getPath("/6/new name"), "uint64", 2, randomBytes(r, 32));
        }
        List<String> theirs = pythonDump(file);
        assertThat(theirs).contains("nframes 7", "application python side", "schema interop", "schema_version 2.3");
        assertThat(theirs).isEqualTo(ourDump(file));
    }

    @Test
    void growthMatchesGsdForTheSameWriteSequence() throws Exception {
        Path theirs = tmp.resolve("grow-theirs.gsd");
        Path ours = tmp.resolve("grow-ours.gsd");
        List<List<Object[]>> frames = new ArrayList<>();
        for (int f = 0; f < 90; f++) {
            List<Object[]> chunks = new ArrayList<>();
            chunks.add(new Object[] {"step", "uint64", 1, new byte[8]});
            chunks.add(new Object[] {"name_" + "z".repeat(f % 5 == 0 ? 60 : 0) + f, "uint8", 1, new byte[] {1}});
            frames.add(chunks);
        }
        try (FileSystem fs = create(ours, Map.of())) {
            for (int f = 0; f < frames.size(); f++) {
                Files.createDirectory(fs.getPath("/" + f));
                for (Object[] c : frames.get(f)) {
                    writeChunk(fs.getPath("/" + f + "/" + c[0]), (String) c[1], (Integer) c[2], (byte[]) c[3]);
                }
            }
        }
        List<String> out = python("write", theirs.toString(), "wb", specFile(frames).toString(),
                "--", "dump", theirs.toString(), "--", "dump", ours.toString());
        try (FileSystem a = openRead(theirs); FileSystem b = openRead(ours)) {
            for (String key : List.of("indexAllocatedEntries", "namelistAllocatedEntries", "chunks", "names", "frames")) {
                assertThat(Files.getAttribute(b.getPath("/"), "gsd:" + key)).as(key)
                        .isEqualTo(Files.getAttribute(a.getPath("/"), "gsd:" + key));
            }
        }
        assertThat(dumpLines(out.get(2)).subList(5, 5 + 180)).isEqualTo(dumpLines(out.get(1)).subList(5, 5 + 180));
    }

    @Test
    void v1FileWeAppendToStaysV1ForGsdWhichAppendsToItToo() throws Exception {
        Path file = tmp.resolve("v1.gsd");
        Files.copy(corpus("v1_upstream_test_gsd_v1.gsd"), file);
        try (FileSystem fs = openWrite(file, Map.of())) {
            for (int f = 5; f < 8; f++) {
                Files.createDirectory(fs.getPath("/" + f));
                writeChunk(fs.getPath("/" + f + "/3"), "int32", 1, new byte[] {(byte) f, 0, 0, 0});
                writeChunk(fs.getPath("/" + f + "/ours" + f), "float", 2, new byte[16]);
            }
        }
        List<String> ours = ourDump(file);
        List<String> out = python("dump", file.toString(), "--", "write", file.toString(), "rb+",
                specFile(List.of(List.<Object[]>of(new Object[] {"ours7", "float", 2, new byte[8]}))).toString(),
                "--", "dump", file.toString());
        assertThat(dumpLines(out.get(0))).contains("nframes 8", "version 1.0").isEqualTo(ours);
        List<String> after = ourDump(file);
        assertThat(after).contains("nframes 9", "version 1.0");
        assertThat(after).isEqualTo(dumpLines(out.get(2)));
    }
}
