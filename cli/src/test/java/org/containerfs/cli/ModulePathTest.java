package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The provider jar as a Java user's modular application sees it: module org.containerfs, providers registered. */
class ModulePathTest {
    private static final Path ROOT = Corpus.repositoryRoot();
    private static final Path PROVIDER_JAR = ROOT.resolve("provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar");

    @TempDir
    Path tmp;

    @Test
    void everyModuleJarNamesItsModule() throws Exception {
        for (String[] jar : List.of(new String[] {"provider/target/containerfs-provider-0.1.0-SNAPSHOT.jar", "org.containerfs"},
                new String[] {"cli/target/containerfs.jar", "org.containerfs.cli"})) {
            try (JarFile f = new JarFile(ROOT.resolve(jar[0]).toFile())) {
                assertThat(f.getManifest().getMainAttributes().getValue("Automatic-Module-Name")).as(jar[0]).isEqualTo(jar[1]);
            }
        }
    }

    @Test
    void aModularApplicationRequiringOrgContainerfsOpensASampleByItsMagicBytes() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/app"));
        Files.writeString(tmp.resolve("src/module-info.java"), "module app { requires org.containerfs; }\n");
        Files.writeString(src.resolve("Main.java"), """
                package app;
                import java.nio.file.*;
                public class Main {
                    public static void main(String[] args) throws Exception {
                        try (FileSystem fs = FileSystems.newFileSystem(Path.of(args[0]))) {
                            System.out.println(fs.provider().getScheme() + " " + Files.getAttribute(fs.getPath("/"), "lime:records"));
                        }
                        try (FileSystem fs = org.containerfs.core.ContainerFileSystems.create(Path.of(args[1]), "gsd")) {
                            System.out.println(fs.provider().getScheme());
                        }
                    }
                }
                """);
        Path classes = tmp.resolve("classes");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = ToolProvider.getSystemJavaCompiler().run(null, diagnostics, diagnostics, "--release", "17",
                "--module-path", PROVIDER_JAR.toString(), "-d", classes.toString(),
                tmp.resolve("src/module-info.java").toString(), src.resolve("Main.java").toString());
        assertThat(status).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", PROVIDER_JAR + java.io.File.pathSeparator + classes, "-m", "app/app.Main",
                ROOT.resolve("samples/lime/ildg.lime").toString(), tmp.resolve("new.gsd").toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).isEqualTo("lime 8\ngsd\n");
    }
}
