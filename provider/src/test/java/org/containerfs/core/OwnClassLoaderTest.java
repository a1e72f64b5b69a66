package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Spark's {@code --jars} and plug-in hosts load our jar in a class loader of their own, which
 * {@code FileSystemProvider.installedProviders()} never looks at: the formats must still be found.
 */
class OwnClassLoaderTest {

    @Test
    void formatsAreFoundWhenTheProviderIsLoadedByAnotherClassLoader() throws Exception {
        URL classes = Path.of(ContainerFileSystems.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toUri().toURL();
        try (URLClassLoader plugin = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
            Class<?> entry = plugin.loadClass(ContainerFileSystems.class.getName());
            assertThat(entry.getClassLoader()).isSameAs(plugin);
            List<?> providers = (List<?>) entry.getMethod("providers").invoke(null);
            assertThat(providers).extracting(p -> p.getClass().getMethod("getScheme").invoke(p))
                    .containsExactlyInAnyOrder("lime", "gsd", "scda", "sion", "g3");

            Class<?> pathInput = plugin.loadClass("org.containerfs.storage.PathInput");
            Class<?> input = plugin.loadClass("org.containerfs.storage.ContainerInput");
            Path sample = Path.of(System.getProperty("containerfs.corpus"), "lime", "s01_single_record.lime");
            Object source = pathInput.getMethod("of", Path.class).invoke(null, sample);
            try (FileSystem fs = (FileSystem) entry.getMethod("open", input, Map.class).invoke(null, source, Map.of())) {
                try (var names = Files.list(fs.getPath("/msg01"))) {
                    assertThat(names.count()).isEqualTo(1);
                }
            }
        }
    }
}
