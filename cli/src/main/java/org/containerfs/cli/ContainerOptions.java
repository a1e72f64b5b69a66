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
import org.containerfs.s3.S3Arguments;
import picocli.CommandLine.Option;

/** Options every container-reading subcommand shares, and the one way they open a container. */
final class ContainerOptions {

    @Option(names = "--strict", description = "Fail on any damage instead of showing the readable part (env strict=true).")
    boolean strict;

    @Option(names = "--env", paramLabel = "KEY=VALUE",
            description = "An option for the format's provider, passed in the env map (repeatable), e.g. --env decode=false.")
    Map<String, String> env = new LinkedHashMap<>();

    @Option(names = "--debug", description = "Print the stack trace of an error.")
    boolean debug;

    /** Opens {@code container} (a file, or an {@code s3://bucket/key} object) read-only with the provider that recognises it. */
    FileSystem open(Path container) throws IOException {
        if (S3Arguments.isS3(container)) {
            return S3Arguments.open(container, env(container));
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
            throw new CliException(container + ": not a container of a supported format (supported: "
                    + String.join(", ", supportedFormats()) + ")");
        }
    }

    /** The container as messages show it: the path as given, or {@code s3://bucket/key}. */
    static String name(Path container) {
        return S3Arguments.isS3(container) ? S3Arguments.display(container) : container.toString();
    }

    /** The env of a read-only open: --env pairs and --strict; a writing option is a usage error. */
    private Map<String, Object> env(Path container) {
        Map<String, Object> map = new LinkedHashMap<>(env);
        for (String writing : List.of("create", "accessMode")) {
            if (map.containsKey(writing)) {
                throw new CliException("--env " + writing + ": this command only reads; containers are opened read-only"
                        + (S3Arguments.isS3(container) ? " (and objects in S3 are never written to)" : ""), 2);
            }
        }
        if (strict) {
            map.put("strict", "true");
        }
        return map;
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
        String view = formatView(p.getFileSystem());
        if (view == null) {
            return Map.of();
        }
        return Files.readAttributes(p, view + ":*");
    }
}
