package org.containerfs.differential;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.containerfs.fuse.LowLevelMount;
import org.containerfs.fuse.LibFuse;
import org.containerfs.fuse.MountCommand;
import org.containerfs.fuse.MountLog;
import org.containerfs.fuse.MountedSession;
import org.containerfs.fuse.MountSettings;

/**
 * The FUSE mount, served by this JVM through the mount module's API (what {@code containerfs mount} does,
 * without a second JVM): the container opened as the mount command opens it (a refusal there is the
 * door's refusal), mounted read-only, listed by {@code find} (type and size from its lstat), every file
 * read through the kernel, then unmounted.
 *
 * <p>A mount and unmount cost a few hundred milliseconds, so unless {@code -Ddifferential.mount=all} this
 * door is asked about every corpus file as it is and one variant of each kind of damage per format (the
 * corpus file chosen per kind): see {@link #select}.
 */
final class MountDoor implements Door {
    private final Path mountPoint;
    private final boolean all = "all".equals(System.getProperty("differential.mount"));

    MountDoor(Path work) throws IOException {
        mountPoint = Files.createDirectories(work.resolve("mnt"));
    }

    /** Why this machine cannot mount (no /dev/fuse, no libfuse3), or null. */
    static String unavailableReason() {
        return LibFuse.unavailableReason();
    }

    @Override
    public String name() {
        return "mount";
    }

    /**
     * Every corpus file as it is; of the variants, one of each kind of damage (cut, flip-header, ...), taken
     * from a different corpus file for each kind (the k-th kind in name order takes its (7k mod n)-th
     * variant), so that the sample spreads over the corpus and is the same on every run.
     */
    @Override
    public List<Input> select(List<Input> inputsOfOneFormat) {
        if (all) {
            return inputsOfOneFormat;
        }
        List<Input> selected = new java.util.ArrayList<>();
        Map<String, List<Input>> byKind = new TreeMap<>();
        for (Input input : inputsOfOneFormat) {
            if (input.original()) {
                selected.add(input);
            } else {
                byKind.computeIfAbsent(input.variant().replaceAll("-[0-9]+$", ""), k -> new java.util.ArrayList<>())
                        .add(input);
            }
        }
        int k = 0;
        for (List<Input> ofKind : byKind.values()) {
            selected.add(ofKind.get(7 * k++ % ofKind.size()));
        }
        return selected;
    }

    /** One mount point, one mount at a time. */
    @Override
    public boolean concurrent() {
        return false;
    }

    @Override
    public Answer answer(Input input) throws Exception {
        FileSystem fs;
        try {
            fs = MountCommand.openContainer(input.file(), false, null, false);
        } catch (IOException | java.nio.file.ProviderNotFoundException refused) {
            return Answer.refusedToOpen();
        }
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        MountSettings settings = MountSettings.defaults(input.file().toString()).withReadOnly(true)
                .withExtraOptions(List.of());
        try (fs) {
            // the default engine of containerfs mount (libfuse's low-level API)
            MountedSession session = LowLevelMount.mount(fs.getRootDirectories().iterator().next(), mountPoint, settings,
                    new MountLog(new PrintStream(log, true, StandardCharsets.UTF_8), false));
            try {
                return walk();
            } finally {
                session.unmount(Duration.ofSeconds(5));
                session.close();
            }
        }
    }

    private Answer walk() throws IOException, InterruptedException {
        Process find = new ProcessBuilder("find", mountPoint.toString(), "-mindepth", "1", "-printf", "%y %s %P\\0")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] listing = find.getInputStream().readAllBytes();
        if (!find.waitFor(60, TimeUnit.SECONDS)) {
            find.destroyForcibly();
            throw new IOException("find under " + mountPoint + " did not end in 60 s");
        }
        Map<String, Answer.Entry> entries = new TreeMap<>();
        for (String record : new String(listing, StandardCharsets.UTF_8).split("\0")) {
            if (record.isEmpty()) {
                continue;
            }
            String[] f = record.split(" ", 3);
            String path = "/" + f[2];
            if (f[0].equals("d")) {
                entries.put(path, Answer.Entry.directory());
            } else if (f[0].equals("f")) {
                long size = Long.parseLong(f[1]);
                entries.put(path, Answer.Entry.file(size, NioWalk.content(Path.of(mountPoint + path), size)));
            } else {
                entries.put(path, new Answer.Entry(Answer.Type.FILE, -1, "a file of find type " + f[0]));
            }
        }
        if (find.exitValue() != 0) {
            // a directory find could not read: mark what it could not list (the reference says which)
            markUnlistable(entries);
        }
        return Answer.of(entries);
    }

    private void markUnlistable(Map<String, Answer.Entry> entries) {
        entries.replaceAll((path, e) -> {
            if (e.type() != Answer.Type.DIRECTORY) {
                return e;
            }
            try (var list = Files.list(Path.of(mountPoint + path))) {
                list.count();
                return e;
            } catch (IOException | java.io.UncheckedIOException unlistable) {
                return new Answer.Entry(Answer.Type.DIRECTORY, 0, Answer.UNLISTABLE);
            }
        });
    }
}
