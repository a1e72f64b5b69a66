package org.containerfs.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** Runs the committed inputs as a normal test; scripts/fuzz runs it as a fuzzer (JAZZER_FUZZ=1). */
class LimeFuzzTest {
    @FuzzTest(maxDuration = "60s")
    @Timeout(value = 10, unit = TimeUnit.SECONDS) // per input: a hang is a finding
    void openWalkAndReadEverything(byte[] data) {
        ContainerFuzzing.openWalkAndRead("lime", "fuzz.lime", data, Map.of());
    }
}
