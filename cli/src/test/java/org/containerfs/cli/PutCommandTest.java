package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.g3.G3Blobs;
import org.containerfs.g3.G3Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code containerfs create} and {@code put}: the Java API's appends and refusals from the shell. */
class PutCommandTest {
    @TempDir
    Path tmp;

    private static Cli.Result run(byte[] stdin, Object... args) {
        return Cli.runWithInput(stdin, args);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void putFromStandardInputStartsTheFirstMessageOfAFreshLimeFileLikeMkdirP() throws Exception {
        Path file = tmp.resolve("new.lime");

        Cli.Result first = run(bytes("hi"), "put", file, "/msg01/rec01.note", "-");
        Cli.Result second = run(bytes("<x/>"), "put", file, "/msg01/rec02.xml");
        Cli.Result third = run(bytes("next"), "put", file, "msg02/rec01.note");

        assertThat(first.status()).as(first.stderr()).isZero();
        assertThat(second.status()).as(second.stderr()).isZero();
        assertThat(third.status()).as(third.stderr()).isZero();
        assertThat(Cli.run("ls", "-R", file).lines()).containsExactly("/msg01/", "/msg01/rec01.note", "/msg01/rec02.xml",
                "/msg02/", "/msg02/rec01.note");
        assertThat(Cli.run("cat", file, "/msg01/rec01.note").stdout()).isEqualTo("hi");
        // byte for byte what the Java API writes for the same records
        Path api = tmp.resolve("api.lime");
        try (FileSystem fs = ContainerFileSystems.create(api, "lime")) {
            Files.createDirectory(fs.getPath("/msg01"));
            Files.write(fs.getPath("/msg01/rec01.note"), bytes("hi"));
            Files.write(fs.getPath("/msg01/rec02.xml"), bytes("<x/>"));
            Files.createDirectory(fs.getPath("/msg02"));
            Files.write(fs.getPath("/msg02/rec01.note"), bytes("next"));
        }
        assertThat(Files.mismatch(file, api)).isEqualTo(-1);
    }

    @Test
    void dotAndDotDotSegmentsAreRefusedBeforeAnythingIsCreatedOrAppended() throws Exception {
        Path fresh = tmp.resolve("fresh.lime");
        Path existing = tmp.resolve("existing.lime");
        run(bytes("one"), "put", existing, "/msg01/rec01.a");
        byte[] before = Files.readAllBytes(existing);

        for (String name : List.of("/msg01/../msg02/rec01.x", "/msg01/./rec01.x", "../msg01/rec01.x", "/msg01/rec02.x/..")) {
            Cli.Result onFresh = run(bytes("x"), "put", fresh, name);
            Cli.Result onExisting = run(bytes("x"), "put", existing, name);

            assertThat(onFresh.status()).as(name).isEqualTo(2);
            assertThat(onFresh.stderr()).as(name).contains(name).contains("segment").contains("without '.' or '..'");
            assertThat(onExisting.status()).as(name).isEqualTo(2);
        }
        assertThat(fresh).doesNotExist();
        assertThat(Files.readAllBytes(existing)).isEqualTo(before);
    }

    @Test
    void createSionIsRefusedWithTheWayThatWorksAndThatWayWorks() throws Exception {
        Path file = tmp.resolve("new.sion");

        Cli.Result create = run(new byte[0], "create", "sion", file);
        assertThat(create.status()).isEqualTo(2);
        assertThat(create.stderr()).contains("put " + file + " /task000000");
        assertThat(file).doesNotExist();

        Cli.Result put = run(bytes("rank 0"), "put", file, "/task000000", "-");
        assertThat(put.status()).as(put.stderr()).isZero();
        assertThat(Cli.run("cat", file, "/task000000").stdout()).isEqualTo("rank 0");
    }

    @Test
    void aRefusedPutChangesNothingAndSaysWhatTheProviderSays() throws Exception {
        Path file = tmp.resolve("c.lime");
        run(bytes("one"), "put", file, "/msg01/rec01.a");
        byte[] before = Files.readAllBytes(file);
        Path source = Files.write(tmp.resolve("data"), bytes("data"));

        Cli.Result skipped = run(new byte[0], "put", file, "/msg01/rec05.a", source);
        Cli.Result oldMessage = run(new byte[0], "put", file, "/msg03/rec01.a", source);
        Cli.Result existing = run(new byte[0], "put", file, "/msg01/rec01.a", source);
        Cli.Result foreignAttribute = run(new byte[0], "put", file, "/msg01/rec02.a", source, "--type", "float");
        Cli.Result noSource = run(new byte[0], "put", tmp.resolve("never.lime"), "/msg01/rec01.a", tmp.resolve("missing"));

        assertThat(skipped.status()).isEqualTo(1);
        assertThat(skipped.stderr()).contains("the next record in msg01 is rec02.<type>");
        assertThat(oldMessage.status()).isEqualTo(1);
        assertThat(oldMessage.stderr()).contains("the next message is msg02");
        assertThat(existing.status()).isEqualTo(1);
        assertThat(foreignAttribute.status()).isEqualTo(2);
        assertThat(foreignAttribute.stderr()).contains("attribute gsd:type does not apply to a lime container");
        assertThat(noSource.status()).isEqualTo(1);
        assertThat(noSource.stderr()).contains("no such source file");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(tmp.resolve("never.lime")).doesNotExist();
    }

    @Test
    void gsdChunksTakeTypeAndWidthAndTheReferenceLibraryReadsThem() throws Exception {
        Path file = tmp.resolve("run.gsd");
        assertThat(Cli.run("create", "gsd", file, "--env", "schema=hoomd", "--env", "schemaVersion=1.4").status()).isZero();
        java.nio.ByteBuffer position = java.nio.ByteBuffer.allocate(2 * 3 * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 6; i++) {
            position.putFloat(i + 0.5f);
        }
        Path pos = Files.write(tmp.resolve("pos.bin"), position.array());

        Cli.Result put = run(new byte[0], "put", file, "/0/particles/position", pos, "--type", "float", "--width", "3");
        Cli.Result n = run(new byte[] {2, 0, 0, 0}, "put", file, "/1/particles/N", "-", "--type", "uint32");
        Cli.Result badType = run(new byte[4], "put", file, "/2/x", "-", "--type", "float128");

        assertThat(put.status()).as(put.stderr()).isZero();
        assertThat(n.status()).as(n.stderr()).isZero();
        assertThat(badType.status()).isEqualTo(1);
        assertThat(badType.stderr()).contains("gsd:type must be one of");
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            assertThat(Files.readAttributes(fs.getPath("/0/particles/position"), "gsd:type,N,M"))
                    .containsEntry("type", "float").containsEntry("N", 2L).containsEntry("M", 3);
            assertThat(Files.getAttribute(fs.getPath("/"), "gsd:frames")).isEqualTo(2);
        }
        String script = "import gsd.fl\n"
                + "f = gsd.fl.open(name='" + file + "', mode='rb')\n"
                + "print(f.nframes, f.read_chunk(0, 'particles/position').tolist(), f.read_chunk(1, 'particles/N').tolist())\n";
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", script).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(output.strip()).isEqualTo("2 [[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]] [2]");
    }

