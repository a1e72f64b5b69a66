package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** --env keys that nothing reads are named with the nearest known one; the known list follows the sources. */
class EnvKeysTest {
    /** How the core, the formats and the S3 module read an env key: options.getLong("gzipSpan", ...) and the like. */
    private static final Pattern READ = Pattern.compile(
            "(?:get(?:String|Boolean|Long|Int)?|containsKey|bytes\\(o,|duration\\(env,)\\(?\\s*\"([a-zA-Z][a-zA-Z0-9.]*)\"");

    @Test
    void everyKeyTheSourcesReadIsKnown() throws IOException {
        Set<String> read = new TreeSet<>();
        for (String module : new String[] {"provider", "s3"}) {
            try (Stream<Path> files = Files.walk(Corpus.repositoryRoot().resolve(module).resolve("src/main/java"))) {
                for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                    Matcher m = READ.matcher(Files.readString(file));
                    while (m.find()) {
                        read.add(m.group(1));
                    }
                }
            }
        }
        read.remove("progress"); // OpenProgress.ENV_KEY: the CLI's own listener, never typed
        read.remove("s3.client"); // an S3Client object: Java callers only
        assertThat(read).contains("gzipSpan", "fsblksize", "vendor", "s3.totalTimeout");
        assertThat(read).allSatisfy(key -> assertThat(EnvKeys.warning(key)).as(key).isNull());
    }

    @Test
    void aTypoIsNamedWithTheNearestKnownKeyOnStandardErrorOnly() {
        Path sample = Corpus.repositoryRoot().resolve("samples/g3/observation.g3");
        Cli.Result r = Cli.run("ls", "--env", "gzipindex=true", "--env", "verfy=false", "--env", "decode=false", sample);
        assertThat(r.status()).isZero();
        assertThat(r.stderr()).isEqualTo(
                "containerfs ls: warning: --env gzipindex is not an option of containerfs, its formats or S3, so it "
                        + "changes nothing; did you mean gzipIndex?\n"
                        + "containerfs ls: warning: --env verfy is not an option of containerfs, its formats or S3, so it "
                        + "changes nothing; did you mean verify?\n");
        assertThat(r.stdout()).isEqualTo(Cli.run("ls", sample).stdout());
        assertThat(EnvKeys.nearest("s3.totaltimeout")).isEqualTo("s3.totalTimeout");
        assertThat(EnvKeys.nearest("indexcache")).isEqualTo("indexCache");
    }

    @Test
    void writingCommandsWarnToo(@org.junit.jupiter.api.io.TempDir Path dir) {
        Cli.Result r = Cli.run("create", "gsd", dir.resolve("new.gsd"), "--env", "shema=hoomd");
        assertThat(r.status()).isZero();
        assertThat(r.stderr()).contains("--env shema is not an option").contains("did you mean schema?");
        Cli.Result strictStillAnError = Cli.run("ls", "--env", "accessMode=readWrite", "--env", "nope=1",
                Corpus.repositoryRoot().resolve("samples/g3/observation.g3"));
        assertThat(strictStillAnError.status()).isEqualTo(2);
        assertThat(strictStillAnError.stderr()).contains("did you mean").contains("this command only reads");
    }
}
