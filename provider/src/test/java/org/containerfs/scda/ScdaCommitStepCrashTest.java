package org.containerfs.scda;

import org.containerfs.core.ContainerFileSystems;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.Channels;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.containerfs.HaltedChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stops an scda appender at every write/truncate/force of its protocol (whole and torn in half) with
 * ContainerChannel's fault-injection hook: every section whose commit returned is there byte-exact,
 * the tail is at most a torn append, and the next append removes it and reads strictly.
 */
class ScdaCommitStepCrashTest {
    /** Sections 0..1 exist; the child appends 2 (block), 3 (encoded block), 4 (array), 5 (encoded array). */
    private static final int BASE = 2;
    private static final int LAST = 5;

    @TempDir
    Path tmp;

    static byte[] content(int k, int element) {
        // A arrays have fixed-size elements; V arrays vary
        return ScdaAppendLoop.payload(k, element, 700 + 31 * k + (k % 4 == 3 ? element : 0));
    }

    static String name(int k) {
        return String.format("/%04d.%s.section %d", k, k % 4 < 2 ? "B" : k % 4 == 2 ? "A" : "V", k);
    }

    static void append(FileSystem fs, int k) throws Exception {
        Path p = fs.getPath(name(k));
        if (k % 4 < 2) {
            try (OutputStream out = Channels.newOutputStream(Files.newByteChannel(p,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    ContainerFileSystems.attribute("scda:encode", k % 4 == 1)))) {
                out.write(content(k, 0));
            }
        } else {
            Files.createDirectory(p, ContainerFileSystems.attribute("scda:encode", k % 4 == 3));
            for (int e = 0; e < 3; e++) {
                Files.write(p.resolve(String.format("%06d", e)), content(k, e));
            }
            Files.setAttribute(p, "scda:commit", true);
        }
    }

    /** Child: appends sections up to LAST, printing each after its commit returned. */
    public static void main(String[] args) throws Exception {
        try (FileSystem fs = ScdaTestSupport.open(Paths.get(args[0]), Map.of("accessMode", "readWrite"))) {
            for (int k = (Integer) Files.getAttribute(fs.getPath("/"), "scda:sections"); k <= LAST; k++) {
                append(fs, k);
                System.out.println(k);
                System.out.flush();
            }
        }
    }

    @Test
    void everyStepOfTheAppendProtocolLeavesEveryCommittedSectionAndARemovableTail() throws Exception {
        Path base = tmp.resolve("base.scda");
        try (FileSystem fs = ScdaTestSupport.open(base, Map.of("create", true))) {
            for (int k = 0; k < BASE; k++) {
                append(fs, k);
            }
        }
        int halted = 0;
        for (boolean torn : new boolean[] {false, true}) {
            for (int step = 1; ; step++) {
                Path file = tmp.resolve("halt-" + torn + "-" + step + ".scda");
                Files.copy(base, file, StandardCopyOption.REPLACE_EXISTING);
                HaltedChild child = HaltedChild.run(ScdaCommitStepCrashTest.class, step, torn, file.toString());
                if (child.exitCode() == 0) {
                    assertThat(check(file, LAST + 1)).isEqualTo(LAST + 1);
                    break;
                }
                assertThat(child.halted()).as("halted by the hook at step %d: %s", step, child).isTrue();
                halted++;
                int committed = BASE + child.printed().size();
                int sections = check(file, committed);
                assertThat(sections).as("step %d torn %s", step, torn).isBetween(committed, committed + 1);
                try (FileSystem fs = ScdaTestSupport.open(file, Map.of("accessMode", "readWrite"))) {
                    append(fs, sections);
                }
                try (FileSystem fs = ScdaTestSupport.open(file, Map.of("strict", true))) {
                    assertThat(Files.getAttribute(fs.getPath("/"), "scda:sections")).isEqualTo(sections + 1);
                }
                assertThat(check(file, sections + 1)).isEqualTo(sections + 1);
            }
        }
        System.out.printf("commit steps scda: %d halts (whole and torn writes), every one checked%n", halted);
        assertThat(halted).as("protocol steps covered").isGreaterThanOrEqualTo(2 * 4);
    }

    /** Every section is byte-exact; the damage is none or a torn tail; returns the section count. */
    private static int check(Path file, int committed) throws Exception {
        try (FileSystem fs = ScdaTestSupport.open(file, Map.of())) {
            Map<String, Object> root = Files.readAttributes(fs.getPath("/"), "scda:*");
            assertThat(root.get("damage").equals("") || Boolean.TRUE.equals(root.get("tornTail")))
                    .as("damage: %s", root.get("damage")).isTrue();
            List<Path> sections;
            try (Stream<Path> s = Files.list(fs.getPath("/"))) {
                sections = s.sorted().toList();
            }
            assertThat(sections.size()).isGreaterThanOrEqualTo(committed);
            for (int k = 0; k < sections.size(); k++) {
                Path sp = sections.get(k);
                assertThat("/" + sp.getFileName()).isEqualTo(name(k));
                if (k % 4 < 2) {
                    assertThat(Files.readAllBytes(sp)).as("section %d", k).isEqualTo(content(k, 0));
                } else {
                    for (int e = 0; e < 3; e++) {
                        assertThat(Files.readAllBytes(sp.resolve(String.format("%06d", e))))
                                .as("section %d element %d", k, e).isEqualTo(content(k, e));
                    }
                }
            }
            return sections.size();
        }
    }
}
