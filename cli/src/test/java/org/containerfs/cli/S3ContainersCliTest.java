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
        String mountErr = mountErrors("--rw", "s3://cli/ens/" + GAUGE, mp);
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
            String line = mountLine(mp, mounted);
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

    /** The same bytes that are no container get one message, one verdict and one exit status, locally and in S3. */
    @Test
    void aTextObjectGetsTheAnswerOfTheSameLocalFile(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        byte[] text = "plain text, not a container of any format\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        server.put("cli", "notes.lime", text);
        Path local = Files.write(dir.resolve("notes.lime"), text);
        String object = "s3://cli/notes.lime";
        for (List<String> command : List.of(List.of("verify"), List.of("info"), List.of("ls", "-R"),
                List.of("verify", "--json"), List.of("info", "--json"), List.of("ls", "--json"))) {
            Cli.Result here = Cli.run(concat(command, local.toString()));
            Cli.Result there = run(concat(command, object));
            assertThat(there.status()).as("%s", command).isEqualTo(here.status()).isEqualTo(1);
            assertThat(there.stderr().replace(object, "<c>")).as("%s", command)
                    .isEqualTo(here.stderr().replace(local.toString(), "<c>"));
            assertThat(there.stdout().replace(object, "<c>")).as("%s", command)
                    .isEqualTo(here.stdout().replace(local.toUri().toString(), "<c>").replace(local.toString(), "<c>"));
            assertThat(there.stdout() + there.stderr()).doesNotContain("DAMAGED").doesNotContain("magic bytes");
        }
        Path mp = Files.createDirectory(dir.resolve("mp"));
        assertThat(mountErrors(object, mp).replace(object, "<c>"))
                .isEqualTo(mountErrors(local.toString(), mp).replace(local.toString(), "<c>"))
                .contains("no installed containerfs format recognizes <c>");
        Cli.Result cat = run("cat", object, "/msg01/rec01.note");
        assertThat(cat.status()).isEqualTo(Cli.run("cat", local, "/msg01/rec01.note").status()).isEqualTo(1);
        assertThat(cat.stderr()).isEqualTo("containerfs cat: " + object + ": not a container of a supported format "
                + "(supported: lime, gsd, scda, sion, g3)\n");
        assertThat(run("verify", object).stderr())
                .isEqualTo("containerfs verify: " + object + ": not a container of a supported format (supported: "
                        + "lime, gsd, scda, sion, g3)\n");
    }

    /** The /proc/mounts line of the mount at {@code mp} once it is there (noted for the secret scan). */
    private static String mountLine(Path mp, CompletableFuture<Cli.Result> mounted) throws Exception {
        String line = null;
        for (int i = 0; i < 300 && line == null && !mounted.isDone(); i++) {
            line = Files.readAllLines(Path.of("/proc/mounts")).stream()
                    .filter(l -> l.contains(" " + mp + " ")).findFirst().orElse(null);
            if (line == null) {
                Thread.sleep(100);
            }
        }
        // the line names the mount point and a FUSE file system (fuse.<name>), so it is this mount, not another
        assertThat(line).as("mounted: %s", mounted.isDone() ? mounted.get().stderr() : "").isNotNull()
                .matches("\\S+ " + java.util.regex.Pattern.quote(mp.toString()) + " fuse(\\.\\S+)? .*");
        Captured.note(line);
        return line;
    }

    /** What a mount that fails before mounting says, exit status 1 (it writes to the process's own standard error). */
    private static String mountErrors(Object... arguments) {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.err;
        Object[] args = new Object[arguments.length + 1];
        args[0] = "mount";
        System.arraycopy(arguments, 0, args, 1, arguments.length);
        Cli.Result mount;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            mount = run(args);
        } finally {
            System.setErr(saved);
        }
        String errors = err.toString(java.nio.charset.StandardCharsets.UTF_8) + mount.stderr();
        Captured.note(errors);
        assertThat(mount.status()).as(errors).isEqualTo(1);
        return errors;
    }

    /** JSON names an object by the URI as given, s3://bucket/key, where a local file is file:///path. */
    @Test
    void jsonNamesTheObjectByItsUri() throws Exception {
        String object = "s3://cli/ens/" + GAUGE;
        for (String command : List.of("ls", "info", "verify")) {
            Cli.Result r = run(command, "--json", object);
            assertThat(r.status()).as(r.stderr()).isZero();
            assertThat(r.stdout()).as(command).startsWith("{\"container\":\"" + object + "\",");
            Cli.Result local = Cli.run(command, "--json", Corpus.lime(GAUGE));
            assertThat(local.stdout()).as(command).startsWith("{\"container\":\""
                    + Corpus.lime(GAUGE).toAbsolutePath().normalize().toUri() + "\",").contains("\"container\":\"file:///");
        }
        Cli.Result missing = run("verify", "--json", "s3://cli/ens/absent.lime");
        assertThat(missing.status()).isEqualTo(1);
        assertThat(missing.stdout()).isEqualTo("{\"container\":\"s3://cli/ens/absent.lime\",\"error\":"
                + "\"s3://cli/ens/absent.lime: no such key in bucket cli\"}\n");
    }

    /**
     * create, put and cp refuse an s3:// target before anything is written, locally or remotely, even where a local
     * directory ./s3:/cli/ exists (the path a shell-less parse of s3://cli/... would name).
     */
    @Test
    void writesToAnObjectAreRefusedBeforeAnythingIsTouched() throws Exception {
        Path lookalike = Path.of("s3:", "cli");
        boolean existed = Files.exists(Path.of("s3:"));
        Files.createDirectories(lookalike);
        try {
            Cli.Result create = run("create", "lime", "s3://cli/new.lime");
            assertThat(create.status()).isEqualTo(1);
            assertThat(create.stderr()).isEqualTo("containerfs create: s3://cli/new.lime: creating s3://cli/new.lime "
                    + "refused: containers in object storage are read-only (S3 has no file locks and no in-place appends, "
                    + "so a write could lose a concurrent writer's data; nothing was sent to the bucket). To append, copy "
                    + "the object to a local file, append there, and upload the result\n");
            Cli.Result put = Cli.runWithInput("hi".getBytes(), "put", "s3://cli/new.lime", "/msg01/rec01.note", "-");
            Captured.note(put.stderr());
            assertThat(put.status()).isEqualTo(1);
            assertThat(put.stderr()).contains("s3://cli/new.lime").contains("refused").contains("read-only");
            Cli.Result putFormat = run("put", "--format", "lime", "s3://cli/ens/" + GAUGE, "/msg03/rec01.note",
                    Corpus.lime(GAUGE));
            assertThat(putFormat.status()).isEqualTo(1);
            assertThat(putFormat.stderr()).contains("refused");
            Cli.Result cp = run("cp", "-r", "s3://cli/ens/" + GAUGE, "/", "s3://cli/out");
            assertThat(cp.status()).isEqualTo(1);
            assertThat(cp.stderr()).contains("copying into an object store refused");
            try (var left = Files.list(lookalike)) {
                assertThat(left.toList()).as("nothing written locally").isEmpty();
            }
            assertThat(server.total()).as("no request: %s", server.requests()).isZero();
            assertThat(server.admin().listObjectsV2(b -> b.bucket("cli")).contents()).extracting(o -> o.key())
                    .doesNotContain("new.lime", "out");
        } finally {
            Files.delete(lookalike);
            if (!existed) {
                Files.delete(Path.of("s3:"));
            }
        }
    }

    /** env gzipIndex=true asks to write beside the object: refused before the open's GET. */
    @Test
    void aGzipIndexBesideTheObjectIsRefusedBeforeAnyRequest() {
        Cli.Result r = run("ls", "--env", "gzipIndex=true", "s3://cli/ens/" + GAUGE);
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.stderr()).contains("s3://cli/ens/" + GAUGE).contains("env gzipIndex=true would write an index file")
                .contains("nothing was sent to the bucket");
        assertThat(server.requests()).isEmpty();
    }

    /**
     * A server that accepts connections and never answers: each command ends within the limits given in env (an
     * unbounded wait would hold the join below until its guard), saying what it waited for and which settings bound it.
     */
    @Test
    void aServerThatNeverAnswersEndsTheCommandWithinItsTimeLimits() throws Exception {
        List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepted, never read, never answered
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            }, "silent-s3");
            acceptor.setDaemon(true);
            acceptor.start();
            String endpoint = "s3.endpoint=http://127.0.0.1:" + silent.getLocalPort();
            for (List<String> command : List.of(List.of("ls", "-R"), List.of("cp", "-r"), List.of("verify"))) {
                java.util.ArrayList<Object> args = new java.util.ArrayList<>(command);
                args.addAll(List.of("--env", endpoint, "--env", "s3.requestTimeout=1s", "--env", "s3.totalTimeout=2s",
                        "s3://silent/run.lime"));
                if (command.get(0).equals("cp")) {
                    args.addAll(List.of("/", Files.createTempDirectory("containerfs-silent-")));
                }
                CompletableFuture<Cli.Result> done = CompletableFuture.supplyAsync(() -> run(args.toArray()));
                Cli.Result r = done.get(60, TimeUnit.SECONDS); // a hang guard, not a speed assertion
                assertThat(r.status()).as("%s", command).isEqualTo(1);
                assertThat(r.stderr()).as("%s", command).contains("s3://silent/run.lime: no answer in time")
                        .contains("s3.totalTimeout");
                assertThat(r.stdout()).as("nothing was learnt of the bytes").doesNotContain("DAMAGED");
            }
            assertThat(held).as("the commands reached the silent server").isNotEmpty();
        } finally {
            for (java.net.Socket s : held) {
                s.close();
            }
        }
    }

    /** A limit whose unit is missing or unclear is refused with the forms that work. */
    @Test
    void anUnclearTimeLimitIsRefused() {
        Cli.Result r = run("ls", "--env", "s3.totalTimeout=10M", "s3://cli/ens/" + GAUGE);
        assertThat(r.status()).isNotZero();
        assertThat(r.stderr()).contains("env s3.totalTimeout=10M: expected a number and a unit: 500ms, 10s");
        assertThat(server.requests()).isEmpty();
    }

    /**
     * No credentials anywhere: one sentence saying so and where they are looked for; the SDK's long list of its
     * providers only with --debug. (Profile files pointed away, the instance role lookup off: nothing leaves 127.0.0.1.)
     */
    @Test
    void noCredentialsSaysWhereTheyAreLookedFor(@org.junit.jupiter.api.io.TempDir Path dir) {
        Map<String, String> away = Map.of("aws.sharedCredentialsFile", dir.resolve("none").toString(),
                "aws.configFile", dir.resolve("none").toString(), "aws.disableEc2Metadata", "true");
        Map<String, String> before = new HashMap<>();
        for (String p : List.of("aws.accessKeyId", "aws.secretAccessKey", "aws.sharedCredentialsFile", "aws.configFile",
                "aws.disableEc2Metadata")) {
            before.put(p, System.getProperty(p));
        }
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        away.forEach(System::setProperty);
        try {
            String object = "s3://cli/ens/" + GAUGE;
            Cli.Result r = run("ls", object);
            assertThat(r.status()).isEqualTo(1);
            assertThat(r.stderr()).startsWith("containerfs ls: " + object + ": no S3 credentials were found; they are "
                    + "looked for in the system properties aws.accessKeyId and aws.secretAccessKey, the environment "
                    + "variables AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
                    .contains("~/.aws/credentials").contains("instance role")
                    .doesNotContain("Unable to load credentials").hasLineCount(1);
            Cli.Result debug = run("ls", "--debug", object);
            assertThat(debug.stderr()).startsWith(r.stderr()).contains("Unable to load credentials");
            assertThat(server.total()).as("nothing reached the server unsigned").isZero();
        } finally {
            before.forEach((p, v) -> {
                if (v == null) {
                    System.clearProperty(p);
                } else {
                    System.setProperty(p, v);
                }
            });
        }
    }

    private static Object[] concat(List<String> command, String container) {
        Object[] args = new Object[command.size() + 1];
        for (int i = 0; i < command.size(); i++) {
            args[i] = command.get(i);
        }
        args[command.size()] = container;
        return args;
    }

    /** A prefix (with or without its trailing "/", or a whole bucket) lists as the tree a local directory of the same files does. */
    @Test
    void aPrefixListsAsOneTreeLikeALocalDirectory(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        server.createBucket("trees");
        Path local = Files.createDirectories(dir.resolve("run"));
        Files.createDirectories(local.resolve("a/b"));
        Files.write(local.resolve("a/conf.0010.lime"), Files.readAllBytes(Corpus.lime(GAUGE)));
        Files.write(local.resolve("a/b/conf.0020.lime"), Files.readAllBytes(Corpus.lime(GAUGE)));
        Files.writeString(local.resolve("notes.txt"), "beta=6.0\n");
        server.putTree("trees", "run/", local);
        Cli.Result expected = Cli.run("ls", "-R", local.toString());
        assertThat(expected.status()).isZero();
        assertThat(expected.stdout()).contains("/a/b/conf.0020.lime/msg02/rec04.ildg-binary-data");
        for (String argument : List.of("s3://trees/run/", "s3://trees/run")) {
            Cli.Result r = run("ls", "-R", argument);
            assertThat(r.stderr()).as(argument).isEmpty();
            // the same lines; a local directory lists in its own order, a prefix in key order
            assertThat(r.stdout().lines().sorted().toList()).as(argument)
                    .isEqualTo(expected.stdout().lines().sorted().toList());
        }
        Cli.Result bucket = run("ls", "s3://trees/");
        assertThat(bucket.stdout()).isEqualTo("run/\n");
        server.reset();
        Cli.Result top = run("ls", "-l", "s3://trees/run/a/");
        assertThat(top.status()).isZero();
        assertThat(top.stdout()).contains("conf.0010.lime").contains("b/");
        // listing a directory of containers opens none: a GET of the missing object "run/a", then LISTs only
        assertThat(server.requests()).allSatisfy(req -> assertThat(req.method()).isEqualTo("GET"));
        assertThat(server.requests().stream().filter(req -> !req.target().contains("list-type=2")).toList())
                .hasSize(1).allSatisfy(req -> assertThat(req.target()).endsWith("/trees/run/a"));
        Cli.Result missing = run("ls", "s3://trees/nothing-here/");
        assertThat(missing.status()).isEqualTo(1);
        assertThat(missing.stderr()).contains("s3://trees/nothing-here: no such key in bucket trees");
        assertThat(server.mutating()).isZero();
    }

    /**
     * info and verify of a prefix say what they say of a local directory of the same files (text and --json), the
     * root's name and URIs aside; verify exits 1 for the damaged container in both, info names it in both.
     */
    @Test
    void infoAndVerifyOfAPrefixMatchThoseOfTheSameLocalDirectory(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        server.createBucket("doors");
        Path local = Files.createDirectories(dir.resolve("run"));
        Path samples = Corpus.repositoryRoot().resolve("samples");
        Files.createDirectories(local.resolve("a/b"));
        Files.copy(Corpus.lime(GAUGE), local.resolve("a/conf.0010.lime"));
        Files.copy(samples.resolve("lime/ildg.lime"), local.resolve("a/b/conf.0020.lime"));
        Files.copy(samples.resolve("gsd/trajectory.gsd"), local.resolve("a/trajectory.gsd"));
        Files.copy(samples.resolve("scda/checkpoint.scda"), local.resolve("checkpoint.scda"));
        Files.copy(samples.resolve("sion/spikes.sion"), local.resolve("spikes.sion"));
        Files.copy(samples.resolve("sion/spikes.sion.000001"), local.resolve("spikes.sion.000001"));
        Files.copy(samples.resolve("g3/observation.g3.gz"), local.resolve("observation.g3.gz"));
        byte[] gauge = Files.readAllBytes(Corpus.lime(GAUGE));
        Files.write(local.resolve("a/conf.0030.lime"), java.util.Arrays.copyOf(gauge, gauge.length - 100)); // damaged
        Files.writeString(local.resolve("notes.txt"), "beta=6.0\n");
        Files.writeString(local.resolve("a/not-really.lime"), "plain text named like a container\n");
        server.putTree("doors", "run/", local);
        server.reset(); // the uploads are not the commands' requests
        String prefix = "s3://doors/run";
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        for (List<String> command : List.of(List.of("info"), List.of("verify"), List.of("info", "--json"),
                List.of("verify", "--json"), List.of("verify", "--env", "cacheContainers=1"))) {
            Cli.Result here = Cli.run(concat(command, local.toString()));
            for (String argument : List.of(prefix, prefix + "/")) {
                Cli.Result there = run(concat(command, argument));
                assertThat(there.stderr()).as("%s %s", command, argument).isEmpty();
                assertThat(there.status()).as("%s %s", command, argument).isEqualTo(here.status())
                        .isEqualTo(command.get(0).equals("verify") ? 1 : 0);
                String expected = here.stdout().replace(local.toUri().toString(), "<top>/")
                        .replace(local.toString(), "<top>");
                String actual = there.stdout().replace(prefix + "/", "<top>/").replace(prefix, "<top>");
                if (command.contains("--json")) {
                    assertThat(json.readTree(actual)).as("%s %s", command, argument).isEqualTo(json.readTree(expected));
                } else {
                    assertThat(actual).as("%s %s", command, argument).isEqualTo(expected);
                }
            }
            assertThat(here.stdout()).as("%s", command).contains("a/conf.0030.lime");
        }
        Cli.Result verify = run("verify", prefix + "/");
        assertThat(verify.stdout()).contains("DAMAGED /a/conf.0030.lime: ").contains("OK /a/conf.0010.lime: lime, ")
                .contains("OK /spikes.sion: sion, ").contains("OK /observation.g3.gz: g3, ")
                .contains("NOTE /a/not-really.lime: named like a container")
                .contains(prefix + ": 7 containers, 6 OK, 1 DAMAGED, 2 plain files (not read), ").endsWith(": DAMAGED\n");
        Cli.Result infoJson = run("info", "--json", prefix + "/");
        assertThat(json.readTree(infoJson.stdout()).get("directory").asText()).isEqualTo("s3://doors/run/");
        assertThat(json.readTree(infoJson.stdout()).get("damaged").get(0).get("container").asText())
                .isEqualTo("s3://doors/run/a/conf.0030.lime");
        assertThat(server.mutating()).isZero();
    }

    /** A real FUSE mount of a prefix: one read-only tree, each container a directory of its records. */
    @Test
    void mountShowsAPrefixAsOneReadOnlyTree(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        server.createBucket("mounted");
        server.put("mounted", "run/a/conf.0010.lime", Corpus.lime(GAUGE));
        server.put("mounted", "run/notes.txt", "beta=6.0\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        server.reset();
        Path mp = Files.createTempDirectory(Path.of("/tmp"), "containerfs-s3-tree-mount-");
        CompletableFuture<Cli.Result> mounted = CompletableFuture.supplyAsync(() -> run("mount", "s3://mounted/run/", mp));
        try {
            String line = mountLine(mp, mounted);
            assertThat(line).contains(" ro,").doesNotContain(S3TestServer.SECRET_KEY);
            try (var top = Files.list(mp)) {
                assertThat(top.map(p -> p.getFileName().toString()).sorted().toList()).containsExactly("a", "notes.txt");
            }
            assertThat(Files.readString(mp.resolve("notes.txt"))).isEqualTo("beta=6.0\n");
            String record = "a/conf.0010.lime/msg02/rec04.ildg-binary-data";
            assertThat(Files.readAllBytes(mp.resolve(record)))
                    .isEqualTo(Cli.run("cat", Corpus.lime(GAUGE), "/msg02/rec04.ildg-binary-data").stdoutBytes());
            assertThat(Files.isWritable(mp.resolve("a"))).isFalse();
        } finally {
            Cli.Result umount = run("umount", mp);
            assertThat(umount.status()).as(umount.stderr()).isZero();
            assertThat(mounted.get(60, TimeUnit.SECONDS).status()).isZero();
            Files.deleteIfExists(mp);
        }
        Path rw = Files.createDirectory(dir.resolve("rw"));
        assertThat(mountErrors("--rw", "s3://mounted/run/", rw)).contains("a read-write mount refused");
        assertThat(mountErrors("--format", "lime", "s3://mounted/run/", rw)).contains("env format=lime does not apply to a tree");
        assertThat(server.mutating()).isZero();
    }
}
