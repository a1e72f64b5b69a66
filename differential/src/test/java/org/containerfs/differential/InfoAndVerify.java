package org.containerfs.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.SoftAssertions;

/**
 * {@code info} against {@code verify} on one input: {@code info} never claims soundness where
 * {@code verify} fails ("damage: none found" in text; in JSON an empty damage list without saying what was
 * checked); {@code verify --json} is one JSON document whose {@code sound} is its exit status; and
 * {@code verify} fails wherever the reference walk cannot open, list or read something.
 */
final class InfoAndVerify {
    private InfoAndVerify() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    static void check(Input input, Answer walk) {
        String container = input.file().toString();
        SoftAssertions softly = new SoftAssertions();
        CliDoor.Run verify = CliDoor.run("verify", "--json", container);
        boolean somethingFails = walk.refused() || !unreadable(walk).isEmpty();
        if (somethingFails) {
            softly.assertThat(verify.status()).as("verify of %s, where nio %s; verify said: %s%s", input,
                    walk.refused() ? "cannot open it" : "cannot read " + unreadable(walk), verify.out(), verify.stderr())
                    .isNotZero();
        }
        JsonNode verdict = oneDocument(softly, "verify --json", input, verify);
        if (verdict != null) {
            softly.assertThat(verdict.path("sound").asBoolean(false)).as("verify --json sound of %s, exit status %s",
                    input, verify.status()).isEqualTo(verify.status() == 0);
        }
        if (verify.status() != 0) {
            CliDoor.Run info = CliDoor.run("info", container);
            softly.assertThat(info.out()).as("info of %s, which verify fails: %s", input, verify.out() + verify.stderr())
                    .doesNotContain("none found");
            CliDoor.Run infoJson = CliDoor.run("info", "--json", container);
            JsonNode described = infoJson.status() == 0 ? oneDocument(softly, "info --json", input, infoJson) : null;
            if (described != null && described.path("damage").isEmpty()) {
                softly.assertThat(described.has("checked")).as("info --json of %s says no damage and not what it "
                        + "checked, while verify fails: %s", input, infoJson.out()).isTrue();
            }
        }
        softly.assertAll();
    }

    private static List<String> unreadable(Answer walk) {
        List<String> paths = new ArrayList<>();
        walk.entries().forEach((path, e) -> {
            if (Answer.UNREADABLE.equals(e.content()) || Answer.UNLISTABLE.equals(e.content())) {
                paths.add(path);
            }
        });
        return paths;
    }

    /** The whole of stdout as one JSON document (nothing before or after it), or null (a failure noted). */
    private static JsonNode oneDocument(SoftAssertions softly, String command, Input input, CliDoor.Run run) {
        String out = run.out().strip();
        try (var parser = JSON.getFactory().createParser(out)) {
            JsonNode document = JSON.readTree(parser);
            if (document != null && document.isObject() && parser.nextToken() == null) {
                return document;
            }
        } catch (java.io.IOException notJson) {
            // noted below
        }
        softly.fail("%s %s: stdout is not one JSON document: [%s] (stderr: %s)", command, input, out, run.stderr());
        return null;
    }
}
