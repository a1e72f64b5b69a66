package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.containerfs.fuse.CorpusFormat.Expected;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Appends with the shell through a --rw mount of a copy of a corpus file (GSD frames, G3 frames,
 * scda block sections): mkdir + cp, unmount, then the provider reads the new units and every
 * original manifest row is unchanged; for GSD the gsd library itself (python3-gsd) reads them too.
 * The LIME case is {@link WritableMountTest}.
 */
class FormatAppendsThroughMountTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    private Path copyOfCorpusFile(CorpusFormat format, String name) throws Exception {
        Path original = format.corpusFile(name);
        Path copy = dir.resolve(name);
        Files.copy(original, copy);
        return copy;
    }

    private Path randomFile(String name, int size, int seed) throws Exception {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return Files.write(dir.resolve(name), b);
    }

    /** The corpus rows of the original still read back unchanged from the appended container. */
    private static void originalRowsUnchanged(FileSystem fs, Map<String, Expected> rows) throws Exception {
        assertThat(rows).isNotEmpty();
        for (Expected e : rows.values()) {
            assertThat(FuseTestSupport.sha256(Files.readAllBytes(fs.getPath(e.path())))).as(e.path()).isEqualTo(e.sha256());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void gsdFramesAppendedWithMkdirAndCpAreReadByTheProviderAndByPythonGsd(Engine engine) throws Exception {
        CorpusFormat.Gsd gsd = new CorpusFormat.Gsd();
        Path container = copyOfCorpusFile(gsd, "hoomd_trajectory.gsd");
        Map<String, Expected> rows = gsd.expected(gsd.corpusFile("hoomd_trajectory.gsd"));
        Path blob = randomFile("blob.bin", 200_000, 1); // several FUSE write requests
        Path charge = randomFile("charge.bin", 256, 2);
        Path tail = randomFile("tail.bin", 7, 3);
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
            assertThat(sh("ls", "-v", mp.toString()).ok().lines()).hasSize(12).last().isEqualTo("11");
            sh("mkdir", mp + "/12").ok();
            sh("mkdir", mp + "/12/fuse").ok();
            sh("cp", blob.toString(), mp + "/12/fuse/blob").ok(); // a new name: the name list grows
            sh("cp", charge.toString(), mp + "/12/particles%2Fcharge").ok(); // an existing name, written escaped
            assertThat(sh("find", mp + "/12", "-type", "f").ok().lines())
                    .containsExactlyInAnyOrder(mp + "/12/fuse/blob", mp + "/12/particles/charge");
            sh("mkdir", mp + "/13").ok(); // commits frame 12
            sh("cp", tail.toString(), mp + "/13/tail").ok();
            assertThat(sh("sha256sum", mp + "/12/fuse/blob").ok().out()).startsWith(FuseTestSupport.sha256(blob));
            assertThat(sh("stat", "-c", "%s", mp + "/12/particles/charge").ok().out().trim()).isEqualTo("256");
        } // unmount and close: commits frame 13

        try (FileSystem fs = MountCommand.openContainer(container, false, null, false)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:frames")).isEqualTo(14);
            assertThat(Files.readAllBytes(fs.getPath("/12/fuse/blob"))).isEqualTo(Files.readAllBytes(blob));
            assertThat(Files.readAllBytes(fs.getPath("/12/particles/charge"))).isEqualTo(Files.readAllBytes(charge));
            assertThat(Files.readAllBytes(fs.getPath("/13/tail"))).isEqualTo(Files.readAllBytes(tail));
            // plain cp sets no gsd:type / gsd:M (setfattr before writing does: MountedToolsTest): uint8, one column
            Map<String, Object> a = Files.readAttributes(fs.getPath("/12/fuse/blob"), "gsd:*");
            assertThat(a).containsEntry("type", "uint8").containsEntry("N", 200_000L).containsEntry("M", 1)
                    .containsEntry("name", "fuse/blob").containsEntry("frame", 12);
            originalRowsUnchanged(fs, rows);
        }

        // The reference library: every chunk's type, shape and sha256, frame count.
        String script = """
                import sys, hashlib, gsd.fl
                f = gsd.fl.open(name=sys.argv[1], mode='rb')
                print('frames', f.nframes)
                for frame, name in ((12, 'fuse/blob'), (12, 'particles/charge'), (13, 'tail'), (3, 'particles/position')):
                    d = f.read_chunk(frame=frame, name=name)
                    print(frame, name, d.dtype, d.shape[0], hashlib.sha256(d.tobytes()).hexdigest())
                print('absent', f.chunk_exists(frame=13, name='fuse/blob'))
                f.close()
                """;
        List<String> out = FuseTestSupport.run(Duration.ofSeconds(60),
                List.of("/usr/bin/python3", "-c", script, container.toString())).ok().lines();
        assertThat(out).containsExactly(
                "frames 14",
                "12 fuse/blob uint8 200000 " + FuseTestSupport.sha256(blob),
                "12 particles/charge uint8 256 " + FuseTestSupport.sha256(charge),
                "13 tail uint8 7 " + FuseTestSupport.sha256(tail),
                "3 particles/position float32 64 " + rows.get("/3/particles/position").sha256(),
                "absent False");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void g3FramesAppendedWithMkdirAndCpAreReadByTheProvider(Engine engine) throws Exception {
        CorpusFormat.G3 g3 = new CorpusFormat.G3();
        Path container = copyOfCorpusFile(g3, "simple-types.g3");
        Map<String, Expected> rows = g3.expected(g3.corpusFile("simple-types.g3"));
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        List<String> frames;
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
            frames = sh("ls", mp.toString()).ok().lines();
            assertThat(frames).hasSize(4);
            // blobs are taken verbatim: copy real serialized values out of the container itself
            String scan = mp + "/" + frames.get(3);
            List<String> keys = sh("ls", scan).ok().lines();
            assertThat(keys).isNotEmpty();
            sh("mkdir", mp + "/000004.Scan").ok();
            for (String key : keys) {
                sh("cp", scan + "/" + key, mp + "/000004.Scan/" + key).ok();
            }
            sh("mkdir", mp + "/000005.adhoc-Fuse").ok(); // commits frame 4
            sh("cp", scan + "/" + keys.get(0), mp + "/000005.adhoc-Fuse/copied").ok();
            assertThat(sh("diff", "-r", scan, mp + "/000004.Scan").ok().out()).isEmpty();
        }

        try (FileSystem fs = MountCommand.openContainer(container, false, null, false)) {
            assertThat(Files.getAttribute(fs.getPath("/"), "g3:frames")).isEqualTo(6);
            assertThat(Files.getAttribute(fs.getPath("/"), "g3:damage")).isEqualTo("");
            Path source = fs.getPath("/" + frames.get(3));
            Path copy = fs.getPath("/000004.Scan");
            assertThat(Files.readAttributes(copy, "g3:*")).containsEntry("crcOk", true)
                    .containsEntry("entries", Files.getAttribute(source, "g3:entries"));
            try (Stream<Path> keys = Files.list(source)) {
                for (Path k : keys.toList()) {
                    Path c = copy.resolve(k.getFileName().toString());
                    assertThat(Files.readAllBytes(c)).as(c.toString()).isEqualTo(Files.readAllBytes(k));
                    assertThat(Files.getAttribute(c, "g3:blobType")).isEqualTo(Files.getAttribute(k, "g3:blobType"));
                }
            }
            assertThat(Files.readAttributes(fs.getPath("/000005.adhoc-Fuse"), "g3:*")).containsEntry("crcOk", true)
                    .containsEntry("entries", 1);
            originalRowsUnchanged(fs, rows);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void scdaSectionsAppendedWithCpAreReadByTheProvider(Engine engine) throws Exception {
        CorpusFormat.Scda scda = new CorpusFormat.Scda();
        Path container = copyOfCorpusFile(scda, "all_types.scda");
        Map<String, Expected> rows = scda.expected(scda.corpusFile("all_types.scda"));
        Path block = randomFile("block.bin", 100_003, 4);
        Path inline = Files.write(dir.resolve("inline.bin"), "exactly thirty-two bytes inline!".getBytes(StandardCharsets.US_ASCII));
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        List<String> before;
        try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
            before = sh("ls", mp.toString()).ok().lines();
            String next = String.format("%04d", before.size());
            sh("cp", block.toString(), mp + "/" + next + ".B.from the shell").ok();
            sh("cp", inline.toString(), mp + "/" + String.format("%04d", before.size() + 1) + ".I.inline").ok();
            assertThat(sh("sha256sum", mp + "/" + next + ".B.from the shell").ok().out())
                    .startsWith(FuseTestSupport.sha256(block));
        }
        try (FileSystem fs = MountCommand.openContainer(container, false, null, false)) {
            List<String> after;
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                after = s.map(p -> p.getFileName().toString()).toList();
            }
            List<String> expected = new ArrayList<>(before);
            expected.add(String.format("%04d", before.size()) + ".B.from the shell");
            expected.add(String.format("%04d", before.size() + 1) + ".I.inline");
            assertThat(after).containsExactlyElementsOf(expected);
            Path b = fs.getPath("/" + expected.get(before.size()));
            assertThat(Files.readAllBytes(b)).isEqualTo(Files.readAllBytes(block));
            assertThat(Files.readAttributes(b, "scda:*")).containsEntry("type", "B").containsEntry("compressed", false);
            assertThat(Files.readAllBytes(fs.getPath("/" + expected.get(before.size() + 1))))
                    .isEqualTo(Files.readAllBytes(inline));
            assertThat(Files.readAttributes(fs.getPath("/"), "scda:damage,tornTail"))
                    .containsEntry("damage", "").containsEntry("tornTail", false);
            originalRowsUnchanged(fs, rows);
        }
    }
}
