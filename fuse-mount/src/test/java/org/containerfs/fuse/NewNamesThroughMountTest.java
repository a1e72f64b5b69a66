package org.containerfs.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.fuse.FuseTestSupport.sh;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.containerfs.fuse.FuseTestSupport.MountProcess;
import org.containerfs.fuse.FuseTestSupport.Result;
import org.containerfs.fuse.MountCommand.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * New names on a --rw LIME mount run as a user would (its own JVM): a name the container cannot take
 * is refused when it is created (EACCES for a well-formed name that is not the next record of the last
 * message, EINVAL for a name no LIME record can have), so a shell redirect reports it and nothing is
 * staged; a commit that fails at close fails close(2) with EIO, also for a redirect; {@code cp -r} in
 * directory order keeps exactly the files it reported as copied, and a sorted copy keeps them all; an
 * empty new file ({@code touch}) is an empty record unless removed first. Everything is checked again
 * through the provider after unmounting.
 */
class NewNamesThroughMountTest {
    @BeforeAll
    static void fuse() {
        FuseTestSupport.requireFuse();
    }

    private static Result bash(String script, Object... args) {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", script, "bash"));
        for (Object a : args) {
            cmd.add(a.toString());
        }
        return FuseTestSupport.run(Duration.ofSeconds(60), cmd);
    }

    private static void assertRefused(Result r, String errnoText, String what) {
        assertThat(r.exit()).as("exit of %s; stderr %s", what, r.stderr()).isNotZero();
        assertThat(r.stderr()).as("stderr of %s", what).contains(errnoText);
    }

