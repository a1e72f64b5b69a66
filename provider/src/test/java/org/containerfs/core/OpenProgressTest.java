package org.containerfs.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.containerfs.spi.OpenProgress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The env key {@code progress}: the core reports the opening scan of any format, and only the opening scan. */
class OpenProgressTest {
    @TempDir
    Path tmp;

    private static Path corpus(String format, String name) {
        String dir = System.getProperty("containerfs.corpus", "src/test/resources/corpus");
        return Path.of(dir, format, name);
    }

    record Report(long bytes, long total) {}

    private static List<Report> openAndRead(Path container) throws Exception {
        List<Report> reports = new ArrayList<>();
        int[] finished = new int[1];
        OpenProgress listener = new OpenProgress() {
            @Override
            public void scanned(long bytes, long total) {
                assertThat(finished[0]).as("no report after finished()").isZero();
                reports.add(new Report(bytes, total));
            }

            @Override
            public void finished() {
                finished[0]++;
            }
        };
        try (FileSystem fs = FileSystems.newFileSystem(container, Map.of(OpenProgress.ENV_KEY, listener))) {
            assertThat(finished[0]).as("finished() once the open returned").isEqualTo(1);
            int afterOpen = reports.size();
            try (var walk = Files.walk(fs.getPath("/"))) {
                for (Path p : walk.filter(Files::isRegularFile).toList()) {
                    Files.readAllBytes(p);
                }
            }
            assertThat(reports).as("reads after the open are not the scan's").hasSize(afterOpen);
        }
        assertThat(finished[0]).isEqualTo(1);
        return reports;
    }

    @Test
    void theFirstOpenOfAG3GzReportsTheInflatingScanUpToTheWholeFile() throws Exception {
        Path gz = Files.copy(corpus("g3", "simple-types.g3.gz"), tmp.resolve("simple-types.g3.gz"));
        long size = Files.size(gz);

        List<Report> reports = openAndRead(gz);

        assertThat(reports).isNotEmpty();
        assertThat(reports).allSatisfy(r -> assertThat(r.total()).isEqualTo(size));
        assertThat(reports).extracting(Report::bytes).isSorted().doesNotHaveDuplicates();
        assertThat(reports.get(reports.size() - 1).bytes()).isEqualTo(size);
    }

    @Test
    void aLimeHeaderWalkReportsTheFurthestByteItRead() throws Exception {
        Path lime = corpus("lime", "s08_ildg_scidac_gauge.lime");

        List<Report> reports = openAndRead(lime);

        assertThat(reports).isNotEmpty();
        assertThat(reports).extracting(Report::bytes).isSorted();
        assertThat(reports.get(reports.size() - 1).bytes()).isLessThanOrEqualTo(Files.size(lime));
    }

    @Test
    void aFailedOpenFinishesTheReportToo() throws Exception {
        // a GSD file cut inside its header: the magic bytes match, the format's scan fails
        byte[] whole = Files.readAllBytes(corpus("gsd", "hoomd_trajectory.gsd"));
        Path bad = Files.write(tmp.resolve("bad.gsd"), java.util.Arrays.copyOf(whole, 100));
        int[] finished = new int[1];
        OpenProgress listener = new OpenProgress() {
            @Override
            public void scanned(long bytes, long total) {}

            @Override
            public void finished() {
                finished[0]++;
            }
        };

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> org.containerfs.core.ContainerFileSystems.provider("gsd")
                .newFileSystem(bad, Map.of("format", "gsd", OpenProgress.ENV_KEY, listener)).close())
                .isInstanceOf(java.io.IOException.class);
        assertThat(finished[0]).isEqualTo(1);
    }

    @Test
    void anotherValueUnderTheKeyIsIgnored() throws Exception {
        try (FileSystem fs = FileSystems.newFileSystem(corpus("lime", "s08_ildg_scidac_gauge.lime"),
                Map.of(OpenProgress.ENV_KEY, "true"))) {
            assertThat(Files.exists(fs.getPath("/msg01"))).isTrue();
        }
    }
}
