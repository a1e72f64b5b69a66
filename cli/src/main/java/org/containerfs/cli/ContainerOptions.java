package org.containerfs.cli;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.containerfs.core.ContainerFileSystemProvider;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.ensemble.EnsembleFileSystem;
import org.containerfs.spi.OpenProgress;
import picocli.CommandLine.Model.CommandSpec;
import org.containerfs.s3.S3Arguments;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Options every container-reading subcommand shares, and the one way they open a container. */
final class ContainerOptions {

    @Option(names = "--strict", description = "Fail on any damage instead of showing the readable part (env strict=true).")
    boolean strict;

    @Option(names = "--env", paramLabel = "KEY=VALUE",
            description = "An option for the format's provider, passed in the env map (repeatable), e.g. --env decode=false.")
    Map<String, String> env = new LinkedHashMap<>();

    @Option(names = "--debug", description = "Print the stack trace of an error.")
    boolean debug;

    @Option(names = {"-q", "--quiet"}, description = "No progress line (shown on standard error only when it is a terminal).")
    boolean quiet;

    @Option(names = "--progress", description = "Show the progress line even when standard error is not a terminal.")
    boolean progress;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    private boolean warned;

    /** Whether long work shows a progress line: --progress, or a terminal on standard error without --quiet. */
    boolean showProgress() {
        return !quiet && (progress || root().stderrIsTerminal());
    }

    /** A progress line on standard error (drawing nothing when {@link #showProgress} says no); total -1: unknown. */
    Progress progress(String label, long total) {
        return Progress.start(root().err(), root().out(), showProgress(), label, total);
    }

    private Containerfs root() {
        return (Containerfs) command.root().userObject();
    }