    private static List<String> names(FileSystem fs, String dir) throws Exception {
        try (Stream<Path> s = Files.list(fs.getPath(dir))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void namesTheContainerCannotTakeAreRefusedAtCreate(Engine engine, @TempDir Path dir) throws Exception {
        Path container = dir.resolve("conf.lime");
        Files.copy(new CorpusFormat.Lime().corpusFile("s02_lime_writer_test1.lime"), container);
        Path mp = Files.createDirectory(dir.resolve("mnt"));
        Path source = Files.createDirectory(dir.resolve("ten"));
        Map<String, String> sums = new TreeMap<>();
        for (int i = 1; i <= 10; i++) {
            String name = String.format("rec%02d.r", i);
            Files.writeString(source.resolve(name), "record " + i + "\n".repeat(i));
            sums.put(name, FuseTestSupport.sha256(source.resolve(name)));
        }
        String before = FuseTestSupport.sha256(container);
        List<String> copiedByCpR;

        try (MountProcess m = MountProcess.start(container, mp, "--rw", "--engine=" + engine)) {
            // msg03 holds rec01 only; msg01 is closed: refused at the redirect's open, nothing staged
            assertRefused(bash("echo bad > \"$1\"/msg03/rec09.x", mp), "Permission denied", "rec09 in msg03");
            assertRefused(bash("echo x > \"$1\"/msg01/rec03.y", mp), "Permission denied", "a record in closed msg01");
            assertRefused(bash("echo x > \"$1\"/msg03/notes.txt", mp), "Invalid argument", "a malformed record name");
            assertRefused(bash("echo x > \"$1\"/msg03/rec02.%zz", mp), "Invalid argument", "a malformed escape");
            assertRefused(sh("touch", mp + "/msg03/rec07"), "Permission denied", "touch of a later record");
            assertRefused(sh("python3", "-c", "import os,sys; os.mknod(sys.argv[1])", mp + "/msg03/rec05.m"),
                    "Permission denied", "mknod of a later record");
            assertThat(sh("ls", "-A", mp + "/msg03").ok().lines()).containsExactly("rec01.lime-test-text3");
            assertThat(m.output()).doesNotContain("NOT committed").contains("the next record in msg03 is rec02.<type>");
            assertThat(FuseTestSupport.sha256(container)).as("nothing reached the container").isEqualTo(before);

            // cp -r in the source's directory order: every name cp created is kept, the others refused at open
            sh("mkdir", mp + "/msg04").ok();
            Result cp = sh("cp", "-r", source + "/.", mp + "/msg04/");
            List<String> refused = new ArrayList<>();
            Matcher cannot = Pattern.compile("cannot create regular file '[^']*/(rec\\d\\d\\.r)': Permission denied")
                    .matcher(cp.stderr());
            while (cannot.find()) {
                refused.add(cannot.group(1));
            }
            copiedByCpR = sums.keySet().stream().filter(n -> !refused.contains(n)).toList();
            assertThat(cp.exit()).as("cp -r: %s", cp.stderr()).isEqualTo(refused.isEmpty() ? 0 : 1);
            assertThat(cp.stderr().lines().count()).as(cp.stderr()).isEqualTo(refused.size());
            assertThat(sh("ls", mp + "/msg04").ok().lines()).containsExactlyElementsOf(copiedByCpR);

            // a sorted copy (a glob is sorted) takes all ten
            sh("mkdir", mp + "/msg05").ok();
            bash("cp \"$1\"/* \"$2\"/msg05/", source, mp).ok();
            assertThat(sh("ls", mp + "/msg05").ok().lines()).containsExactlyElementsOf(sums.keySet());

            // a commit that fails at close: a redirect's external command sees EIO at its close(2)
            Result late = bash("{ mkdir \"$2\"/msg06; cat \"$1\"; } > \"$2\"/msg05/rec11.late",
                    source.resolve("rec01.r"), mp);
            assertRefused(late, "Input/output error", "a record whose message was closed before its commit");
            assertThat(sh("ls", mp + "/msg05").ok().lines()).doesNotContain("rec11.late");

            // touch keeps an empty record; removed before anything else happens, it is never kept
            sh("touch", mp + "/msg06/rec01.removed").ok();
            sh("rm", mp + "/msg06/rec01.removed").ok();
            sh("touch", mp + "/msg06/rec01.empty").ok();

            assertThat(new CommandLine(new UmountCommand()).execute(mp.toString())).isZero();
            assertThat(m.awaitExit(Duration.ofSeconds(20))).as("mount exit; log:%n%s", m.output()).isZero();
            assertThat(m.output()).contains("msg05/rec11.late: ").contains("NOT committed");
        }

        try (FileSystem fs = MountCommand.openContainer(container, false, null, false)) {
            assertThat(names(fs, "/msg03")).containsExactly("rec01.lime-test-text3");
            assertThat(names(fs, "/msg04")).containsExactlyElementsOf(copiedByCpR);
            for (String name : copiedByCpR) {
                assertThat(FuseTestSupport.sha256(Files.readAllBytes(fs.getPath("/msg04", name)))).isEqualTo(sums.get(name));
            }
            assertThat(names(fs, "/msg05")).containsExactlyElementsOf(sums.keySet());
            for (String name : sums.keySet()) {
                assertThat(FuseTestSupport.sha256(Files.readAllBytes(fs.getPath("/msg05", name)))).isEqualTo(sums.get(name));
            }
            assertThat(names(fs, "/msg06")).containsExactly("rec01.empty");
            assertThat(Files.size(fs.getPath("/msg06/rec01.empty"))).isZero();
        }
    }

    /** The other formats that take writes through a mount, by their corpus files (a new SION file cannot be mounted). */
    record FormatCase(CorpusFormat format, String file, String closedUnitName, String laterName, String newUnitDir,
            String malformedName) {}

    @TestFactory
    Stream<DynamicTest> everyWritableFormatRefusesNamesAtCreate(@TempDir Path dir) {
        return java.util.Arrays.stream(Engine.values()).flatMap(engine -> Stream.of(
                new FormatCase(new CorpusFormat.Gsd(), "hoomd_trajectory.gsd", "/3/new_chunk", null, "/12", "/12/bad%zz"),
                new FormatCase(new CorpusFormat.Scda(), "all_types.scda", null, "/0009.B.late", null, "/notes.txt"),
                new FormatCase(new CorpusFormat.G3(), "simple-types.g3", "/000001.Scan/NewKey", null, "/000004.Scan",
                        "/000004.Scan/bad%zz"))
                .map(c -> DynamicTest.dynamicTest(engine + " " + c.format().name(), () -> {
                    Path work = Files.createTempDirectory(dir, engine + "-" + c.format().name());
                    Path container = work.resolve(c.file());
                    Files.copy(c.format().corpusFile(c.file()), container);
                    Path mp = Files.createDirectory(work.resolve("mnt"));
                    String before = FuseTestSupport.sha256(container);
                    try (InProcessMount m = InProcessMount.mount(engine, container, mp, true)) {
                        if (c.closedUnitName() != null) {
                            assertRefused(bash("echo x > \"$1\"", mp + c.closedUnitName()), "Permission denied",
                                    "a file in a committed unit");
                            assertRefused(sh("touch", mp + c.closedUnitName()), "Permission denied", "touch there");
                        }
                        if (c.laterName() != null) {
                            assertRefused(bash("echo x > \"$1\"", mp + c.laterName()), "Permission denied",
                                    "a unit that is not the next");
                        }
                        assertThat(FuseTestSupport.sha256(container)).isEqualTo(before);
                        if (c.newUnitDir() != null) {
                            sh("mkdir", mp + c.newUnitDir()).ok();
                        }
                        assertRefused(bash("echo x > \"$1\"", mp + c.malformedName()), "Invalid argument",
                                "a name the format cannot hold");
                        assertThat(m.log()).doesNotContain("NOT committed");
                    }
                    try (FileSystem fs = MountCommand.openContainer(container, false, null, false)) {
                        for (String name : new String[] {c.closedUnitName(), c.laterName(), c.malformedName()}) {
                            if (name != null) {
                                assertThat(Files.exists(fs.getPath(name))).as(name).isFalse();
                            }
                        }
                    }
                })));
    }
}
