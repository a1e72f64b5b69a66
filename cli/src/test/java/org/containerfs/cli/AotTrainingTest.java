package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.containerfs.fuse.AotTraining;
import org.junit.jupiter.api.Test;

/** What the launcher's recording run loads at exit; the cache that results is checked in LauncherTest. */
class AotTrainingTest {
    private static final Path JAR = Corpus.repositoryRoot().resolve("cli/target/containerfs.jar");

    /** A class loader of the runnable jar alone that tells which classes it has loaded. */
    static final class JarLoader extends URLClassLoader {
        JarLoader(Path jar) throws Exception {
            super(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        }

        boolean hasLoaded(String name) {
            return findLoadedClass(name) != null;
        }
    }

    @Test
    void loadsEveryClassOfTheToolAndOfPicocliButNoneOfTheOtherLibraries() throws Exception {
        try (JarLoader loader = new JarLoader(JAR)) {
            int loaded = AotTraining.loadEveryToolClass(JAR, loader);

            assertThat(loaded).isGreaterThan(500);
            assertThat(loader.hasLoaded("org.containerfs.ensemble.EnsembleFileSystem")).isTrue();
            assertThat(loader.hasLoaded("org.containerfs.cli.VerifyCommand")).isTrue();
            assertThat(loader.hasLoaded("picocli.CommandLine$Model$CommandSpec")).isTrue();
            assertThat(loader.hasLoaded("software.amazon.awssdk.services.s3.S3Client")).isFalse();
            assertThat(loader.hasLoaded("org.cryptomator.jfuse.api.Fuse")).isFalse();
        }
    }
}