    /** Opens {@code container} (a file, or an {@code s3://bucket/key} object) read-only with the provider that recognises it. */
    FileSystem open(Path container) throws IOException {
        if (S3Arguments.isS3(container)) {
            try {
                return S3Arguments.open(container, env(container));
            } catch (ProviderNotFoundException e) {
                throw notAContainer(container); // the same bytes get the same answer as in a local file
            }
        }
        if (!Files.exists(container)) {
            throw new NoSuchFileException(container.toString(), null, "no such container file");
        }
        if (Files.isDirectory(container)) {
            throw new CliException(container + ": is a directory, not a container file");
        }
        Map<String, Object> map = env(container);
        // The container formats are asked first: FileSystems.newFileSystem alone would let the JDK's zip
        // provider (which comes before class-path providers) claim a container named *.zip or *.jar.
        for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
            if (p instanceof ContainerFileSystemProvider) {
                try {
                    return p.newFileSystem(container, map);
                } catch (UnsupportedOperationException notThisFormat) {
                    // the next format may recognise it
                }
            }
        }
        try {
            return FileSystems.newFileSystem(container, map);
        } catch (ProviderNotFoundException e) {
            throw notAContainer(container);
        }
    }

    /** Bytes no installed format claims: not damage (verify does not call them DAMAGED), another kind of file. */
    private static CliException notAContainer(Path container) {
        return new CliException(name(container) + ": not a container of a supported format (supported: "
                + String.join(", ", supportedFormats()) + ")");
    }

    /**
     * {@link #open} a container, or a local directory as one read-only tree of the containers below it
     * ({@code ContainerFileSystems.openTree}, docs/ensemble.md): a listing opens no container.
     */
    FileSystem openContainerOrTree(Path path) throws IOException {
        if (S3Arguments.isS3(path)) {
            // an object, else a prefix (s3://bucket/run/) as one tree of the containers below it
            Map<String, Object> treeEnv = env(path);
            treeEnv.remove(OpenProgress.ENV_KEY);
            try {
                return S3Arguments.openContainerOrTree(path, env(path), treeEnv);
            } catch (ProviderNotFoundException e) {
                throw notAContainer(path);
            }
        }
        if (!isTree(path)) {
            return open(path);
        }
        return openTree(path);
    }

    /** Whether {@code path} is a local directory: a tree of the containers below it, not one container. */
    static boolean isTree(Path path) {
        return !S3Arguments.isS3(path) && Files.isDirectory(path);
    }

    /** A local directory as one read-only tree of its containers (docs/ensemble.md); --env goes to every container's open. */
    EnsembleFileSystem openTree(Path dir) throws IOException {
        Map<String, Object> map = env(dir);
        map.remove(OpenProgress.ENV_KEY); // a line naming the directory would be wrong for each container's open
        return ContainerFileSystems.openTree(dir, map);
    }

    /**
     * Opens {@code container} for appending, or creates it when it does not exist: of {@code format} if given, else
     * of the format whose file name ending it has (.lime, .gsd, ...). Creating goes to the format's provider
     * directly, never through {@code FileSystems.newFileSystem}, whose zip provider would make a zip file.
     */
    FileSystem openForAppending(Path container, String format) throws IOException {
        if (S3Arguments.isS3(container)) {
            throw S3Arguments.refusal(container, "appending to " + S3Arguments.display(container));
        }
        if (Files.isDirectory(container)) {
            throw new CliException(container + ": is a directory, not a container file");
        }
        Map<String, Object> map = writeEnv();
        if (!Files.exists(container)) {
            return ContainerFileSystems.create(container, format != null ? format : formatByName(container), map);
        }
        map.put("accessMode", "readWrite");
        if (format != null) {
            return ContainerFileSystems.provider(format).newFileSystem(container, map);
        }
        try {
            return ContainerFileSystems.open(container, map);
        } catch (ProviderNotFoundException e) {
            throw notAContainer(container);
        }
    }

    /** The env map of a writing command: the --env options and --strict. */
    Map<String, Object> writeEnv() {
        warnOfUnknownKeys();
        Map<String, Object> map = new LinkedHashMap<>(env);
        if (strict) {
            map.put("strict", "true");
        }
        return map;
    }

    /** The container as messages show it: the path as given, or {@code s3://bucket/key}. */
    static String name(Path container) {
        return S3Arguments.isS3(container) ? S3Arguments.display(container) : container.toString();
    }

    /** The env of a read-only open: --env pairs and --strict; a writing option is a usage error. */
    private Map<String, Object> env(Path container) {
        warnOfUnknownKeys();
        Map<String, Object> map = new LinkedHashMap<>(env);
        for (String writing : List.of("create", "accessMode")) {
            if (map.containsKey(writing)) {
                throw new CliException("--env " + writing + ": this command only reads; containers are opened read-only"
                        + (S3Arguments.isS3(container) ? " (and objects in S3 are never written to)" : ""), 2);
            }
        }
        // the first open of a big container (a .g3.gz's index build) reads it whole: say how far it got
        // (only when the line is shown: the listener is called for every read of the opening scan)
        if (showProgress()) {
            map.put(OpenProgress.ENV_KEY, progress("indexing " + (S3Arguments.isS3(container)
                    ? S3Arguments.display(container) : String.valueOf(container.getFileName())), -1));
        }
        if (strict) {
            map.put("strict", "true");
        }
        return map;
    }

    /** A key nothing reads does nothing: say so on standard error (once per command), naming the nearest known one. */
    private void warnOfUnknownKeys() {
        if (warned) {
            return;
        }
        warned = true;
        for (String key : env.keySet()) {
            String warning = EnvKeys.warning(key);
            if (warning != null) {
                root().err().println(command.qualifiedName() + ": warning: "
                        + Errors.safe(warning));
            }
        }
    }

    /** The format a new container's file name selects, or a usage error saying how to choose one. */
    static String formatByName(Path container) {
        String name = String.valueOf(container.getFileName()).toLowerCase(java.util.Locale.ROOT);
        for (ContainerFileSystemProvider p : ContainerFileSystems.providers()) {
            for (String extension : p.format().fileExtensions()) {
                if (name.endsWith("." + extension)) {
                    return p.getScheme();
                }
            }
        }
        throw new CliException(container + ": no such container, and its name does not say which format to create "
                + "(end it in one of .lime, .gsd, .scda, .sion, .g3, or give --format)", 2);
    }

    /** The formats whose providers are registered (their URI schemes). */
    static List<String> supportedFormats() {
        List<String> names = new ArrayList<>();
        for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
            if (p instanceof ContainerFileSystemProvider) {
                names.add(p.getScheme());
            }
        }
        return names;
    }

    /** A user-given container path: absolute, or relative to the root; normalized. */
    static Path entry(FileSystem fs, String given) {
        Path root = fs.getRootDirectories().iterator().next();
        return root.resolve(fs.getPath(given)).normalize();
    }

    /** The format's attribute view name for this file system, or null if it has none (e.g. a zip file). */
    static String formatView(FileSystem fs) {
        String scheme = fs.provider().getScheme();
        return fs.supportedFileAttributeViews().contains(scheme) ? scheme : null;
    }

    /** The format's attributes of {@code p} (empty if the file system has no format view). */
    static Map<String, Object> formatAttributes(Path p) throws IOException {
        if (p.getFileSystem() instanceof org.containerfs.ensemble.EnsembleFileSystem tree) {
            return tree.formatAttributes(p); // inside a container as in its single open; nothing for the rest
        }
        String view = formatView(p.getFileSystem());
        if (view == null) {
            return Map.of();
        }
        return Files.readAttributes(p, view + ":*");
    }
}
