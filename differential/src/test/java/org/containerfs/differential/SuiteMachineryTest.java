package org.containerfs.differential;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The suite's own parts: a difference is found and named, aspects hide only what they say, variants repeat. */
class SuiteMachineryTest {
    @TempDir
    Path dir;

    private static final Input INPUT = new Input("lime", "x.lime", "cut-7", Path.of("/in/lime/cut-7__x.lime"));

    private static Answer answer(Object... pathsAndEntries) {
        Map<String, Answer.Entry> entries = new java.util.TreeMap<>();
        for (int i = 0; i < pathsAndEntries.length; i += 2) {
            entries.put((String) pathsAndEntries[i], (Answer.Entry) pathsAndEntries[i + 1]);
        }
        return Answer.of(entries);
    }

    @Test
    void theFirstDifferingPathIsNamedWithBothAnswersAndTheDoor() {
        Answer reference = answer("/msg01", Answer.Entry.directory(), "/msg01/rec01.a", Answer.Entry.file(3, "aa"),
                "/msg01/rec02.b", Answer.Entry.file(5, Answer.UNREADABLE));
        Answer door = answer("/msg01", Answer.Entry.directory(), "/msg01/rec01.a", Answer.Entry.file(3, "aa"));
        String message = Comparison.difference("spark-listing", INPUT, reference, door, EnumSet.of(Aspect.SIZES));
        assertThat(message).startsWith("door spark-listing disagrees with nio on lime/cut-7__x.lime (cut-7 of corpus file lime/x.lime)")
                .contains("first differing path /msg01/rec02.b: nio: file of 5 bytes, content not read; spark-listing: absent")
                .contains("(1 of 2 paths differ)");
        assertThat(Comparison.difference("nio", INPUT, reference, reference, EnumSet.allOf(Aspect.class))).isNull();
    }

    @Test
    void aDoorIsComparedThroughWhatItCanSeeOnly() {
        Answer reference = answer("/d", Answer.Entry.directory(), "/d/f", Answer.Entry.file(4, "sha"));
        Answer filesOnly = answer("/d/f", Answer.Entry.file(4, "other"));
        assertThat(Comparison.difference("spark-listing", INPUT, reference, filesOnly, EnumSet.of(Aspect.SIZES))).isNull();
        assertThat(Comparison.difference("spark-content", INPUT, reference, filesOnly,
                EnumSet.of(Aspect.SIZES, Aspect.CONTENT))).contains("/d/f: nio: file of 4 bytes, sha; spark-content: file of 4 bytes, other");
        // without REFUSAL a refused container is an empty one; with it, refusing differs from listing nothing
        assertThat(Comparison.difference("spark-listing", INPUT, Answer.refusedToOpen(), answer(), EnumSet.of(Aspect.SIZES))).isNull();
        assertThat(Comparison.difference("cli", INPUT, Answer.refusedToOpen(), answer(), EnumSet.allOf(Aspect.class)))
                .endsWith("nio refuses to open it, cli opens it (0 entries)");
    }

    @Test
    void contentSaysWhenTheBytesReadAreNotTheListedSize() {
        assertThat(NioWalk.content(new byte[] {1, 2, 3}, 3)).hasSize(64);
        assertThat(NioWalk.content(new byte[] {1, 2, 3}, 4)).endsWith(" of 3 bytes, not 4");
    }

    @Test
    void variantsAreTheSameOnEveryRunAndEachDiffersFromTheOriginal() throws Exception {
        Path corpusFile = Inputs.corpus().resolve("lime/s01_single_record.lime");
        List<Damage.Variant> first = Damage.of("lime", corpusFile);
        List<Damage.Variant> second = Damage.of("lime", corpusFile);
        byte[] original = Files.readAllBytes(corpusFile);
        assertThat(first).hasSameSizeAs(second).hasSizeGreaterThanOrEqualTo(6);
        for (int i = 0; i < first.size(); i++) {
            assertThat(first.get(i).name()).isEqualTo(second.get(i).name()).matches("[a-z0-9-]+");
            assertThat(first.get(i).bytes()).isEqualTo(second.get(i).bytes()).isNotEqualTo(original);
        }
        assertThat(first).extracting(Damage.Variant::name).anyMatch(n -> n.startsWith("cut-"))
                .anyMatch(n -> n.startsWith("flip-header-")).anyMatch(n -> n.startsWith("flip-payload-"))
                .contains("trailing-garbage");
    }

    @Test
    void aPayloadFlipLandsInsideTheLargestRecordsBytes() throws Exception {
        Path corpusFile = Inputs.corpus().resolve("lime/s13_large_record.lime");
        byte[] bytes = Files.readAllBytes(corpusFile);
        long at = Damage.payloadOffset("lime", corpusFile, bytes);
        // the large record is most of the file: its middle lies well past the first header (144 bytes)
        assertThat(at).isGreaterThan(144).isLessThan(bytes.length);
    }

    @Test
    void gzipFilesGetGzipDamageAndG3FilesAChecksumFlip() throws Exception {
        Path gz = Inputs.corpus().resolve("g3/simple-types.g3.gz");
        assertThat(Damage.of("g3", gz)).extracting(Damage.Variant::name)
                .anyMatch(n -> n.startsWith("gz-deflate-")).anyMatch(n -> n.startsWith("gz-isize-"))
                .contains("gz-bad-member").anyMatch(n -> n.startsWith("flip-checksum-"));
        Path g3 = Inputs.corpus().resolve("g3/simple-types.g3");
        assertThat(Damage.of("g3", g3)).extracting(Damage.Variant::name)
                .contains("flip-checksum-" + (Files.size(g3) - 2));
    }

    @Test
    void everyFormatDirectoryOfTheCorpusBecomesInputs() throws Exception {
        Map<String, List<Input>> inputs = Inputs.generate(Inputs.corpus(), dir);
        assertThat(inputs.keySet()).containsExactly("g3", "gsd", "lime", "scda", "sion");
        for (List<Input> ofFormat : inputs.values()) {
            assertThat(ofFormat).anyMatch(Input::original).anyMatch(i -> !i.original());
            for (Input input : ofFormat) {
                assertThat(input.file()).exists().hasParent(dir.resolve(input.format()));
            }
        }
    }
}
