package org.containerfs.bench;

import java.util.List;

/**
 * The scenarios of one format (or of the FUSE mount). To add a format, write one implementation
 * and add it to {@link Scenarios#ALL}: the harness runs it, tabulates its rows and charts the scaling
 * series it reports through {@link Context#scaling}.
 */
public interface FormatScenarios {

    /** Short name used by {@code bench/run --only NAME} and in progress messages ({@code lime}, {@code gsd}...). */
    String name();

    /**
     * Null when the scenarios can run here; otherwise why not (no provider for the format in this build,
     * a reference tool missing...). The harness then prints one SKIPPED row per scenario title.
     */
    default String unavailableBecause() {
        return null;
    }

    /** The scenario titles, for the SKIPPED rows. */
    List<String> titles();

    /** Generates inputs under {@link Context#workDir()}, measures, and returns the table rows. */
    List<Row> run(Context context) throws Exception;
}
