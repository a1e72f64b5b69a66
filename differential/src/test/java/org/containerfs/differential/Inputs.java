package org.containerfs.differential;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The inputs every door is asked about: each file of each format's corpus directory, as it is and as
 * its {@link Damage} variants, written to {@code root/<format>/}. A format is a directory of the corpus
 * with a MANIFEST.tsv; a new one is found without a line of code.
 */
final class Inputs {
    private Inputs() {}

    /**
     * The corpus: the {@code containerfs.corpus} property the parent pom sets for every module's tests
     * (provider/src/test/resources/corpus, the shared reference corpus), else that directory found above
     * the working directory.
     */
    static Path corpus() {
        String property = System.getProperty("containerfs.corpus");
        if (property != null) {
            return Path.of(property);
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("provider/src/test/resources/corpus");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no corpus: set -Dcontainerfs.corpus=<dir>");
    }

    /** Format name to its inputs (corpus files first, then variants), generated under {@code root}. */
    static Map<String, List<Input>> generate(Path corpus, Path root) throws IOException {
        Map<String, List<Input>> byFormat = new LinkedHashMap<>();
        for (Path dir : sorted(corpus)) {
            if (!Files.isDirectory(dir) || !Files.isRegularFile(dir.resolve("MANIFEST.tsv"))) {
                continue;
            }
            String format = dir.getFileName().toString();
            Path out = Files.createDirectories(root.resolve(format));
            List<Input> inputs = new ArrayList<>();
            List<Input> variants = new ArrayList<>();
            for (Path file : sorted(dir)) {
                String name = file.getFileName().toString();
                if (!Files.isRegularFile(file) || name.endsWith(".tsv") || name.endsWith(".md")) {
                    continue;
                }
                Path copy = Files.copy(file, out.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                inputs.add(new Input(format, name, Input.ORIGINAL, copy));
                for (Damage.Variant v : Damage.of(format, file)) {
                    Path damaged = Files.write(out.resolve(v.name() + "__" + name), v.bytes());
                    variants.add(new Input(format, name, v.name(), damaged));
                }
            }
            inputs.addAll(variants);
            byFormat.put(format, List.copyOf(inputs));
        }
        if (byFormat.isEmpty()) {
            throw new IllegalStateException("no format directory with a MANIFEST.tsv in " + corpus);
        }
        return byFormat;
    }

    private static List<Path> sorted(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }
}
