package org.containerfs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What a user reads stays inside the repository: no pointer to files beside it, every relative link resolves. */
class StandaloneDocsTest {
    private static final Path ROOT = Corpus.repositoryRoot();
    private static final Pattern OUTSIDE = Pattern.compile("\\.\\./shared|shared/formats|shared/corpus|design-notes\\.md");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

    private static List<Path> userDocs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("samples/README.md"),
                ROOT.resolve("fuse-mount/README.md")));
        try (Stream<Path> s = Files.walk(ROOT.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).forEach(docs::add);
        }
        return docs;
    }

    @Test
    void theReadmeDocsAndSamplesPointNowhereOutsideTheRepository() throws IOException {
        List<Path> read = new ArrayList<>(userDocs());
        for (String tree : List.of("provider/src/main", "cli/src/main", "fuse-mount/src/main", "samples")) {
            try (Stream<Path> s = Files.walk(ROOT.resolve(tree))) {
                s.filter(p -> p.toString().endsWith(".java")).forEach(read::add);
            }
        }
        for (Path file : read) {
            assertThat(OUTSIDE.matcher(Files.readString(file)).find()).as(ROOT.relativize(file).toString()).isFalse();
        }
    }

    @Test
    void everyRelativeLinkInTheDocsResolves() throws IOException {
        for (Path doc : userDocs()) {
            Matcher m = LINK.matcher(Files.readString(doc));
            while (m.find()) {
                String target = m.group(1);
                if (target.contains("://")) {
                    continue;
                }
                assertThat(doc.getParent().resolve(target).normalize()).as(doc + " links " + target).exists();
            }
        }
    }

    @Test
    void everyFormatHasItsNotesAndTheTreeContract() {
        for (String format : List.of("lime", "gsd", "scda", "sion", "g3")) {
            assertThat(ROOT.resolve("docs/formats/" + format + ".md")).isRegularFile();
        }
        assertThat(ROOT.resolve("docs/tree.md")).content().contains("%2E%2E").contains("%%");
    }

    @Test
    void noHelpTextPointsOutsideTheRepository() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
        CommandLine cl = Containerfs.commandLine(out, out);
        List<CommandLine> all = new ArrayList<>(List.of(cl));
        all.addAll(cl.getSubcommands().values());
        for (CommandLine c : all) {
            c.usage(out);
        }
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("containerfs put").doesNotContainPattern(OUTSIDE);
    }
}