    @Test
    void scdaSectionsCompressedOrNotAndArraysMadeByMkdirP() throws Exception {
        Path file = tmp.resolve("out.scda");
        assertThat(Cli.run("create", "scda", file, "--env", "vendor=put test").status()).isZero();

        assertThat(run(bytes("x".repeat(100)), "put", file, "/0000.B.note", "--encode").status()).isZero();
        assertThat(run(new byte[8], "put", file, "/0001.A.offsets/000000", "--element-size", "8").status()).isZero();
        assertThat(run(bytes("abc"), "put", file, "/0002.V.text/000000", "--encode").status()).isZero();
        Cli.Result wrongSize = run(new byte[3], "put", file, "/0003.A.offsets/000000", "--element-size", "8");

        assertThat(wrongSize.status()).isEqualTo(1);
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            assertThat(Files.readAttributes(fs.getPath("/0000.B.note"), "scda:compressed")).containsEntry("compressed", true);
            assertThat(Files.readString(fs.getPath("/0000.B.note"))).isEqualTo("x".repeat(100));
            assertThat(Files.getAttribute(fs.getPath("/0001.A.offsets"), "scda:elementSize")).isEqualTo(8L);
            assertThat(Files.readString(fs.getPath("/0002.V.text/000000"))).isEqualTo("abc");
            assertThat(Files.getAttribute(fs.getPath("/0002.V.text"), "scda:compressed")).isEqualTo(true);
        }
        assertThat(Cli.run("verify", file).status()).isZero();
    }

    @Test
    void aSionFileIsCreatedByItsFirstPutAndNeverChangedAfter() throws Exception {
        Path file = tmp.resolve("new.sion");

        Cli.Result first = run(bytes("task zero"), "put", file, "/task000000", "-", "--global-rank", "7");
        byte[] made = Files.readAllBytes(file);
        Cli.Result second = run(bytes("task one"), "put", file, "/task000001");

        assertThat(first.status()).as(first.stderr()).isZero();
        assertThat(second.status()).isEqualTo(1);
        assertThat(second.stderr()).isNotBlank();
        assertThat(Files.readAllBytes(file)).isEqualTo(made);
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            assertThat(Files.readString(fs.getPath("/task000000"))).isEqualTo("task zero");
            assertThat(Files.getAttribute(fs.getPath("/task000000"), "sion:globalRank")).isEqualTo(7L);
        }
    }

    @Test
    void g3KeysGoIntoANewFrameNamedByThePath() throws Exception {
        Path file = tmp.resolve("obs.g3");
        byte[] blob = G3Blobs.encode(new G3Value.IntValue(42));

        Cli.Result put = run(blob, "put", file, "/000000.Scan/ScanNumber", "-v");

        assertThat(put.status()).as(put.stderr()).isZero();
        assertThat(put.stdout()).isEqualTo("appended /000000.Scan/ScanNumber (" + blob.length + " bytes) to " + file + "\n");
        try (FileSystem fs = ContainerFileSystems.open(file)) {
            assertThat(G3Blobs.read(fs.getPath("/000000.Scan/ScanNumber"))).contains(new G3Value.IntValue(42));
        }
    }

    @Test
    void createMakesAnEmptyContainerOfTheFormatAndNeverOverwrites() throws Exception {
        for (String format : List.of("lime", "gsd", "scda", "g3")) { // sion: createSionIsRefusedWithTheWayThatWorks...
            Path file = tmp.resolve("empty." + format);
            Cli.Result r = Cli.run("create", format, file);
            assertThat(r.status()).as(format + ": " + r.stderr()).isZero();
            try (FileSystem fs = ContainerFileSystems.open(file)) {
                assertThat(fs.provider().getScheme()).isEqualTo(format);
            }
            byte[] made = Files.readAllBytes(file);
            Cli.Result again = Cli.run("create", format, file);
            assertThat(again.status()).isEqualTo(1);
            assertThat(again.stderr()).contains("already exists");
            assertThat(Files.readAllBytes(file)).isEqualTo(made);
        }
        Cli.Result unknown = Cli.run("create", "hdf5", tmp.resolve("x.h5"));
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.stderr()).contains("unknown format hdf5 (supported:");
    }

    @Test
    void theCreationTrapTheReadmeShowsIsReal() throws Exception {
        Path trap = tmp.resolve("trap.lime");
        try (FileSystem fs = java.nio.file.FileSystems.newFileSystem(trap, java.util.Map.of("create", true))) {
            assertThat(fs.provider().getScheme()).isEqualTo("jar"); // the JDK's zip provider answered
        }
        assertThat(Files.readAllBytes(trap)).startsWith(0x50, 0x4B); // "PK": a zip archive named .lime

        Path right = tmp.resolve("right.lime");
        try (FileSystem fs = ContainerFileSystems.create(right, "lime")) {
            assertThat(fs.provider().getScheme()).isEqualTo("lime");
        }
    }

    @Test
    void aNewContainerWhoseNameDoesNotSayItsFormatNeedsFormat() {
        Path file = tmp.resolve("data.bin");

        Cli.Result unnamed = run(bytes("x"), "put", file, "/msg01/rec01.a");
        Cli.Result named = run(bytes("x"), "put", file, "/msg01/rec01.a", "--format", "lime");

        assertThat(unnamed.status()).isEqualTo(2);
        assertThat(unnamed.stderr()).contains("give --format");
        assertThat(named.status()).as(named.stderr()).isZero();
        assertThat(Cli.run("ls", "-R", file).lines()).containsExactly("/msg01/", "/msg01/rec01.a");
    }
}
