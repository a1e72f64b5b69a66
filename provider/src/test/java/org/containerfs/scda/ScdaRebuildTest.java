package org.containerfs.scda;

import org.containerfs.core.ContainerFileSystems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.containerfs.scda.ScdaTestSupport.corpus;
import static org.containerfs.scda.ScdaTestSupport.open;
import static org.containerfs.scda.ScdaTestSupport.sha256;
import static org.containerfs.scda.ScdaTestSupport.unescape;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Files with only F/I/B/A sections come out byte-identical to what libsc wrote: each golden corpus
 * file is rebuilt from its manifest rows (types, user strings, N, E; the data bytes are those the
 * manifest's sha256 fixes) through the NIO API, on jimfs, and compared byte for byte.
 */
class ScdaRebuildTest {

    @TestFactory
    Stream<DynamicTest> libscFilesAreRebuiltByteIdentical() throws Exception {
        return Stream.of("all_types.scda", "blocks.scda", "arrays.scda", "empty_userstrings.scda", "inline_only.scda",
                        "userstring58_simple.scda", "header_only.scda", "appended_sections.scda", "sc_io_encode_payloads.scda")
                .map(name -> DynamicTest.dynamicTest(name, () -> rebuild(name)));
    }

    private static void rebuild(String name) throws Exception {
        List<String[]> rows = ScdaTestSupport.manifest().get(name);
        byte[] golden = Files.readAllBytes(corpus().resolve(name));
        try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix());
                FileSystem source = open(corpus().resolve(name), Map.of())) {
            Path target = jimfs.getPath("/out/" + name);
            Files.createDirectories(target.getParent());
            List<Path> sourceSections;
            try (Stream<Path> s = Files.list(source.getPath("/"))) {
                sourceSections = s.toList();
            }
            try (FileSystem out = open(target, Map.of("create", true, "vendor", "libsc",
                    "userString", unescape(rows.get(0)[3])))) {
                int k = 0;
                for (String[] row : rows.subList(1, rows.size() - 1)) {
                    char type = row[2].charAt(0);
                    String sectionName = ScdaContainer.sectionName(k, type, unescape(row[3]));
                    Path from = sourceSections.get(k);
                    assertThat(from.getFileName().toString()).isEqualTo(sectionName);
                    Path to = out.getPath("/" + sectionName);
                    if (type == 'A') {
                        long e = Long.parseLong(row[5]);
                        Files.createDirectory(to, ContainerFileSystems.attribute("scda:elementSize", e));
                        List<byte[]> elements = new ArrayList<>();
                        try (Stream<Path> s = Files.list(from)) {
                            for (Path el : s.toList()) {
                                elements.add(Files.readAllBytes(el));
                            }
                        }
                        assertThat(elements).hasSize(Integer.parseInt(row[4]));
                        for (int i = 0; i < elements.size(); i++) {
                            Files.write(to.resolve(String.format("%06d", i)), elements.get(i));
                        }
                    } else {
                        byte[] data = Files.readAllBytes(from);
                        assertThat(sha256(data)).isEqualTo(row[8]);
                        Files.write(to, data);
                    }
                    k++;
                }
            }
            assertThat(Files.readAllBytes(target)).isEqualTo(golden);
        }
    }
}
