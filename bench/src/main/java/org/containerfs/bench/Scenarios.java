package org.containerfs.bench;

import java.util.List;

/** Every format's scenarios, in table order: the one list to extend when a format lands. */
final class Scenarios {
    private Scenarios() {}

    static final List<FormatScenarios> ALL = List.of(
            new LimeScenarios(),
            new GsdScenarios(),
            new ScdaScenarios(),
            new SionScenarios(),
            new G3Scenarios(),
            new SparkScenarios(),
            new FuseScenarios(),
            new RemoteScenarios(),
            new EnsembleScenarios());
}
