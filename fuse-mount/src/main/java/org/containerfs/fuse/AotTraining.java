package org.containerfs.fuse;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The launcher's recording run ({@link AotRecording}), when it keeps its record, also loads every class of the tool
 * and of picocli in the jar as it ends, so that the AOT cache holds them whichever command trained it.
 *
 * <p>Why: the cache holds the classes its recording run loaded, and the launcher records the first run of a kind
 * that did its work. A first mount of one LIME file left the directory-tree classes, the other formats' and the
 * other subcommands' out of the cache, and a later mount of a directory of containers read and verified them from
 * the jar at every start. Loading (without initialising) is enough: the cache links what was loaded. Classes of
 * other libraries in the jar (the AWS SDK, jfuse) are left to the runs that use them: there are thousands, most
 * never used. The cost: the cache about 2 MB larger, and as much more resident in a daemon.
 */
public final class AotTraining {
    private static final String[] PACKAGES = {"org/containerfs/", "picocli/"};

    private AotTraining() {}

    /** Loads the tool's and picocli's classes from the jar this class came from; returns how many were loaded. */
    static int loadEveryToolClass() {
        try {
            return loadEveryToolClass(jarOfThisClass(), AotTraining.class.getClassLoader());
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return 0; // not run from a jar (tests, an IDE): nothing to train
        }
    }

    /** Loads (without initialising) the classes of {@code jar} in the tool's and picocli's packages through {@code loader}. */
    public static int loadEveryToolClass(Path jar, ClassLoader loader) throws IOException {
        int loaded = 0;
        try (InputStream in = Files.newInputStream(jar);
             ZipInputStream entries = new ZipInputStream(in)) {
            for (ZipEntry e; (e = entries.getNextEntry()) != null; ) {
                String name = e.getName();
                if (name.endsWith(".class") && !name.endsWith("module-info.class") && inToolPackages(name)) {
                    try {
                        Class.forName(name.substring(0, name.length() - ".class".length()).replace('/', '.'), false, loader);
                        loaded++;
                    } catch (ClassNotFoundException | LinkageError absent) {
                        // a class whose optional dependency is absent: the cache goes without it, as the runs would
                    }
                }
            }
        }
        return loaded;
    }

    private static boolean inToolPackages(String entry) {
        for (String p : PACKAGES) {
            if (entry.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private static Path jarOfThisClass() throws URISyntaxException, IOException {
        CodeSource source = AotTraining.class.getProtectionDomain().getCodeSource();
        Path path = source == null ? null : Path.of(source.getLocation().toURI());
        if (path == null || !Files.isRegularFile(path)) {
            throw new IOException("not run from a jar: " + path);
        }
        return path;
    }
}
