package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.containerfs.s3.Captured;
import org.containerfs.s3.S3TestServer;
import org.containerfs.s3.SecretScan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code s3://bucket/key} wherever the CLI takes a container, configured the SDK's standard way
 * (endpoint, region and credentials from {@code aws.*} system properties, as from {@code AWS_*}
 * variables): read-only, and a write refused before any request reaches the server.
 */
class S3ContainersCliTest {
    static final String GAUGE = "s08_ildg_scidac_gauge.lime";
    static final List<String> PROPERTIES = List.of("aws.endpointUrlS3", "aws.accessKeyId", "aws.secretAccessKey",
            "aws.region");
    static final Map<String, String> saved = new HashMap<>();
    static S3TestServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new S3TestServer();
        server.createBucket("cli");
        server.put("cli", "ens/" + GAUGE, Corpus.lime(GAUGE));
        for (String p : PROPERTIES) {
            saved.put(p, System.getProperty(p));
        }
        System.setProperty("aws.endpointUrlS3", server.endpoint().toString());
        System.setProperty("aws.accessKeyId", S3TestServer.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", S3TestServer.SECRET_KEY);
        System.setProperty("aws.region", "us-east-1");
    }

    @AfterAll
    static void stop() throws Exception {
        for (String p : PROPERTIES) {
            if (saved.get(p) == null) {
                System.clearProperty(p);
            } else {
                System.setProperty(p, saved.get(p));
            }
        }
        server.close();
        assertThat(SecretScan.filesContainingTheSecret(Captured.FILE)).as("outputs of the CLI's S3 tests").isEmpty();
        assertThat(Captured.FILE).content().contains("s3://cli/");
    }

    @BeforeEach
    void reset() {
        server.reset();
    }

    static Cli.Result run(Object... args) {
        Cli.Result r = Cli.run(args);
        Captured.note(r.stdout());
        Captured.note(r.stderr());
        return r;
    }

    @Test
    void lsCatInfoAndVerifyReadAnObjectAsTheyReadTheFile() throws Exception {
        String object = "s3://cli/ens/" + GAUGE;
        for (List<String> command : List.of(List.of("ls", "-R"), List.of("ls", "-l"), List.of("info"),
                List.of("verify"))) {
            Cli.Result local = Cli.run(concat(command, Corpus.lime(GAUGE).toString()));
            Cli.Result remote = run(concat(command, object));
            assertThat(remote.stderr()).as("%s", command).isEmpty();
            assertThat(remote.status()).as("%s", command).isEqualTo(local.status()).isZero();
            assertThat(remote.stdout().replace(object, "<c>").replaceAll("\\d{4}-\\d\\d-\\d\\d[ T][0-9:.Z]+", "<t>"))
                    .as("%s", command)
                    .isEqualTo(local.stdout().replace(
                            Corpus.lime(GAUGE).toAbsolutePath().toString(), "<c>").replace(Corpus.lime(GAUGE).toString(), "<c>")
                            .replaceAll("\\d{4}-\\d\\d-\\d\\d[ T][0-9:.Z]+", "<t>"));
        }
        Cli.Result cat = run("cat", object, "/msg02/rec04.ildg-binary-data");
        assertThat(cat.status()).isZero();
        assertThat(cat.stdoutBytes()).isEqualTo(Cli.run("cat", Corpus.lime(GAUGE), "/msg02/rec04.ildg-binary-data")
                .stdoutBytes());
        assertThat(server.mutating()).isZero();
    }

    @Test
    void aMissingObjectIsNamed() {
        Cli.Result r = run("ls", "s3://cli/ens/absent.lime");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).contains("s3://cli/ens/absent.lime: no such key in bucket cli");
    }

    @Test
    void writingToAnObjectIsRefusedBeforeAnyRequest(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Cli.Result env = run("ls", "--env", "accessMode=readWrite", "s3://cli/ens/" + GAUGE);
        assertThat(env.status()).isEqualTo(2);
        assertThat(env.stderr()).contains("read-only").contains("objects in S3 are never written to");
        Cli.Result cp = run("cp", "-r", "s3://cli/ens/" + GAUGE, "/", "s3://cli/extracted");
        assertThat(cp.status()).isEqualTo(1);
        assertThat(cp.stderr()).contains("s3://cli/extracted").contains("copying into an object store refused");
        assertThat(Path.of("s3:")).doesNotExist();
        Path mp = Files.createDirectory(dir.resolve("mp"));
        // the mount command writes to the process's own standard error
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.err;
        Cli.Result mount;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            mount = run("mount", "--rw", "s3://cli/ens/" + GAUGE, mp);
        } finally {
            System.setErr(saved);
        }
        String mountErr = err.toString(java.nio.charset.StandardCharsets.UTF_8) + mount.stderr();
        Captured.note(mountErr);
        assertThat(mount.status()).isEqualTo(1);
        assertThat(mountErr).contains("s3://cli/ens/" + GAUGE).contains("a read-write mount refused")
                .contains("read-only").contains("copy the object to a local file");
        assertThat(server.total()).as("%s", server.requests()).isZero();
    }

    /** A real FUSE mount of the object, read-only; /proc/mounts names it without credentials. */
    @Test
    void mountShowsTheObjectReadOnly() throws Exception {
        Path mp = Files.createTempDirectory(Path.of("/tmp"), "containerfs-s3-mount-");
        String object = "s3://cli/ens/" + GAUGE;
        CompletableFuture<Cli.Result> mounted = CompletableFuture.supplyAsync(() -> run("mount", object, mp));
        try {
            String line = null;
            for (int i = 0; i < 300 && line == null && !mounted.isDone(); i++) {
                line = Files.readAllLines(Path.of("/proc/mounts")).stream()
                        .filter(l -> l.contains(" " + mp + " ")).findFirst().orElse(null);
                if (line == null) {
                    Thread.sleep(100);
                }
            }
            assertThat(line).as("mounted: %s", mounted.isDone() ? mounted.get().stderr() : "").isNotNull();
            Captured.note(line);
            assertThat(line).startsWith(object + " ").contains(" ro,").doesNotContain(S3TestServer.SECRET_KEY);
            for (String record : List.of("msg01/rec01.scidac-private-file-xml", "msg02/rec04.ildg-binary-data")) {
                assertThat(Files.readAllBytes(mp.resolve(record))).as(record)
                        .isEqualTo(Cli.run("cat", Corpus.lime(GAUGE), record).stdoutBytes());
            }
            assertThat(Files.isWritable(mp.resolve("msg02"))).isFalse();
        } finally {
            Cli.Result umount = run("umount", mp);
            assertThat(umount.status()).as(umount.stderr()).isZero();
            assertThat(mounted.get(60, TimeUnit.SECONDS).status()).isZero();
            Files.deleteIfExists(mp);
        }
        assertThat(server.mutating()).isZero();
    }

    private static Object[] concat(List<String> command, String container) {
        Object[] args = new Object[command.size() + 1];
        for (int i = 0; i < command.size(); i++) {
            args[i] = command.get(i);
        }
        args[command.size()] = container;
        return args;
    }
}
