package org.containerfs.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.containerfs.core.ContainerFileSystems;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "put", mixinStandardHelpOptions = true,
        description = {"Appends one file to a container: a LIME record, a GSD chunk, an scda section or array element, "
                + "a SIONlib task, a G3 key.",
                "The bytes come from <source>, or from standard input when it is '-' or missing. Directories on the way "
                + "that do not exist yet are created first, as mkdir -p would: the next LIME message, GSD or G3 frame, "
                + "scda A or V section. A container that does not exist is created (its format from its name or "
                + "--format).",
                "The same rules as the Java API and the mount apply, with the same refusals: names must be the next "
                + "ones (/msg03/rec02.<type>, /5/..., /0004.B.<user>, /000007.Scan/<key>, /task000002); existing units "
                + "are never changed. The unit is committed when put ends (a GSD or G3 frame, or an scda array "
                + "section, then holds this one file): a put killed earlier leaves the container as it was, with at "
                + "most a torn tail the next append removes. A file the format refuses after put created its directory "
                + "leaves that directory as the API does: an scda A or V section is then committed empty."},
        footer = {"", "Creation attributes (the format's FileAttributes): --type and --width for a GSD chunk "
                + "(gsd:type, gsd:M), --encode for a compressed scda section (scda:encode), --element-size for an scda "
                + "A section (scda:elementSize), --global-rank for a SIONlib task (sion:globalRank); --attr and --dir-attr "
                + "pass any other.",
                "", "Examples:",
                "  printf hi | containerfs put new.lime /msg01/rec01.note -",
                "  containerfs put run.gsd /3/particles/position pos.bin --type float --width 3",
                "  containerfs put out.scda '/0002.B.restart note' note.txt --encode",
                "  containerfs put obs.g3 /000004.Scan/ScanNumber blob.bin"})
final class PutCommand implements Callable<Integer> {
    @ParentCommand
    Containerfs top;

    @Mixin
    ContainerOptions options;

    @Parameters(index = "0", paramLabel = "<container>", description = "The container: a local file, created if missing (s3:// objects are never written: refused).")
    Path container;

    @Parameters(index = "1", paramLabel = "<path>", description = "The new file's path in the container.")
    String path;

    @Parameters(index = "2", arity = "0..1", paramLabel = "<source>",
            description = "The file to read, or '-' for standard input (the default).")
    String source = "-";

    @Option(names = "--format", paramLabel = "<format>", completionCandidates = CreateCommand.FormatNames.class,
            description = "The format of a container that does not exist yet when its name does not say (${COMPLETION-CANDIDATES}).")
    String format;

    @Option(names = "--type", paramLabel = "<type>",
            description = "GSD: the chunk's type (gsd:type): uint8, uint16, uint32, uint64, int8, int16, int32, int64, "
                    + "float, double, character. Default uint8.")
    String gsdType;

    @Option(names = "--width", paramLabel = "<M>", description = "GSD: values per row (gsd:M); N is the size / (M x type size). Default 1.")
    Long gsdWidth;

    @Option(names = "--encode", description = "scda: write the section compressed (scda:encode=true, libsc's deflate + base64 convention).")
    boolean encode;

    @Option(names = "--element-size", paramLabel = "<bytes>", description = "scda: the element size of a new A section (scda:elementSize).")
    Long elementSize;

    @Option(names = "--global-rank", paramLabel = "<rank>", description = "SIONlib: the task's global rank (sion:globalRank).")
    Long globalRank;

    @Option(names = "--attr", paramLabel = "VIEW:NAME=VALUE", description = "Any creation attribute of the file (repeatable).")
    Map<String, String> fileAttributes = new LinkedHashMap<>();

    @Option(names = "--dir-attr", paramLabel = "VIEW:NAME=VALUE",
            description = "Any creation attribute of the directories put creates (repeatable).")
    Map<String, String> directoryAttributes = new LinkedHashMap<>();

    @Option(names = {"-v", "--verbose"}, description = "Print what was appended.")
    boolean verbose;

    @Override
    public Integer call() throws IOException {
        // Everything that can be checked before the container is touched is checked first: a refusal changes nothing.
        for (String segment : path.split("/")) {
            if (segment.equals(".") || segment.equals("..")) {
                // as tar and unzip refuse such names on extraction: an append goes where it is named, nowhere else
                throw new CliException(path + ": the path has a '" + segment + "' segment; name the new file "
                        + "by its path from the container's root, without '.' or '..'", 2);
            }
        }
        boolean stdin = source.equals("-");
        if (!stdin) {
            Path file = Path.of(source);
            if (!Files.exists(file)) {
                throw new NoSuchFileException(source, null, "no such source file");
            }
            if (Files.isDirectory(file)) {
                throw new CliException(source + ": is a directory (put appends one file)");
            }
        }
        Map<String, Object> forFile = new LinkedHashMap<>(fileAttributes);
        Map<String, Object> forDirectories = new LinkedHashMap<>(directoryAttributes);
        putIf(forFile, "gsd:type", gsdType);
        putIf(forFile, "gsd:M", gsdWidth);
        putIf(forFile, "sion:globalRank", globalRank);
        putIf(forDirectories, "scda:elementSize", elementSize);

        long written;
        try (FileSystem fs = options.openForAppending(container, format)) {
            String view = fs.provider().getScheme();
            checkView(view, forFile);
            checkView(view, forDirectories);
            Path target = ContainerOptions.entry(fs, path);
            if (target.getFileName() == null) {
                throw new CliException("put needs a file path in the container, not the root", 2);
            }
            List<Path> missing = new ArrayList<>();
            for (Path dir = target.getParent(); dir != null && dir.getFileName() != null && !Files.exists(dir); dir = dir.getParent()) {
                missing.add(0, dir);
            }
            if (encode) {
                // on the section put creates: the directory of an A or V section, else the file (a B section)
                (missing.isEmpty() ? forFile : forDirectories).put("scda:encode", true);
            }
            for (Path dir : missing) {
                Files.createDirectory(dir, attributes(forDirectories));
            }
            try (SeekableByteChannel out = Files.newByteChannel(target,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes(forFile));
                    InputStream in = stdin ? top.in() : Files.newInputStream(Path.of(source))) {
                // streams straight into the container in 1 MiB writes; the provider commits when the channel closes
                java.io.OutputStream sink = new java.io.BufferedOutputStream(Channels.newOutputStream(out), Streams.BUFFER);
                written = in.transferTo(sink);
                sink.flush();
            } // closing the channel commits the unit (a staged frame or array section: closing the file system)
            if (verbose) {
                top.out().println("appended " + Errors.safe(target.toString()) + " (" + written + " bytes) to " + container);
            }
        }
        return 0;
    }

    private static void putIf(Map<String, Object> map, String name, Object value) {
        if (value != null) {
            map.put(name, value);
        }
    }

    /** Attributes of another format's view would be refused by the provider or, worse, ignored: say so first. */
    private static void checkView(String view, Map<String, Object> attributes) {
        for (String name : attributes.keySet()) {
            if (!name.startsWith(view + ":")) {
                throw new CliException("attribute " + name + " does not apply to a " + view + " container (its attributes are "
                        + view + ":<name>)", 2);
            }
        }
    }

    private static FileAttribute<?>[] attributes(Map<String, Object> map) {
        List<FileAttribute<?>> list = new ArrayList<>();
        map.forEach((name, value) -> list.add(ContainerFileSystems.attribute(name, value)));
        return list.toArray(FileAttribute<?>[]::new);
    }
}
